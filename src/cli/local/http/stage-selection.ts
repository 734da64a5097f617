/**
 * Which stage of an HTTP API a request reaches ("Routing API requests"): a first path segment that
 * names a stage selects it, and the rest of the path is below it; else the `$default` stage, served
 * at the root, takes the whole path; else nothing does (404 Not Found).
 */
import type { HttpApiSpec } from '../model/http-api';

export interface StageSelection {
  readonly stage: string;
  /** The path below the stage (`/` at least), still percent-encoded. */
  readonly pathBelowStage: string;
}

export const DEFAULT_STAGE = '$default';

/** @param path the request's path without the query string, as sent */
export function selectStage(api: HttpApiSpec, path: string): StageSelection | undefined {
  const first = path.split('/')[1] ?? '';
  if (first !== '' && first !== DEFAULT_STAGE && api.stages.includes(first)) {
    const below = path.slice(first.length + 1);
    return { stage: first, pathBelowStage: below === '' ? '/' : below };
  }
  return api.stages.includes(DEFAULT_STAGE) ? { stage: DEFAULT_STAGE, pathBelowStage: path === '' ? '/' : path } : undefined;
}
