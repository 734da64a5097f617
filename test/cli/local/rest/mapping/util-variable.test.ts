/**
 * `$util` of mapping templates, on its own and inside a template.
 */
import { captured, render } from './template-input';
import { TemplateError } from '../../../../../src/cli/local/rest/mapping/template-error';
import { escapeJavaScript, urlDecode, urlEncode } from '../../../../../src/cli/local/rest/mapping/util-variable';

describe('$util', () => {
  test('escapeJavaScript escapes quotes (single ones too, as documented), backslashes, slashes and control characters', () => {
    expect(escapeJavaScript('a"b\'c\\d/e\nf\tg\u0001h\u00e9')).toBe('a\\"b\\\'c\\\\d\\/e\\nf\\tg\\u0001h\\u00E9');
  });

  test.each([
    ['a b&c/é~', 'a+b%26c%2F%C3%A9%7E'],
    ['A-z_0.9*', 'A-z_0.9*'],
  ])('urlEncode(%j) = %j', (text, encoded) => {
    expect(urlEncode(text)).toBe(encoded);
    expect(urlDecode(encoded)).toBe(text);
  });

  test('urlDecode refuses a malformed escape', () => {
    expect(() => urlDecode('100%')).toThrow(TemplateError);
    expect(() => urlDecode('%zz')).toThrow(/malformed escape/);
  });

  test('the functions inside a template', () => {
    expect(render("$util.base64Encode('héllo')|$util.base64Decode('aMOpbGxv')|$util.urlEncode('a b')|$util.urlDecode('a+b%21')|$util.parseJson($input.json('$.nested')).k.size()"))
      .toBe('aMOpbGxv|héllo|a+b|a b!|2');
  });

  test('parseJson of text that is not JSON is a configuration error', () => {
    expect(captured(() => render("$util.parseJson('nope')")).kind).toBe('configuration');
  });
});
