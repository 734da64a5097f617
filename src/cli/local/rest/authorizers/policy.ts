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

/**
 * `*`: any run of characters (`/` included), `?`: any one character; everything else literal.
 * Greedy with one remembered `*` (the pattern's last star seen, the value's position it took):
 * on a mismatch the star takes one more character. Time is at most pattern length x value length,
 * never exponential, whatever a client puts in the path (a backtracking RegExp took 18 s for
 * `/public/` + 2,500 `a/` against `.../*\/public/*`).
 */
export function wildcardMatch(pattern: string, value: string): boolean {
  let p = 0;
  let v = 0;
  let star = -1;
  let starValue = 0;
  while (v < value.length) {
    const c = pattern[p];
    if (p < pattern.length && c !== '*' && (c === '?' || c === value[v])) {
      p++;
      v++;
    } else if (c === '*') {
      star = p++;
      starValue = v;
    } else if (star >= 0) {
      p = star + 1;
      v = ++starValue;
    } else {
      return false;
    }
  }
  while (pattern[p] === '*') {
    p++;
  }
  return p === pattern.length;
}
