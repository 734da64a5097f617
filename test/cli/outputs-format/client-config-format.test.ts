/**
 * The client configuration formats: what each renders and where, and parse, the inverse of render,
 * as diff reads a local file.
 */
import { CliError, UsageError } from '../../../src/cli/command';
import { CLIENT_CONFIG_FORMATS, clientConfigFormat, DART_CONSTANT } from '../../../src/cli/outputs-format/client-config-format';

const DOCUMENT = { version: '1', custom: { api_endpoint: 'http://127.0.0.1:3000/dev/', note: "it's 'quoted' \\ and \"double\"" } };

const TRICKY = 'quote " single \' backslash \\ dollar $x ${y} newline \n tab \t unicode ✓ \u2028';
const ROUND_TRIP_DOCUMENT = { version: '1', custom: { note: TRICKY, list: ["''", '\\\\'], n: 1.5, f: false, z: null } };

describe('client config formats', () => {
  test('json is the default: pretty JSON with a final newline, in vendor_outputs.json', () => {
    const json = clientConfigFormat(undefined);
    expect(json.name).toBe('json');
    expect(json.fileName).toBe('vendor_outputs.json');
    expect(json.render(DOCUMENT)).toBe(`${JSON.stringify(DOCUMENT, null, 2)}\n`);
  });

  test('dart holds the same JSON in a raw string constant, in vendor_outputs.dart', () => {
    const dart = clientConfigFormat('dart');
    expect(dart.fileName).toBe('vendor_outputs.dart');
    const text = dart.render(DOCUMENT);
    const match = /^\/\/ [^\n]*\nconst vendorConfig = r'''([\s\S]*)''';\n$/.exec(text);
    expect(DART_CONSTANT).toBe('vendorConfig');
    expect(match).not.toBeNull();
    // A raw string keeps backslashes and quotes as they are: the constant's text is the JSON itself.
    expect(JSON.parse(match![1])).toEqual(DOCUMENT);
  });

  test("dart refuses a value holding ''' and names its pointer", () => {
    const document = { version: '1', custom: { names: ['ok', "a'''b"] } };
    expect(() => clientConfigFormat('dart').render(document)).toThrow(CliError);
    expect(() => clientConfigFormat('dart').render(document)).toThrow(
      "--format dart: the value at /custom/names/1 contains ''' (three single quotes), which a raw Dart string r'''...''' cannot hold; change that value or use --format json",
    );
  });

  test("dart refuses a key holding '''", () => {
    expect(() => clientConfigFormat('dart').render({ version: '1', custom: { "x'''y": 'v' } })).toThrow(/the value at \/custom\/x'''y contains '''/);
  });

  test('dart keeps $, ${...}, backslashes, quotes and newlines as the JSON has them (a raw string interpolates and unescapes nothing)', () => {
    const document = { version: '1', custom: { price: '$5 and ${amount}', path: 'C:\\dir\\n', lines: 'one\ntwo', quote: '"q" \'s\'' } };
    const text = clientConfigFormat('dart').render(document);
    const json = JSON.stringify(document, null, 2);
    expect(text).toContain(`r'''${json}''';`);
    expect(text).toContain('"price": "$5 and ${amount}"');
    expect(text).toContain('"lines": "one\\ntwo"');
    expect(JSON.parse(json)).toEqual(document);
  });

  test('two quotes in a row are fine in dart', () => {
    expect(clientConfigFormat('dart').render({ version: '1', custom: { v: "''" } })).toContain('"v": "\'\'"');
  });

  test('an unknown format is a usage error listing the formats', () => {
    expect(() => clientConfigFormat('yaml')).toThrow(UsageError);
    expect(() => clientConfigFormat('yaml')).toThrow("--format must be one of json, dart (got 'yaml')");
    expect(CLIENT_CONFIG_FORMATS.map((f) => f.name)).toEqual(['json', 'dart']);
  });
});

describe('parse, the inverse of render', () => {
  test.each(['json', 'dart'])('%s: what render writes parses back to the same document', (name) => {
    const format = clientConfigFormat(name);
    expect(format.parse(format.render(ROUND_TRIP_DOCUMENT), 'f')).toEqual(ROUND_TRIP_DOCUMENT);
  });

  test('json: a syntax error names file, line and column', () => {
    expect(() => clientConfigFormat('json').parse('{\n  "a": 1,\n}\n', 'v.json')).toThrow(CliError);
    expect(() => clientConfigFormat('json').parse('{\n  "a": 1,\n}\n', 'v.json')).toThrow("v.json:3:1: not valid JSON: a comma before '}': JSON allows no trailing comma");
    expect(() => clientConfigFormat('json').parse('', 'v.json')).toThrow(/^v\.json:1:1: not valid JSON: /);
  });

  test('dart: spaces around = may vary, and comments before are fine', () => {
    const text = "// mine\n\nconst  vendorConfig =r'''{\"version\": \"1\"}''' ;\n";
    expect(clientConfigFormat('dart').parse(text, 'c.dart')).toEqual({ version: '1' });
  });

  test('dart: a commented-out copy above the constant is not read (the issue\'s file)', () => {
    const text = "// Generated\n/* before the redeploy:\nconst vendorConfig = r'''{\"version\": \"1\", \"custom\": {\"a\": 1}}''';\n*/\nconst vendorConfig = r'''{\"version\": \"1\", \"custom\": {\"a\": 2}}''';\n";
    expect(clientConfigFormat('dart').parse(text, 'c.dart')).toEqual({ version: '1', custom: { a: 2 } });
  });

  test('dart: a second declaration and an unclosed comment are refused with their line', () => {
    const dart = clientConfigFormat('dart');
    expect(() => dart.parse("const vendorConfig = r'''{}''';\nconst vendorConfig = r'''{}''';\n", 'c.dart')).toThrow(/^c\.dart:2: vendorConfig is declared again/);
    expect(() => dart.parse("/* x\nconst vendorConfig = r'''{}''';\n", 'c.dart')).toThrow('c.dart:1: the comment /* that starts here is never closed with */: not Dart source');
  });

  test('dart: a syntax error inside the constant is located in the Dart file', () => {
    const dart = clientConfigFormat('dart');
    expect(() => dart.parse("// x\nconst vendorConfig = r'''{\"a\" 1}''';\n", 'c.dart')).toThrow(/^c\.dart:2:31: not valid JSON: /);
    expect(() => dart.parse("// x\nconst vendorConfig = r'''{\n  \"a\": 1,\n}''';\n", 'c.dart')).toThrow(/^c\.dart:4:1: not valid JSON: a comma before '}'/);
  });

  test.each([
    ['// only a comment\n\nfinal vendorConfig = \'{}\';\n', "c.dart:3: not a Dart client configuration as vendor-outputs writes it: expected the line const vendorConfig = r'''{...}'''; (the JSON in a raw Dart string)"],
    ['', 'c.dart:1: not a Dart client configuration as vendor-outputs writes it'],
    ["const other = r'''{}''';\n", 'c.dart:1: not a Dart client configuration'],
    ["// x\nconst vendorConfig = r'''{\n}\n", "c.dart:2: the raw string r''' of vendorConfig is never closed with '''"],
    ["// x\nconst vendorConfig = r'''{\n}'''\n", "c.dart:3: expected ; after the closing ''' of vendorConfig"],
  ])('dart: %j is refused', (text, message) => {
    expect(() => clientConfigFormat('dart').parse(text, 'c.dart')).toThrow(CliError);
    expect(() => clientConfigFormat('dart').parse(text, 'c.dart')).toThrow(message);
  });
});
