/** `AuthorizerResultTtlInSeconds`: default 300, 0 (or anything unusable) disables caching. */
export function authorizerTtlSeconds(value: unknown): number {
  const ttl = Number(value ?? 300);
  return Number.isFinite(ttl) && ttl > 0 ? ttl : 0;
}
