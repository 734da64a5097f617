/**
 * Dart source read as the Dart compiler reads it, to the depth a client configuration needs: the
 * top-level tokens of a file, with comments (`//`, nested `/* *\/`) and string literals (`'...'`,
 * `"..."`, their triple-quoted forms, raw `r'...'` ones, escapes and `${...}` interpolations that
 * hold strings of their own) skipped as Dart skips them. So text that only looks like code, inside
 * a comment or a string, is never taken for it. Iterative: no input can exhaust the stack.
 * (Dart language specification, "Lexical Rules": comments, "Strings".)
 */

/** A top-level token: a word (identifier or keyword), one punctuation character, or a string literal. */
export type DartToken =
  | { readonly kind: 'word' | 'punct'; readonly text: string; readonly start: number; readonly depth: number }
  | DartString;

/** A string literal: where it starts and ends, and where its content lies between the quotes. */
export interface DartString {
  readonly kind: 'string';
  /** The opening as written: `r'''`, `'`, `"""`... */
  readonly opening: string;
  readonly raw: boolean;
  readonly start: number;
  readonly contentStart: number;
  readonly contentEnd: number;
  /** After the closing quotes. */
  readonly end: number;
  /** Brace depth of the top level where it stands (0: outside every `{}`). */
  readonly depth: number;
}

/** Where the file stops being Dart: a comment or a string that is never closed. */
export interface DartLexError {
  readonly offset: number;
  readonly what: 'comment' | 'string';
  /** The string's opening (`r'''`, `"`...), for a string. */
  readonly opening?: string;
}

export interface DartTokens {
  readonly tokens: readonly DartToken[];
  readonly error?: DartLexError;
}

type Frame =
  | { readonly kind: 'code'; depth: number }
  | { readonly kind: 'string'; readonly quote: string; readonly raw: boolean; readonly start: number; readonly contentStart: number; readonly opening: string };

const QUOTES = ["'''", '"""', "'", '"'];

/** The top-level tokens of `text`, up to the first lexical error. */
export function dartTokens(text: string): DartTokens {
  const tokens: DartToken[] = [];
  // The top-level code frame, then a string, the code of one of its `${}`, a string in that... .
  const stack: Frame[] = [{ kind: 'code', depth: 0 }];
  let i = 0;
  while (i < text.length) {
    const frame = stack[stack.length - 1];
    if (frame.kind === 'string') {
      if (text.startsWith(frame.quote, i)) {
        i += frame.quote.length;
        stack.pop();
        if (stack.length === 1) {
          const depth = (stack[0] as { depth: number }).depth;
          tokens.push({ kind: 'string', opening: frame.opening, raw: frame.raw, start: frame.start, contentStart: frame.contentStart, contentEnd: i - frame.quote.length, end: i, depth });
        }
        continue;
      }
      const c = text[i];
      if (frame.quote.length === 1 && (c === '\n' || c === '\r')) {
        // A single-line string ends at the line's end: never closed.
        return { tokens, error: { offset: frame.start, what: 'string', opening: frame.opening } };
      }
      if (!frame.raw && c === '\\') {
        i += 2;
      } else if (!frame.raw && c === '$' && text[i + 1] === '{') {
        stack.push({ kind: 'code', depth: 0 });
        i += 2;
      } else {
        i += 1;
      }
      continue;
    }
    const next = codeStep(text, i, frame, stack, tokens);
    if (typeof next !== 'number') {
      return { tokens, error: next };
    }
    i = next;
  }
  const open = stack.find((f): f is Extract<Frame, { kind: 'string' }> => f.kind === 'string');
  return open === undefined ? { tokens } : { tokens, error: { offset: open.start, what: 'string', opening: open.opening } };
}

/** One step in code: skips a blank or a comment, opens a string, or reads one token; the next offset. */
function codeStep(text: string, i: number, frame: Extract<Frame, { kind: 'code' }>, stack: Frame[], tokens: DartToken[]): number | DartLexError {
  const top = stack.length === 1;
  const c = text[i];
  if (/\s/.test(c)) {
    return i + 1;
  }
  if (text.startsWith('//', i)) {
    const end = text.indexOf('\n', i);
    return end < 0 ? text.length : end + 1;
  }
  if (text.startsWith('/*', i)) {
    return skipBlockComment(text, i);
  }
  const raw = c === 'r' && QUOTES.some((q) => text.startsWith(q, i + 1));
  const quote = QUOTES.find((q) => text.startsWith(q, raw ? i + 1 : i));
  if (quote !== undefined && (raw || c === "'" || c === '"')) {
    const contentStart = i + (raw ? 1 : 0) + quote.length;
    stack.push({ kind: 'string', quote, raw, start: i, contentStart, opening: text.slice(i, contentStart) });
    return contentStart;
  }
  const word = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(text.slice(i, i + 256));
  if (word !== null) {
    let end = i + word[0].length;
    while (end < text.length && /[A-Za-z0-9_$]/.test(text[end])) {
      end++;
    }
    if (top) {
      tokens.push({ kind: 'word', text: text.slice(i, end), start: i, depth: frame.depth });
    }
    return end;
  }
  if (c === '}' && !top && frame.depth === 0) {
    // The end of a `${...}`: back into its string.
    stack.pop();
    return i + 1;
  }
  if (c === '}') {
    frame.depth = Math.max(0, frame.depth - 1);
  }
  if (top) {
    tokens.push({ kind: 'punct', text: c, start: i, depth: frame.depth });
  }
  if (c === '{') {
    frame.depth++;
  }
  return i + 1;
}

/** Past a `/* ... *\/` comment, which nests in Dart; an error when it is never closed. */
function skipBlockComment(text: string, start: number): number | DartLexError {
  let depth = 0;
  let i = start;
  while (i < text.length) {
    if (text.startsWith('/*', i)) {
      depth++;
      i += 2;
    } else if (text.startsWith('*/', i)) {
      depth--;
      i += 2;
      if (depth === 0) {
        return i;
      }
    } else {
      i++;
    }
  }
  return { offset: start, what: 'comment' };
}
