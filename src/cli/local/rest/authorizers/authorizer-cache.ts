/**
 * Lambda authorizer results kept for the authorizer's TTL, keyed by the identity source values
 * (the token for TOKEN, every source for REQUEST). A cached policy is evaluated again for each
 * method it is used on, as the gateway does.
 */

/** What an authorizer answered, as far as it is reused. */
export interface AuthorizerResult {
  readonly principalId: string;
  readonly policyDocument: unknown;
  readonly context: Readonly<Record<string, string | number | boolean>>;
  readonly usageIdentifierKey?: string;
}

export class AuthorizerCache {
  private readonly entries = new Map<string, { readonly result: AuthorizerResult; readonly expires: number }>();

  get(authorizerId: string, identity: readonly string[], now = Date.now()): AuthorizerResult | undefined {
    const key = cacheKey(authorizerId, identity);
    const entry = this.entries.get(key);
    if (entry === undefined) {
      return undefined;
    }
    if (entry.expires <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.result;
  }

  set(authorizerId: string, identity: readonly string[], ttlSeconds: number, result: AuthorizerResult, now = Date.now()): void {
    if (ttlSeconds <= 0) {
      return;
    }
    this.entries.set(cacheKey(authorizerId, identity), { result, expires: now + ttlSeconds * 1000 });
  }
}

/** JSON keeps values that contain any separator apart. */
function cacheKey(authorizerId: string, identity: readonly string[]): string {
  return JSON.stringify([authorizerId, ...identity]);
}
