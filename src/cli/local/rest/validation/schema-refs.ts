/**
 * Copies a JSON Schema with its `$ref` strings rewritten (model URLs, OpenAPI component references).
 * Keys are copied as own properties, `__proto__` included: schemas come from templates.
 */
import { isPlainObject } from '../../../../outputs/cdk-free/json-data';

/**
 * The schema with each `$ref` string that `rewrite` maps replaced (undefined keeps it); with
 * `omitTopSchema` the top-level `$schema` is dropped.
 */
export function rewriteRefs(schema: unknown, rewrite: (ref: string) => string | undefined, omitTopSchema = false): unknown {
  const visit = (value: unknown, top: boolean): unknown => {
    if (Array.isArray(value)) {
      return value.map((v) => visit(v, false));
    }
    if (!isPlainObject(value)) {
      return value;
    }
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      if (top && omitTopSchema && key === '$schema') {
        continue;
      }
      const rewritten = key === '$ref' && typeof child === 'string' ? rewrite(child) : undefined;
      Object.defineProperty(out, key, { value: rewritten ?? visit(child, false), enumerable: true, writable: true, configurable: true });
    }
    return out;
  };
  return visit(schema, true);
}
