/**
 * RFC 6901 JSON pointers, used to say where in vendor_outputs.json something is.
 */

/** Escapes one reference token (`~` → `~0`, `/` → `~1`). */
export function escapePointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Unescapes one reference token. */
export function unescapePointerToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** Appends a token to a pointer: `/auth` + `user_pool_id` → `/auth/user_pool_id`. */
export function childPointer(pointer: string, token: string | number): string {
  return `${pointer}/${escapePointerToken(String(token))}`;
}

/** Splits a pointer into its unescaped tokens; the root pointer `""` has none. */
export function pointerTokens(pointer: string): string[] {
  if (pointer === '') {
    return [];
  }
  if (!pointer.startsWith('/')) {
    throw new Error(`Invalid JSON pointer '${pointer}': it must be empty or start with '/'`);
  }
  return pointer.slice(1).split('/').map(unescapePointerToken);
}

/** How a pointer reads in a message: the root is shown as `/` rather than as nothing. */
export function displayPointer(pointer: string): string {
  return pointer === '' ? '/' : pointer;
}

/** Sets `value` at `pointer` inside `root`, creating objects on the way. */
export function setAtPointer(root: Record<string, any>, pointer: string, value: unknown): void {
  const tokens = pointerTokens(pointer);
  if (tokens.length === 0) {
    throw new Error('Cannot set the root of a document');
  }
  let node: any = root;
  for (const token of tokens.slice(0, -1)) {
    const key = Array.isArray(node) ? Number(token) : token;
    if (node[key] === undefined || node[key] === null || typeof node[key] !== 'object') {
      node[key] = {};
    }
    node = node[key];
  }
  const last = tokens[tokens.length - 1];
  node[Array.isArray(node) ? Number(last) : last] = value;
}

/** Reads the value at `pointer`, or undefined when any step is missing. */
export function getAtPointer(root: unknown, pointer: string): unknown {
  let node: any = root;
  for (const token of pointerTokens(pointer)) {
    if (node === null || typeof node !== 'object') {
      return undefined;
    }
    node = node[Array.isArray(node) ? Number(token) : token];
  }
  return node;
}
