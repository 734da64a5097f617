/**
 * A value that is a CDK token at synth time and known only after deploy.
 *
 * In the merged document it stands where the token was; two contributions of the
 * same token are the same value.
 */
export class PendingToken {
  /** @param token the token's string encoding, e.g. `${Token[TOKEN.123]}` */
  constructor(public readonly token: string) {}

  public equals(other: unknown): boolean {
    return other instanceof PendingToken && other.token === this.token;
  }
}
