/**
 * JSONPath as `$input.json()` and `$input.path()` evaluate it (API Gateway uses Jayway JsonPath):
 * a definite path (`$.a.b[0]`) selects one value or nothing; an indefinite path (wildcards, deep
 * scan `..`, filters, unions, slices) selects a list.
 */
import type * as JsonPathPlus from 'jsonpath-plus';

/** jsonpath-plus, loaded on first use: only templates that read `$input.json()` or `$input.path()` need it. */
let jsonPathModule: typeof JsonPathPlus | undefined;

/** Indefinite path syntax: `*`, `..`, a filter or script, a union or a slice inside brackets. */
const INDEFINITE = /\*|\.\.|\[\s*\?|\[\s*\(|\[[^\]]*[,:][^\]]*\]/;

/** What `path` selects in `document`: the value, a list for indefinite paths, undefined when nothing matches. */
export function selectPath(document: unknown, path: string): unknown {
  const expression = path.trim() === '' ? '$' : path.trim();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  jsonPathModule ??= require('jsonpath-plus') as typeof JsonPathPlus;
  const results = jsonPathModule.JSONPath({ path: expression, json: document as any, wrap: true, eval: 'safe' }) as unknown[] | undefined;
  if (INDEFINITE.test(expression)) {
    return results ?? [];
  }
  return results === undefined || results.length === 0 ? undefined : results[0];
}
