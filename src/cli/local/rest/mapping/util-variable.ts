/**
 * `$util`: the helper functions API Gateway gives mapping templates, with the Java behaviour they
 * are documented to have (https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-mapping-template-reference.html#util-template-reference).
 */
import { TemplateError } from './template-error';

const hex = (code: number, width: number) => code.toString(16).toUpperCase().padStart(width, '0');

/** Short escapes of `StringEscapeUtils.escapeJavaScript` (commons-lang 2), which API Gateway uses. */
const SHORT_ESCAPES: Readonly<Record<string, string>> = {
  '\b': '\\b',
  '\n': '\\n',
  '\t': '\\t',
  '\f': '\\f',
  '\r': '\\r',
  "'": "\\'",
  '"': '\\"',
  '\\': '\\\\',
  '/': '\\/',
};

/** JavaScript string escaping; a single quote becomes `\'` (which JSON does not accept, as documented). */
export function escapeJavaScript(text: unknown): string {
  let out = '';
  for (const ch of String(text ?? '')) {
    const code = ch.charCodeAt(0);
    const short = SHORT_ESCAPES[ch];
    if (short !== undefined) {
      out += short;
    } else if (code < 0x20 || code > 0x7e) {
      // Characters outside ASCII are escaped per UTF-16 unit, as Java iterates chars.
      for (let i = 0; i < ch.length; i++) {
        out += `\\u${hex(ch.charCodeAt(i), 4)}`;
      }
    } else {
      out += ch;
    }
  }
  return out;
}

/** `java.net.URLEncoder.encode(text, "UTF-8")`: letters, digits and `.-*_` stay, a space is `+`. */
export function urlEncode(text: unknown): string {
  let out = '';
  for (const byte of Buffer.from(String(text ?? ''), 'utf8')) {
    const ch = String.fromCharCode(byte);
    if (/[A-Za-z0-9.\-*_]/.test(ch)) {
      out += ch;
    } else if (ch === ' ') {
      out += '+';
    } else {
      out += `%${hex(byte, 2)}`;
    }
  }
  return out;
}

/** `java.net.URLDecoder.decode(text, "UTF-8")`: `+` is a space; a malformed escape is an error. */
export function urlDecode(text: unknown): string {
  const input = String(text ?? '');
  if (/%(?![0-9A-Fa-f]{2})/.test(input)) {
    throw new TemplateError('configuration', `$util.urlDecode: malformed escape in ${JSON.stringify(input)}`);
  }
  const bytes: number[] = [];
  for (let i = 0; i < input.length; i++) {
    const ch = input[i];
    if (ch === '%') {
      bytes.push(parseInt(input.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(ch === '+' ? ' ' : ch, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

export function base64Encode(text: unknown): string {
  return Buffer.from(String(text ?? ''), 'utf8').toString('base64');
}

export function base64Decode(text: unknown): string {
  return Buffer.from(String(text ?? ''), 'base64').toString('utf8');
}

/** A JSON text as an object the template can navigate (`$util.parseJson($input.json('$.a'))`). */
export function parseJson(text: unknown): unknown {
  try {
    return JSON.parse(String(text));
  } catch (e) {
    throw new TemplateError('configuration', `$util.parseJson: ${JSON.stringify(String(text)).slice(0, 80)} is not JSON (${(e as Error).message})`);
  }
}

/** The `$util` object of a template. */
export function utilVariable(): Record<string, (value: unknown) => unknown> {
  return { escapeJavaScript, urlEncode, urlDecode, base64Encode, base64Decode, parseJson };
}
