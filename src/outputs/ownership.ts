/**
 * Which construct owns which section. A producer (auth from a user pool, data from a GraphQL
 * API, storage from a bucket) claims its section; nobody else may then write into it.
 */

/** True when `caller` is `owner` or inside it. */
function isWithin(caller: string, owner: string): boolean {
  return caller === owner || caller.startsWith(`${owner}/`);
}

export class SectionClaims {
  private readonly owners = new Map<string, string>();

  /** The construct path that owns `section`, if any. */
  public ownerOf(section: string): string | undefined {
    return this.owners.get(section);
  }

  /**
   * Records that `owner` produces `section`.
   * @param writers construct paths that already wrote into the section
   */
  public claim(section: string, owner: string, writers: string[]): void {
    const current = this.owners.get(section);
    if (current !== undefined && current !== owner) {
      throw new Error(`Section '${section}' is already produced by ${current}; ${owner} cannot produce it too. A backend has one ${section} producer.`);
    }
    const others = writers.filter((w) => !isWithin(w, owner));
    if (others.length > 0) {
      throw new Error(`${owner} cannot produce section '${section}': ${others.join(', ')} already wrote into it. `
        + `A section generated from a definition has one writer: remove what ${others.length > 1 ? 'those constructs write' : 'that construct writes'} into '${section}', or do not produce it from ${owner}.`);
    }
    this.owners.set(section, owner);
  }

  /** Throws when `caller` writes `key` of a section someone else owns. */
  public checkWrite(section: string, keys: string[], caller: string): void {
    const owner = this.owners.get(section);
    if (owner === undefined || isWithin(caller, owner)) {
      return;
    }
    const named = keys.length > 0 ? keys.map((k) => `'${section}.${k}'`).join(', ') : `'${section}'`;
    throw new Error(`${caller} cannot addOutput ${named}: section '${section}' is generated from ${owner} and managed by cdk-vendor-outputs. `
      + 'Overriding managed settings is unsupported; change the definition in that construct instead.');
  }
}
