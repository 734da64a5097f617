/**
 * User-written Java regular expressions run by RE2: the same answers as the backtracking engine on
 * ordinary patterns, in linear time on the inputs that make a backtracking engine spin.
 */
import { compileJavaRegex, javaFullMatch } from '../../../../src/cli/local/common/linear-regex';

/** A backtracking engine (JavaScript's) anchored at both ends, as the local API matched before. */
function backtrackingFullMatch(pattern: string, text: string): boolean {
  return new RegExp(`^(?:${pattern})$`).test(text);
}

describe('whole-text matching', () => {
  test.each([
    ['Bad.*', 'Bad input: x'],
    ['Bad.*', 'a Bad input'],
    ['4\\d\\d', '404'],
    ['4\\d\\d', '4044'],
    ['.*Not Found.*', 'Item Not Found at line 2'],
    ['.*Not Found.*', 'Item Not Found\nat line 2'],
    ['(allow|deny)-[a-z0-9]+', 'allow-abc123'],
    ['(allow|deny)-[a-z0-9]+', 'allow-ABC'],
    ['^Bearer [-A-Za-z0-9._~+/]+=*$', 'Bearer abc.def.ghi'],
    ['', ''],
    ['a|ab', 'ab'],
  ])('%j against %j: as the backtracking engine answers', (pattern, text) => {
    expect(javaFullMatch(pattern, text)).toBe(backtrackingFullMatch(pattern, text));
  });

  test('Java\'s inline flags work, which the JavaScript engine refused', () => {
    expect(javaFullMatch('(?i)error.*', 'ERROR: boom')).toBe(true);
  });

  test('`.` stops at a line end (Java\'s default) unless the pattern says (?s)', () => {
    expect(javaFullMatch('a.b', 'a\nb')).toBe(false);
    expect(javaFullMatch('(?s)a.b', 'a\nb')).toBe(true);
  });

  test.each([
    ['(a|aa)*b', 'a', false],
    ['(a+)+$', 'a', false],
    ['(.*a){12}', 'a', true],
    ['(x+x+)+y', 'x', false],
  ])('%j against 100,000 characters answers in linear time', (pattern, text, expected) => {
    const long = pattern === '(a+)+$' ? `${text.repeat(100_000)}!` : text.repeat(100_000);
    const started = process.hrtime.bigint();
    expect(javaFullMatch(pattern, long)).toBe(expected);
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(1000);
  });

  test('the backtracking engine takes far longer on the same kind of input (why RE2)', () => {
    const text = `${'a'.repeat(24)}!`;
    const started = process.hrtime.bigint();
    expect(backtrackingFullMatch('(a|a)*', text)).toBe(false);
    const backtrackingMs = Number(process.hrtime.bigint() - started) / 1e6;
    const re2Started = process.hrtime.bigint();
    expect(javaFullMatch('(a|a)*', text)).toBe(false);
    const re2Ms = Number(process.hrtime.bigint() - re2Started) / 1e6;
    expect(backtrackingMs).toBeGreaterThan(re2Ms * 10);
  });

  test.each([
    ['(', 'missing closing )'],
    ['(a)\\1', 'invalid escape sequence'],
    ['a(?=b)', 'invalid or unsupported Perl syntax'],
  ])('%j cannot be used: it matches nothing and the reason is given', (pattern, reason) => {
    expect(javaFullMatch(pattern, pattern)).toBe(false);
    const compiled = compileJavaRegex(pattern);
    expect(compiled.ok).toBe(false);
    expect(compiled.ok ? '' : compiled.reason).toContain(reason);
  });
});
