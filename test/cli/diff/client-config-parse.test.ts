/** The inverse of the client configuration formats, as diff reads a local file. */
import { CliError } from '../../../src/cli/command';
import { clientConfigFormat } from '../../../src/cli/outputs-format/client-config-format';

const TRICKY = 'quote " single \' backslash \\ dollar $x ${y} newline \n tab \t unicode ✓ \u2028';
const DOCUMENT = { version: '1', custom: { note: TRICKY, list: ["''", '\\\\'], n: 1.5, f: false, z: null } };

describe('parse, the inverse of render', () => {
  test.each(['json', 'dart'])('%s: what render writes parses back to the same document', (name) => {
    const format = clientConfigFormat(name);
    expect(format.parse(format.render(DOCUMENT), 'f')).toEqual(DOCUMENT);
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
