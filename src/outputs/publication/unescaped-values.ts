/**
 * Which deploy-time values CloudFormation may fill with text that JSON needs escaped. An SSM
 * parameter gets its value from `Fn::Join`, which has no escaping: resource attributes (ids,
 * ARNs, URLs, names) never need it, but a template parameter, an imported value or a dynamic
 * reference can hold any text.
 */
import { CfnParameter, Stack } from 'aws-cdk-lib';
import { OutputsCollector } from '../collector';

/** A pending value whose deployed text is free. */
export interface FreeTextValue {
  readonly pointer: string;
  /** What it comes from, e.g. `the template parameter Note`. */
  readonly from: string;
}

/** The pending values of `collector` whose deployed text may need escaping in JSON. */
export function freeTextValues(stack: Stack, collector: OutputsCollector): FreeTextValue[] {
  const parameters = new Set(stack.node.findAll()
    .filter((c): c is CfnParameter => c instanceof CfnParameter)
    .map((p) => stack.resolve(p.logicalId) as string));
  const result: FreeTextValue[] = [];
  for (const { pointer, token } of collector.pendingTokens()) {
    const from = freeTextSource(stack.resolve(token), parameters);
    if (from !== undefined) {
      result.push({ pointer, from });
    }
  }
  return result;
}

function freeTextSource(expression: unknown, parameters: ReadonlySet<string>): string | undefined {
  if (typeof expression === 'string') {
    return expression.includes('{{resolve:') ? 'a dynamic reference' : undefined;
  }
  if (Array.isArray(expression)) {
    return firstDefined(expression.map((e) => freeTextSource(e, parameters)));
  }
  if (typeof expression !== 'object' || expression === null) {
    return undefined;
  }
  const record = expression as Record<string, unknown>;
  if (typeof record.Ref === 'string' && parameters.has(record.Ref)) {
    return `the template parameter ${record.Ref}`;
  }
  if ('Fn::ImportValue' in record) {
    return 'an imported value (Fn::ImportValue)';
  }
  return firstDefined(Object.values(record).map((e) => freeTextSource(e, parameters)));
}

function firstDefined(values: Array<string | undefined>): string | undefined {
  return values.find((v) => v !== undefined);
}
