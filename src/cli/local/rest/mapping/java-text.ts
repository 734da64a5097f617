/**
 * How values print and which methods strings have inside a template, as in the Java Velocity engine
 * API Gateway runs: a map prints `{a=1, b=2}`, a list `[1, 2]`, and `$s.replaceAll(regex, text)`,
 * `$s.matches(regex)`, `$s.length()`... behave as `java.lang.String`'s.
 */

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

/** A Java regular expression as JavaScript reads it (the common subset; `(?i)` flags at the start). */
function javaRegex(pattern: string, global: boolean): RegExp {
  let flags = global ? 'g' : '';
  let source = pattern;
  const inline = /^\(\?([imsx]+)\)/.exec(source);
  if (inline) {
    source = source.slice(inline[0].length);
    flags += inline[1].replace(/x/g, '');
  }
  return new RegExp(source, flags);
}

/** `$1` group references stay; Java's `\$` is a literal dollar. */
function javaReplacement(replacement: string): string {
  return replacement.replace(/\\\$/g, '$$$$');
}

type StringMethod = (text: string, params: unknown[]) => unknown;

/** `java.lang.String` methods whose JavaScript namesake differs or is missing. */
const STRING_METHODS: Readonly<Record<string, StringMethod>> = {
  replaceAll: (s, [regex, replacement]) => s.replace(javaRegex(String(regex), true), javaReplacement(String(replacement))),
  replaceFirst: (s, [regex, replacement]) => s.replace(javaRegex(String(regex), false), javaReplacement(String(replacement))),
  // Java's replace(CharSequence, CharSequence) replaces every occurrence, literally.
  replace: (s, [target, replacement]) => s.split(String(target)).join(String(replacement)),
  matches: (s, [regex]) => javaRegex(`^(?:${String(regex)})$`, false).test(s),
  split: (s, [regex]) => {
    const parts = s.split(javaRegex(String(regex), false));
    while (parts.length > 0 && parts[parts.length - 1] === '') {
      parts.pop();
    }
    return parts;
  },
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
