/**
 * A token's claims as API Gateway hands them to the backend in `requestContext.authorizer.claims`
 * and `$context.authorizer.claims.*`: every value a string. Observed on deployed REST APIs: `exp`
 * and `iat` become dates as Java prints them (`Tue Apr 04 18:39:39 UTC 2023`), other numbers their
 * digits (`auth_time: '1680629979'`), and a list such as `cognito:groups` its items joined by
 * commas (`'admins,users'`); see https://repost.aws/questions/QUFJRBaEJRSmmqarNrvCWoQA.
 */
import { isPlainObject } from '../../../../outputs/cdk-free/json-data';
import { MONTHS, two } from '../../common/dates';

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** Claims whose seconds since the epoch the gateway shows as a date. */
const DATE_CLAIMS = new Set(['exp', 'iat']);

export function gatewayClaims(payload: Readonly<Record<string, unknown>>): Record<string, string> {
  // Claim names come from the token: a map without a prototype keeps `__proto__` an ordinary name.
  const out: Record<string, string> = Object.create(null);
  for (const [name, value] of Object.entries(payload)) {
    out[name] = claimText(name, value);
  }
  return out;
}

function claimText(name: string, value: unknown): string {
  if (typeof value === 'string') {
    return value;
  }
  if (typeof value === 'number' && DATE_CLAIMS.has(name)) {
    return javaDate(value * 1000);
  }
  if (Array.isArray(value)) {
    return value.map((item) => (typeof item === 'string' ? item : JSON.stringify(item))).join(',');
  }
  if (isPlainObject(value)) {
    return JSON.stringify(value);
  }
  return String(value);
}

/** `Tue Apr 04 18:39:39 UTC 2023`: `java.util.Date#toString` in UTC. */
export function javaDate(epochMs: number): string {
  const d = new Date(epochMs);
  return `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${two(d.getUTCDate())} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} UTC ${d.getUTCFullYear()}`;
}
