import { describeCharacter } from '../../../src/cli/validate/describe-character';
import { scanJson } from '../../../src/cli/validate/json-scan';
import { ownKeyCount } from '../../../src/cli/validate/own-key-count';
import { firstInvalidUtf8 } from '../../../src/cli/validate/read-text-file';
import { pendingMarker } from '../../../src/outputs/cdk-free/carriage';

function scanParsed(text: string, locate: string[] = []) {
  const scan = scanJson(text, { parsed: true, findingLimit: 10, locate });
  const duplicates = scan.memberCount !== ownKeyCount(JSON.parse(text));
  return duplicates ? scanJson(text, { parsed: true, duplicates: true, findingLimit: 10, locate }) : scan;
}

describe('scanJson on text JSON.parse accepts', () => {
  test('escaped quotes and backslashes inside strings do not end them', () => {
    const text = '{"a\\"b": "x\\\\", "c": "\\\\\\"", "a\\"b": 2}';
    const scan = scanParsed(text);
    expect(scan.syntaxError).toBeUndefined();
    expect(scan.findings).toEqual([{ position: { line: 1, column: 30 }, pointer: '/a"b', message: expect.stringMatching(/^duplicate key "a\\"b"/) }]);
  });

  test('keys that differ only in their escapes are the same key; __proto__ is a key like any other', () => {
    const scan = scanParsed('{"__proto__": 1, "\\u005f_proto__": 2}');
    expect(scan.findings.map((f) => f.pointer)).toEqual(['/__proto__']);
  });

  test('no duplicate: the member count matches the parsed keys', () => {
    const text = '{"a": {"b": 1, "c": [{"b": 2}]}, "b": 3}';
    expect(scanJson(text, { parsed: true, findingLimit: 10 }).memberCount).toBe(ownKeyCount(JSON.parse(text)));
  });

  test('findings past the limit are counted, not kept', () => {
    const text = `[${Array.from({ length: 30 }, () => '1e999').join(',')}]`;
    const scan = scanJson(text, { parsed: true, findingLimit: 5 });
    expect(scan.findings).toHaveLength(5);
    expect(scan.findingCount).toBe(30);
    expect(scan.findings[4].pointer).toBe('/4');
  });

  test('a duplicate at each of 30,000 levels: pointers are built only for the findings kept', () => {
    const n = 30_000;
    const text = `${'{"a":1,"a":'.repeat(n)}1${'}'.repeat(n)}`;
    const scan = scanParsed(text);
    expect(scan.findingCount).toBe(n);
    expect(scan.findings).toHaveLength(10);
    expect(scan.findings[0].pointer).toBe('/a');
    expect(scan.findings[1].pointer).toBe('/a/a');
  });

  test('locates pointers: a member at its key, an item at its value, something missing at its parent', () => {
    const text = '{\n  "a": {\n    "b": [10,\n      20]\n  },\n  "x~/y": 1\n}';
    const scan = scanParsed(text, ['/a/b/1', '/a/missing', '/x~0~1y', '']);
    expect(scan.locate('/a/b/1')).toEqual({ line: 4, column: 7 });
    expect(scan.locate('/a/missing')).toEqual({ line: 2, column: 3 });
    expect(scan.locate('/x~0~1y')).toEqual({ line: 6, column: 3 });
    expect(scan.locate('')).toEqual({ line: 1, column: 1 });
  });

  test('counts pending markers, the first with its pointer', () => {
    const marker = pendingMarker({ pointer: '/x', output: 'VendorOutputs0', index: 3 });
    const scan = scanParsed(JSON.stringify({ a: ['ok', marker], b: marker, c: '<pending: other>' }));
    expect(scan.pendingCount).toBe(2);
    expect(scan.firstPending?.pointer).toBe('/a/1');
  });
});

describe('scanJson on text JSON.parse refuses', () => {
  test.each([
    ['[1 2]', 1, 4, "expected ',' or ']' after an array item, found '2'"],
    ['{"a" 1}', 1, 6, "expected ':' after the property name, found '1'"],
    ['{"a": 01}', 1, 7, 'invalid number: JSON numbers have no leading zeros'],
    ['[1.]', 1, 4, "invalid number: at least one digit must follow '.'"],
    ['[1e+]', 1, 5, 'invalid number: the exponent needs at least one digit'],
    ['[-]', 1, 3, "invalid number: expected a digit, found ']'"],
    ['["\\x"]', 1, 3, "invalid escape '\\x' in a string; allowed: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX"],
    ['["\\u12G4"]', 1, 3, 'invalid escape in a string: \\u needs four hexadecimal digits'],
    ['["a\tb"]', 1, 4, 'character U+0009 inside a string: control characters must be escaped (\\t, \\u00XX)'],
    ['["abc', 1, 6, 'the string that starts on line 1 column 2 is not closed'],
    ['[tru]', 1, 2, 'expected a value (a "string", a number, true, false, null, an object or an array), found \'t\''],
    ['\n\n  {"a": 1,}', 3, 11, "a comma before '}': JSON allows no trailing comma"],
    ['[1,\n]', 2, 1, "a comma before ']': JSON allows no trailing comma"],
    ['{} {}', 1, 4, "unexpected '{' after the end of the JSON value"],
    ['', 1, 1, 'the file is empty: a vendor_outputs.json holds one JSON object'],
  ])('%j: line %d, column %d: %s', (text, line, column, message) => {
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
    expect(scanJson(text, { parsed: false, findingLimit: 0 }).syntaxError).toEqual({ position: { line, column }, message });
  });

  test('a text nested a million levels deep is scanned without recursion', () => {
    const n = 1_000_000;
    const scan = scanJson(`${'['.repeat(n)}${']'.repeat(n - 1)}`, { parsed: false, findingLimit: 0 });
    expect(scan.syntaxError?.message).toBe('unexpected end of the file inside the array opened on line 1');
  });
});

test.each([
  [0x27, "'''"],
  [0xfeff, 'a byte order mark (U+FEFF)'],
  [0x01, 'character U+0001'],
])('describeCharacter(%i) is %s', (code, text) => {
  expect(describeCharacter(code)).toBe(text);
});

test.each([
  [[0x61, 0xc3, 0xa9, 0x62], -1],
  [[0x61, 0xe9, 0x62], 1],
  [[0xc0, 0x80], 0], // overlong
  [[0xed, 0xa0, 0x80], 0], // a surrogate
  [[0xf4, 0x90, 0x80, 0x80], 0], // above U+10FFFF
  [[0x61, 0xe2, 0x82], 1], // cut short
])('firstInvalidUtf8(%j) is %i', (bytes, offset) => {
  expect(firstInvalidUtf8(Buffer.from(bytes))).toBe(offset);
});
