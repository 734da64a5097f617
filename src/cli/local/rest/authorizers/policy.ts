/**
 * The IAM policy a Lambda authorizer returns, evaluated against the method ARN as IAM evaluates it:
 * an explicit Deny wins, else an Allow is needed; `*` and `?` are wildcards in `Action` and
 * `Resource`; action names are compared without case, resources with case.
 */
import { isPlainObject } from '../../../../outputs/cdk-free/json-data';

/** How the policy decides for the method ARN, or why it cannot be read. */
export type PolicyDecision =
  | { readonly decision: 'allow' }
  | { readonly decision: 'explicit-deny' }
  | { readonly decision: 'implicit-deny' }
  | { readonly decision: 'malformed'; readonly reason: string };

const INVOKE = 'execute-api:Invoke';

/** Evaluates `policyDocument` for `execute-api:Invoke` on `methodArn`. */
export function evaluatePolicy(policyDocument: unknown, methodArn: string): PolicyDecision {
  if (!isPlainObject(policyDocument)) {
    return { decision: 'malformed', reason: 'policyDocument is not an object' };
  }
  const raw = policyDocument.Statement;
  const statements = Array.isArray(raw) ? raw : raw !== undefined && raw !== null ? [raw] : undefined;
  if (statements === undefined) {
    return { decision: 'malformed', reason: 'policyDocument has no Statement' };
  }
  let allowed = false;
  for (const statement of statements) {
    if (statement === null || typeof statement !== 'object') {
      return { decision: 'malformed', reason: 'a Statement is not an object' };
    }
    const { Effect: effect, Action: action, Resource: resource } = statement as Record<string, unknown>;
    if (effect !== 'Allow' && effect !== 'Deny') {
      return { decision: 'malformed', reason: `Effect ${JSON.stringify(effect)} is neither Allow nor Deny` };
    }
    const actions = stringList(action);
    const resources = stringList(resource);
    if (actions === undefined || resources === undefined) {
      return { decision: 'malformed', reason: 'a Statement needs Action and Resource (a string or a list of strings)' };
    }
    const applies = actions.some((a) => wildcardMatch(a.toLowerCase(), INVOKE.toLowerCase()))
      && resources.some((r) => wildcardMatch(r, methodArn));
    if (!applies) {
      continue;
    }
    if (effect === 'Deny') {
      return { decision: 'explicit-deny' };
    }
    allowed = true;
  }
  return allowed ? { decision: 'allow' } : { decision: 'implicit-deny' };
}

function stringList(value: unknown): string[] | undefined {
  if (typeof value === 'string') {
    return [value];
  }
  if (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string')) {
    return value;
  }
  return undefined;
}

/** `*`: any run of characters (`/` included), `?`: any one character; everything else literal. */
export function wildcardMatch(pattern: string, value: string): boolean {
  const source = pattern.replace(/[.+^${}()|[\]\\*?]/g, (c) => (c === '*' ? '.*' : c === '?' ? '.' : `\\${c}`));
  return new RegExp(`^${source}$`, 's').test(value);
}
