/**
 * Stands in for CloudFormation when a test needs "deployed" stack outputs: evaluates the
 * library's output values (Fn::Join of Fn::Base64 of each carried value) with the values a
 * test chooses for each carried expression.
 */

/** Evaluates one carried expression (a Ref, Fn::GetAtt, Fn::Join...) to its deployed value. */
export type DeployedValueOf = (expression: unknown) => string;

function evaluate(expression: any, valueOf: DeployedValueOf): string {
  if (expression && typeof expression === 'object' && 'Fn::Base64' in expression) {
    return Buffer.from(valueOf(expression['Fn::Base64']), 'utf8').toString('base64');
  }
  if (expression && typeof expression === 'object' && 'Fn::Join' in expression) {
    const [separator, parts] = expression['Fn::Join'];
    return parts.map((p: unknown) => evaluate(p, valueOf)).join(separator);
  }
  if (typeof expression === 'string') {
    return expression;
  }
  return valueOf(expression);
}

/** The stack outputs (OutputKey → OutputValue) a deploy of `template` would produce. */
export function deployedOutputs(template: any, valueOf: DeployedValueOf): Record<string, string> {
  const outputs: Record<string, string> = {};
  for (const [key, output] of Object.entries<any>(template.Outputs ?? {})) {
    outputs[key] = evaluate(output.Value, valueOf);
  }
  return outputs;
}
