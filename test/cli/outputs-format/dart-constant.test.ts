/**
 * Finding `const vendorConfig = r'''...''';` as the Dart compiler sees it: a copy in a comment or
 * a string is not it; each way a file is not what --format dart writes has its message.
 */
import { findDartConstant, lineAt } from '../../../src/cli/outputs-format/dart-constant';

/** The JSON text the constant holds, or `line: message`. */
function read(text: string): string {
  const found = findDartConstant(text);
  return found.ok ? text.slice(found.contentStart, found.contentEnd) : `${lineAt(text, found.offset)}: ${found.message}`;
}

test.each([
  ['a commented-out copy in a block comment', "/* old\nconst vendorConfig = r'''{\"v\": 0}''';\n*/\nconst vendorConfig = r'''{\"v\": 1}''';\n"],
  ['a nested block comment holding */ text', "/* a /* b */ const vendorConfig = r'''{\"v\": 0}'''; */\nconst vendorConfig = r'''{\"v\": 1}''';\n"],
  ['a line comment', "// const vendorConfig = r'''{\"v\": 0}''';\nconst vendorConfig = r'''{\"v\": 1}''';\n"],
  ['a copy inside another string', "const note = '''\nconst vendorConfig = r'''{\"v\": 0}''';\n''';\nconst vendorConfig = r'''{\"v\": 1}''';\n"],
  ['a class member of the same name', "class A { static const vendorConfig = r'''{\"v\": 0}'''; }\nconst vendorConfig = r'''{\"v\": 1}''';\n"],
  ['a typed constant and comments between the tokens', "const String vendorConfig /* x */ = // y\n r'''{\"v\": 1}''' /* z */ ;\n"],
])('%s is not the constant', (_what, text) => {
  expect(read(text)).toBe('{"v": 1}');
});

const EXPECTED = "not a Dart client configuration as vendor-outputs writes it: expected the line const vendorConfig = r'''{...}'''; (the JSON in a raw Dart string)";

test.each([
  ['only a commented-out constant', "// x\n/* const vendorConfig = r'''{}'''; */\n\nfinal other = 1;\n", `4: ${EXPECTED}`],
  ['nothing but comments', '// x\n', `1: ${EXPECTED}`],
  ['a string that is not raw', "// x\nconst vendorConfig = '''{}''';\n", `2: ${EXPECTED}`],
  ['a raw string in double quotes', '// x\nconst vendorConfig = r"""{}""";\n', `2: ${EXPECTED}`],
  ['a second declaration', "const vendorConfig = r'''{}''';\n\nconst vendorConfig = r'''{}''';\n", '3: vendorConfig is declared again (Dart refuses a second top-level declaration of a name; the first is on line 1)'],
  ['no semicolon', "const vendorConfig = r'''{\n}''' final\n", "2: expected ; after the closing ''' of vendorConfig"],
  ['the raw string never closed', "// x\nconst vendorConfig = r'''{\n}\n", "2: the raw string r''' of vendorConfig is never closed with '''"],
  ['a comment never closed', "/* old\nconst vendorConfig = r'''{}''';\n", '1: the comment /* that starts here is never closed with */: not Dart source'],
  ['another string never closed', "const a = 'x;\nconst vendorConfig = r'''{}''';\n", "1: the string '... that starts here is never closed: not Dart source"],
])('%s: %s', (_what, text, message) => {
  expect(read(text)).toBe(message);
});
