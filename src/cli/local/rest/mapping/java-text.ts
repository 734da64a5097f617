/**
 * How values print and which methods strings have inside a template, as in the Java Velocity engine
 * API Gateway runs: a map prints `{a=1, b=2}`, a list `[1, 2]`, and `$s.replaceAll(regex, text)`,
 * `$s.matches(regex)`, `$s.length()`... behave as `java.lang.String`'s.
 */
import type * as Re2 from 're2js';
import { compileJavaRegex } from '../../common/linear-regex';

/** `String.valueOf` of a parsed JSON value, as Velocity prints it. */
export function javaString(value: unknown): string {
  if (value === null || value === undefined) {
    return 'null';
  }
  if (Array.isArray(value)) {
    return `[${value.map(javaString).join(', ')}]`;
  }
  if (typeof value === 'object') {
    return `{${Object.entries(value as Record<string, unknown>).map(([k, v]) => `${k}=${javaString(v)}`).join(', ')}}`;
  }
  return String(value);
}

/**
 * A Java regular expression, run by RE2 (../../common/linear-regex.ts: linear in the text, so a
 * template's `$origin.matches(...)` cannot stall on what a client sends); one that RE2 cannot
 * compile fails the template, as `PatternSyntaxException` fails it in Java.
 */
function javaRegex(pattern: string): Re2.RE2JS {
  const found = compileJavaRegex(pattern);
  if (!found.ok) {
    throw new Error(`invalid regular expression ${JSON.stringify(pattern)}: ${found.reason}`);
  }
  return found.regex;
}

/**
 * Java's `String.split(regex)`: no match gives the text itself; a zero-width match at the start
 * splits nothing; trailing empty parts are dropped (`",".split(",")` is empty).
 */
function javaSplit(text: string, pattern: string): string[] {
  const matcher = javaRegex(pattern).matcher(text);
  const parts: string[] = [];
  let last = 0;
  while (matcher.find()) {
    if (matcher.end() === 0) {
      continue;
    }
    parts.push(text.slice(last, matcher.start()));
    last = matcher.end();
  }
  if (parts.length === 0) {
    return [text];
  }
  parts.push(text.slice(last));
  while (parts.length > 0 && parts[parts.length - 1] === '') {
    parts.pop();
  }
  return parts;
}

type StringMethod = (text: string, params: unknown[]) => unknown;

/** `java.lang.String` methods whose JavaScript namesake differs or is missing. */
const STRING_METHODS: Readonly<Record<string, StringMethod>> = {
  // Java's replacement syntax: `$1` is a group, `\$` a dollar sign.
  replaceAll: (s, [regex, replacement]) => javaRegex(String(regex)).matcher(s).replaceAll(String(replacement), true),
  replaceFirst: (s, [regex, replacement]) => javaRegex(String(regex)).matcher(s).replaceFirst(String(replacement), true),
  // Java's replace(CharSequence, CharSequence) replaces every occurrence, literally.
  replace: (s, [target, replacement]) => s.split(String(target)).join(String(replacement)),
  matches: (s, [regex]) => javaRegex(String(regex)).matcher(s).matches(),
  split: (s, [regex]) => javaSplit(s, String(regex)),
  length: (s) => s.length,
  isEmpty: (s) => s.length === 0,
  equals: (s, [other]) => s === other,
  equalsIgnoreCase: (s, [other]) => typeof other === 'string' && s.toLowerCase() === other.toLowerCase(),
  contains: (s, [part]) => s.includes(String(part)),
  charAt: (s, [index]) => s.charAt(Number(index)),
};

/** velocityjs method handlers: string methods first (before the engine's own get/set/size). */
export const JAVA_METHOD_HANDLERS = Object.keys(STRING_METHODS).map((name) => ({
  uid: `java.lang.String.${name}`,
  match: ({ property, context }: { property: string; context: unknown }) => typeof context === 'string' && property === name,
  resolve: ({ context, params }: { context: string; params: unknown[] }) => STRING_METHODS[name](context, params),
}));
