/**
 * The start-up listing's rows (each API kind makes its own, api-kind/api-kind.ts) as aligned text.
 */
import type { RouteRow } from '../api-kind/api-kind';

/** The rows as aligned text lines. */
export function formatRouteRows(rows: readonly RouteRow[]): string[] {
  const methodWidth = Math.max(0, ...rows.map((r) => r.method.length));
  const urlWidth = Math.max(0, ...rows.map((r) => r.url.length));
  return rows.map((r) => `  ${r.method.padEnd(methodWidth)}  ${r.url.padEnd(urlWidth)}  -> ${r.target}  [${r.checks.join('; ')}]`);
}
