/**
 * Which REST API of a new synth is which API already served, so that a reload keeps each API on
 * its port: the same stack name and logical id, else (an id the CDK derived anew) the same
 * construct path.
 */
import type { ApiSpec } from '../model/rest-api';

export interface ApiMatch<T> {
  /** Served APIs paired with their successor. */
  readonly kept: ReadonlyArray<{ readonly served: T; readonly next: ApiSpec }>;
  readonly added: readonly ApiSpec[];
  readonly removed: readonly T[];
}

/** Pairs `next` with the served entries (each of which knows its API through `apiOf`). */
export function matchApis<T>(served: readonly T[], next: readonly ApiSpec[], apiOf: (entry: T) => ApiSpec): ApiMatch<T> {
  const left = new Set(served);
  const pairs = new Map<ApiSpec, T>();
  const pairBy = (key: (api: ApiSpec) => string | undefined) => {
    for (const api of next) {
      const wanted = key(api);
      if (pairs.has(api) || wanted === undefined) {
        continue;
      }
      const found = [...left].find((entry) => key(apiOf(entry)) === wanted);
      if (found !== undefined) {
        pairs.set(api, found);
        left.delete(found);
      }
    }
  };
  pairBy((api) => `${api.stackName}\0${api.logicalId}`);
  pairBy((api) => api.constructPath);
  return {
    kept: next.filter((api) => pairs.has(api)).map((api) => ({ served: pairs.get(api)!, next: api })),
    added: next.filter((api) => !pairs.has(api)),
    removed: served.filter((entry) => left.has(entry)),
  };
}
