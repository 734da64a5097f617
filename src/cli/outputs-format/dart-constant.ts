/**
 * The client configuration in a Dart file: the top-level `const vendorConfig = r'''{...}''';` as
 * the Dart compiler sees it. Copies inside comments (`/* const vendorConfig = ... *\/`) or inside
 * other strings are not declarations, so they are never read. Returns where the JSON lies, or why
 * the file is not what `--format dart` writes; callers word the error for their own layer.
 */
import { dartTokens, DartLexError, DartToken } from './dart-source';

/** The Dart constant's name. */
export const DART_CONSTANT = 'vendorConfig';

/** A raw Dart string literal ends at the first `'''`, so text holding one cannot go inside. */
export const DART_RAW_END = "'''";

export type DartConstant =
  | { readonly ok: true; readonly contentStart: number; readonly contentEnd: number }
  /** `offset`: where in the text the problem is (its line is what the message names). */
  | { readonly ok: false; readonly offset: number; readonly message: string };

const EXPECTED = `not a Dart client configuration as vendor-outputs writes it: expected the line const ${DART_CONSTANT} = r${DART_RAW_END}{...}${DART_RAW_END}; (the JSON in a raw Dart string)`;

/** Finds the constant's JSON in `text`. */
export function findDartConstant(text: string): DartConstant {
  const { tokens, error } = dartTokens(text);
  if (error !== undefined) {
    return lexProblem(tokens, error);
  }
  const declarations = constantDeclarations(tokens);
  if (declarations.length === 0) {
    return { ok: false, offset: tokens[0]?.start ?? 0, message: EXPECTED };
  }
  if (declarations.length > 1) {
    return { ok: false, offset: tokens[declarations[1]].start, message: `${DART_CONSTANT} is declared again (Dart refuses a second top-level declaration of a name; the first is on line ${lineAt(text, tokens[declarations[0]].start)})` };
  }
  return readValue(tokens, declarations[0]);
}

/** Indexes of the `const` of each top-level `const [String] vendorConfig`. */
function constantDeclarations(tokens: readonly DartToken[]): number[] {
  const found: number[] = [];
  tokens.forEach((token, index) => {
    if (!isWord(token, 'const') || token.depth !== 0) {
      return;
    }
    const name = isWord(tokens[index + 1], 'String') ? tokens[index + 2] : tokens[index + 1];
    if (isWord(name, DART_CONSTANT)) {
      found.push(index);
    }
  });
  return found;
}

/** `= r'''...''' ;` after the name: the JSON's place, or what is there instead. */
function readValue(tokens: readonly DartToken[], declaration: number): DartConstant {
  const nameIndex = isWord(tokens[declaration + 1], 'String') ? declaration + 2 : declaration + 1;
  const equals = tokens[nameIndex + 1];
  const value = tokens[nameIndex + 2];
  if (!isPunct(equals, '=') || value?.kind !== 'string' || value.opening !== `r${DART_RAW_END}`) {
    return { ok: false, offset: tokens[declaration].start, message: EXPECTED };
  }
  if (!isPunct(tokens[nameIndex + 3], ';')) {
    return { ok: false, offset: value.end - DART_RAW_END.length, message: `expected ; after the closing ${DART_RAW_END} of ${DART_CONSTANT}` };
  }
  return { ok: true, contentStart: value.contentStart, contentEnd: value.contentEnd };
}

/** A comment or string never closed: the constant's own raw string gets the words render's reader always used. */
function lexProblem(tokens: readonly DartToken[], error: DartLexError): DartConstant {
  const declaration = constantDeclarations(tokens).pop();
  const opensConstant = declaration !== undefined && error.opening === `r${DART_RAW_END}`
    && isPunct(tokens[tokens.length - 1], '=') && tokens.length - declaration <= 4;
  if (opensConstant) {
    return { ok: false, offset: tokens[declaration].start, message: `the raw string r${DART_RAW_END} of ${DART_CONSTANT} is never closed with ${DART_RAW_END}` };
  }
  return error.what === 'comment'
    ? { ok: false, offset: error.offset, message: 'the comment /* that starts here is never closed with */: not Dart source' }
    : { ok: false, offset: error.offset, message: `the string ${error.opening}... that starts here is never closed: not Dart source` };
}

function isWord(token: DartToken | undefined, text: string): boolean {
  return token !== undefined && token.kind === 'word' && token.text === text;
}

function isPunct(token: DartToken | undefined, text: string): boolean {
  return token !== undefined && token.kind === 'punct' && token.text === text;
}

/** 1-based line of `offset`. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
    }
  }
  return line;
}
