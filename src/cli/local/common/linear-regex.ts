/**
 * Regular expressions the user wrote, matched against text a client or a function controls: in
 * Java's syntax (a `SelectionPattern`, an authorizer's `IdentityValidationExpression`, a
 * template's `$s.matches(...)`) and in ECMA 262's (a request model's JSON Schema `pattern`). They
 * run on RE2 (re2js, a JavaScript port of RE2/J), whose time is linear in the text: a pattern such
 * as `(a|aa)*b` that makes a backtracking engine (JavaScript's, Java's) spin for seconds on a few
 * thousand characters answers at once, so no request can stall the server through them. RE2 has
 * both syntaxes except backreferences (`\1`), lookahead and lookbehind, possessive quantifiers
 * (`a*+`) and atomic groups: such a pattern does not compile, and is reported as invalid.
 */
import type * as Re2 from 're2js';

let re2Module: typeof Re2 | undefined;

/** Loaded on first use: most APIs never match a user's pattern. */
function re2(): typeof Re2 {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  re2Module ??= require('re2js') as typeof Re2;
  return re2Module;
}

/** A compiled pattern, or why it cannot be used. */
export type JavaRegex = { readonly ok: true; readonly regex: Re2.RE2JS } | { readonly ok: false; readonly reason: string };

/** Compiled patterns by text; patterns come from the app (few), templates may build some. */
const compiled = new Map<string, JavaRegex>();
const MAX_CACHED = 500;

/**
 * Compiles `pattern` once (kept for the next call); an invalid pattern gives the reason. Flags as
 * Java's defaults: `.` does not match a line end unless the pattern says `(?s)`.
 */
export function compileJavaRegex(pattern: string): JavaRegex {
  let found = compiled.get(pattern);
  if (found === undefined) {
    found = compile(pattern);
    if (compiled.size >= MAX_CACHED) {
      compiled.clear();
    }
    compiled.set(pattern, found);
  }
  return found;
}

function compile(pattern: string): JavaRegex {
  const { RE2JS } = re2();
  try {
    return { ok: true, regex: RE2JS.compile(pattern) };
  } catch (e) {
    return { ok: false, reason: (e as Error).message };
  }
}

/** Whether the whole of `text` matches (Java's `Matcher.matches()`); an invalid pattern matches nothing. */
export function javaFullMatch(pattern: string, text: string): boolean {
  const found = compileJavaRegex(pattern);
  return found.ok && found.regex.matcher(text).matches();
}

/**
 * A JSON Schema `pattern` (ECMA 262 syntax, found anywhere in the text, as `RegExp.test` finds it)
 * for ajv's `code.regExp` option; throws, naming the pattern, when RE2 cannot run it.
 */
export function ecmaPattern(pattern: string): { test(text: string): boolean; toString(): string } {
  const { RE2JS } = re2();
  let translated: string;
  try {
    translated = RE2JS.translateRegExp(pattern);
  } catch (e) {
    throw new Error(`pattern ${JSON.stringify(pattern)} cannot be run in linear time: ${(e as Error).message}`);
  }
  const found = compileJavaRegex(translated);
  if (!found.ok) {
    throw new Error(`pattern ${JSON.stringify(pattern)} cannot be run in linear time: ${found.reason}`);
  }
  // ajv keys compiled patterns by their text (`toString`), as it keys RegExps.
  return { test: (text) => found.regex.matcher(text).find(), toString: () => `/${pattern}/` };
}
