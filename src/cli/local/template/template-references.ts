/**
 * How a template's resources point at each other: the logical id behind a `Ref` or `Fn::GetAtt`, and
 * the Lambda function an integration or authorizer URI invokes.
 */
import { isPlainObject } from '../../../outputs/cdk-free/json-data';

/** The logical id a `Ref` or `Fn::GetAtt` points to. */
export function referencedId(expression: unknown): string | undefined {
  if (isPlainObject(expression)) {
    const e = expression;
    if (typeof e.Ref === 'string') {
      return e.Ref;
    }
    const getAtt = e['Fn::GetAtt'];
    if (Array.isArray(getAtt) && typeof getAtt[0] === 'string') {
      return getAtt[0];
    }
    if (typeof getAtt === 'string') {
      return getAtt.split('.')[0];
    }
  }
  return undefined;
}

/** The Lambda function an integration `Uri` invokes (`Fn::GetAtt [Fn, Arn]` inside a Join or Sub). */
export function integrationFunctionId(uri: unknown, resources: Record<string, any>): string | undefined {
  let found: string | undefined;
  const visit = (value: unknown): void => {
    if (found !== undefined || value === null || typeof value !== 'object') {
      if (typeof value === 'string' && found === undefined) {
        for (const m of value.matchAll(/\$\{([A-Za-z0-9]+)\.Arn\}/g)) {
          if (resources[m[1]]?.Type === 'AWS::Lambda::Function') {
            found = m[1];
            return;
          }
        }
      }
      return;
    }
    const id = Array.isArray(value) ? undefined : referencedId(value);
    const getAtt = (value as Record<string, unknown>)['Fn::GetAtt'];
    if (id !== undefined && getAtt !== undefined && resources[id]?.Type === 'AWS::Lambda::Function') {
      found = id;
      return;
    }
    for (const child of Array.isArray(value) ? value : Object.values(value)) {
      visit(child);
    }
  };
  visit(uri);
  return found;
}
