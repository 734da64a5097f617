/**
 * Where the console page lives on each API's port. `@` is not allowed in a stage name (letters,
 * digits, `-` and `_` only), so no stage of any API can be shadowed by it.
 */

/** The page's path prefix (the page itself is `/@console/`). */
export const CONSOLE_PATH = '/@console';

/** Whether a request target (path and query, as received) is for the console rather than an API. */
export function isConsoleTarget(target: string): boolean {
  return target === CONSOLE_PATH || target.startsWith(`${CONSOLE_PATH}/`) || target.startsWith(`${CONSOLE_PATH}?`);
}

/** The console's address on a server origin (`http://127.0.0.1:3000`). */
export function consoleUrl(origin: string): string {
  return `${origin}${CONSOLE_PATH}/`;
}
