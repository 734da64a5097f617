/**
 * Dart source read as Dart reads it: comments and string literals skipped, only the top-level
 * tokens kept, and the first comment or string never closed reported where it starts.
 */
import { dartTokens, DartToken } from '../../../src/cli/outputs-format/dart-source';

/** The top-level tokens as text: words and punctuation as they are, strings as `<opening…>`. */
function shown(text: string): string[] {
  return dartTokens(text).tokens.map((t: DartToken) => (t.kind === 'string' ? `<${t.opening}${text.slice(t.contentStart, t.contentEnd)}>` : t.text));
}

test.each([
  ['a // const b\nc', ['a', 'c']],
  ['a /* b /* nested */ still comment */ c', ['a', 'c']],
  ['/// doc comment\nx', ['x']],
  ["r'''raw '' \\ ${x}''' ;", ["<r'''raw '' \\ ${x}>", ';']],
  ['r"a\\" x', ['<r"a\\>', 'x']],
  ["'it\\'s' x", ["<'it\\'s>", 'x']],
  ["'a ${\"}\" + '\\''} b' c", ["<'a ${\"}\" + '\\''} b>", 'c']],
  ['"""multi\nline "" """ d', ['<"""multi\nline "" >', 'd']],
  ["'/* not a comment */' e", ["<'/* not a comment */>", 'e']],
  ['bar\'s\' r', ['bar', "<'s>", 'r']],
  ['$x _y1', ['$x', '_y1']],
])('%j: %j', (text, tokens) => {
  const result = dartTokens(text);
  expect(result.error).toBeUndefined();
  expect(shown(text)).toEqual(tokens);
});

test('braces give the depth of each top-level token; an interpolation\'s braces do not count', () => {
  const { tokens } = dartTokens("class A { const x = '${ {1: 2}[1] }'; } const y");
  expect(tokens.filter((t) => t.kind === 'word').map((t) => [(t as { text: string }).text, t.depth])).toEqual([
    ['class', 0], ['A', 0], ['const', 1], ['x', 1], ['const', 0], ['y', 0],
  ]);
});

test.each([
  ['a /* never closed', { offset: 2, what: 'comment' }],
  ['a /* /* */ once closed only', { offset: 2, what: 'comment' }],
  ["a r'''{}", { offset: 2, what: 'string', opening: "r'''" }],
  ["a 'line\nb'", { offset: 2, what: 'string', opening: "'" }],
  ["a '${ \"inner", { offset: 2, what: 'string', opening: "'" }],
])('%j is reported where it opens', (text, error) => {
  expect(dartTokens(text).error).toEqual(error);
});

test('deeply nested interpolations are read without exhausting the stack', () => {
  const depth = 100_000;
  const text = `${"'${".repeat(depth)}${"}'".repeat(depth)} end`;
  const result = dartTokens(text);
  expect(result.error).toBeUndefined();
  expect(shown(text).slice(-1)).toEqual(['end']);
});
