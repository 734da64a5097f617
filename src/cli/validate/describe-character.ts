/**
 * Characters named in syntax errors so that an invisible or confusing one can be found.
 */

/** Characters that would be invisible or confusing if printed as they are. */
const CHARACTER_NAMES: Record<number, string> = {
  0xfeff: 'a byte order mark',
  0x200b: 'a zero width space',
  0x00a0: 'a no-break space',
  0x2028: 'a line separator',
  0x2029: 'a paragraph separator',
};

/** How a character reads in a message: `'x'` when printable ASCII, else its code point. */
export function describeCharacter(code: number): string {
  if (code >= 0x21 && code <= 0x7e) {
    return `'${String.fromCharCode(code)}'`;
  }
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  const name = CHARACTER_NAMES[code];
  return name === undefined ? `character ${hex}` : `${name} (${hex})`;
}

/** What to do about a character that often shows up where JSON does not allow it. */
export function hint(code: number): string {
  if (code === 0x27) {
    return ': JSON strings and keys use double quotes';
  }
  if (code === 0x2f) {
    return ': JSON has no comments';
  }
  return '';
}
