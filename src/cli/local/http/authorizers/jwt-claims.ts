/**
 * A token's claims as HTTP APIs hand them to the integration in
 * `requestContext.authorizer.jwt.claims`: every value a string; numbers as their digits, a list as
 * its items between brackets separated by spaces (`"cognito:groups": "[admins users]"`), as reports
 * of deployed HTTP APIs show them (not checked against the service here).
 */
export function httpApiClaims(payload: Readonly<Record<string, unknown>>): Record<string, string> {
  // Claim names come from the token: a map without a prototype keeps `__proto__` an ordinary name.
  const out: Record<string, string> = Object.create(null);
  for (const [name, value] of Object.entries(payload)) {
    out[name] = claimText(value);
  }
  return out;
}

function claimText(value: unknown): string {
  if (typeof value === 'string') {
    return value;
  }
  if (Array.isArray(value)) {
    return `[${value.map((item) => (typeof item === 'string' ? item : JSON.stringify(item))).join(' ')}]`;
  }
  if (value !== null && typeof value === 'object') {
    return JSON.stringify(value);
  }
  return String(value);
}

/** The scopes a token grants: `scope` (space-separated) or `scp` (a list or a space-separated string). */
export function tokenScopes(payload: Readonly<Record<string, unknown>>): string[] {
  const raw = payload.scope ?? payload.scp;
  const list = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(' ') : [];
  return list.filter((s): s is string => typeof s === 'string' && s !== '');
}
