/**
 * A Lambda authorizer's answers kept for its `AuthorizerResultTtlInSeconds`, keyed by the values of
 * its identity sources. The answer is kept as the function gave it and read again for each route
 * (an IAM policy may allow one route and not another), as the service does.
 */
export class AuthorizerAnswerCache {
  private readonly entries = new Map<string, { readonly payload: string | undefined; readonly expires: number }>();

  get(authorizerId: string, identity: readonly string[], now = Date.now()): { payload: string | undefined } | undefined {
    const key = JSON.stringify([authorizerId, ...identity]);
    const entry = this.entries.get(key);
    if (entry !== undefined && entry.expires <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return entry === undefined ? undefined : { payload: entry.payload };
  }

  set(authorizerId: string, identity: readonly string[], ttlSeconds: number, payload: string | undefined, now = Date.now()): void {
    if (ttlSeconds > 0) {
      this.entries.set(JSON.stringify([authorizerId, ...identity]), { payload, expires: now + ttlSeconds * 1000 });
    }
  }
}
