import { CliError, UsageError } from '../../../src/cli/command';
import { CLIENT_CONFIG_FORMATS, clientConfigFormat, DART_CONSTANT } from '../../../src/cli/outputs-format/client-config-format';

const DOCUMENT = { version: '1', custom: { api_endpoint: 'http://127.0.0.1:3000/dev/', note: "it's 'quoted' \\ and \"double\"" } };

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
