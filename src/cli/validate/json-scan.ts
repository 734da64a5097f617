/**
 * A single pass over JSON text that finds what `JSON.parse` hides or reports poorly: the line and
 * column of a syntax error, duplicate keys (JSON.parse silently keeps the last value), numbers a
 * double cannot hold (`1e400` becomes Infinity, written back as `null`), pending-value markers,
 * and where given JSON pointers are in the text.
 *
 * It is linear and never recursive (an explicit stack holds the open objects and arrays), so a
 * value nested a million levels deep costs what any other value of that size costs.
 */
import { describeCharacter, hint } from './describe-character';
import { isPendingMarker, PENDING_MARKER_PREFIX } from './pending-marker';
import { childPointer, pointerTokens } from '../../outputs/cdk-free/json-pointer';

/** Where something is in the text; line and column count from 1, the column in characters. */
export interface TextPosition {
  readonly line: number;
  readonly column: number;
}

/** Something JSON.parse accepts but loses or changes. */
export interface ScanFinding {
  readonly position: TextPosition;
  /** JSON pointer of the value concerned. */
  readonly pointer: string;
  readonly message: string;
}

export interface ScanOptions {
  /**
   * Whether `JSON.parse` accepted the text. Then the scan also reports numbers out of range and
   * pending markers, and locates pointers; without it, the scan looks for the first syntax error.
   */
  readonly parsed: boolean;
  /**
   * Also find duplicate keys (this keeps every key of every open object: run it when
   * {@link JsonScan.memberCount} says there are duplicates).
   */
  readonly duplicates?: boolean;
  /** JSON pointers to locate (see {@link JsonScan.locate}). */
  readonly locate?: readonly string[];
  /** Most findings kept; the rest are only counted. */
  readonly findingLimit: number;
}

export interface JsonScan {
  /** The first syntax error, when the text is not JSON. */
  readonly syntaxError?: { readonly position: TextPosition; readonly message: string };
  /** The first findings, in text order, at most `findingLimit`. */
  readonly findings: ScanFinding[];
  /** How many findings there are in all. */
  readonly findingCount: number;
  /** Object members in the text: more than the parsed document's own keys means duplicate keys. */
  readonly memberCount: number;
  /** How many string values are pending-value markers. */
  readonly pendingCount: number;
  /** The first pending marker. */
  readonly firstPending?: { readonly position: TextPosition; readonly pointer: string };
  /**
   * Where a pointer given in `locate` is: its value (for an object member, its key), or, when the
   * pointer names something missing, the closest enclosing value that exists.
   */
  locate(pointer: string): TextPosition;
}

/** A node of the tree of pointers to locate. */
interface LocateNode {
  readonly children: Map<string, LocateNode>;
  position?: TextPosition;
}

/** One open object or array. Frames are reused from level to level, so deep text allocates once. */
class Frame {
  public isObject = false;
  /** Members or items so far. */
  public count = 0;
  /** The current key: offsets of its opening quote and after its closing quote. */
  public keyStart = 0;
  public keyEnd = 0;
  public node: LocateNode | undefined;
  /** The keys so far and their lines, when looking for duplicates. */
  public keys: Map<string, number> | undefined;
  public openLine = 0;
}

// What the scanner expects next.
const VALUE = 0;
const KEY_OR_END = 1;
const KEY = 2;
const AFTER_VALUE = 3;

class SyntaxProblem extends Error {
  constructor(message: string, public readonly offset: number) {
    super(message);
  }
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

function isHex(code: number): boolean {
  return isDigit(code) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66);
}

const ESCAPES = '"\\/bfnrtu';

/** Builds the tree of pointers to locate. */
function locateTree(pointers: readonly string[]): LocateNode {
  const root: LocateNode = { children: new Map() };
  for (const pointer of pointers) {
    let node = root;
    for (const token of pointerTokens(pointer)) {
      let child = node.children.get(token);
      if (child === undefined) {
        child = { children: new Map() };
        node.children.set(token, child);
      }
      node = child;
    }
  }
  return root;
}

/** Scans `text` (already decoded, without a byte order mark). */
export function scanJson(text: string, options: ScanOptions): JsonScan {
  return new Scanner(text, options).run();
}

class Scanner {
  private pos = 0;
  private line = 1;
  private lineStart = 0;

  /** frames[0..depth] are the open containers. */
  private readonly frames: Frame[] = [];
  private depth = -1;

  private readonly root: LocateNode;
  private readonly findings: Array<ScanFinding & { readonly offset: number }> = [];
  private findingCount = 0;
  private memberCount = 0;
  private pendingCount = 0;
  private firstPending: { position: TextPosition; pointer: string } | undefined;
  /** Whether JSON.parse accepted the text (then strings need no character checks). */
  private readonly trusted: boolean;

  constructor(private readonly text: string, private readonly options: ScanOptions) {
    this.root = locateTree(options.locate ?? []);
    this.trusted = options.parsed;
  }

  public run(): JsonScan {
    let syntaxError: JsonScan['syntaxError'];
    try {
      this.scan();
    } catch (error) {
      if (!(error instanceof SyntaxProblem)) {
        throw error;
      }
      syntaxError = { position: this.positionOf(error.offset), message: error.message };
    }
    const root = this.root;
    const findings = this.findings.sort((a, b) => a.offset - b.offset).map(({ position, pointer, message }) => ({ position, pointer, message }));
    return {
      syntaxError,
      findings,
      findingCount: this.findingCount,
      memberCount: this.memberCount,
      pendingCount: this.pendingCount,
      firstPending: this.firstPending,
      locate(pointer: string): TextPosition {
        let node: LocateNode | undefined = root;
        let found = root.position ?? { line: 1, column: 1 };
        for (const token of pointerTokens(pointer)) {
          node = node.children.get(token);
          if (node === undefined) {
            break;
          }
          found = node.position ?? found;
        }
        return found;
      },
    };
  }

  /** Position of an offset on the current line or an earlier one. */
  private positionOf(offset: number): TextPosition {
    if (offset >= this.lineStart) {
      return { line: this.line, column: offset - this.lineStart + 1 };
    }
    return positionFromStart(this.text, offset);
  }

  private here(offset: number): TextPosition {
    return { line: this.line, column: offset - this.lineStart + 1 };
  }

  private scan(): void {
    const text = this.text;
    const end = text.length;
    let expect = VALUE;
    this.skipWhitespace();
    if (this.pos >= end) {
      throw new SyntaxProblem('the file is empty: a vendor_outputs.json holds one JSON object', this.pos);
    }
    this.root.position = this.here(this.pos);
    for (;;) {
      this.skipWhitespace();
      const pos = this.pos;
      if (pos >= end) {
        if (this.depth < 0 && expect === AFTER_VALUE) {
          return;
        }
        throw this.unexpectedEnd();
      }
      const code = text.charCodeAt(pos);
      if (expect === VALUE) {
        expect = this.value(code, pos);
      } else if (expect === AFTER_VALUE) {
        if (this.depth < 0) {
          throw new SyntaxProblem(`unexpected ${describeCharacter(code)} after the end of the JSON value${hint(code)}`, pos);
        }
        expect = this.afterValue(code, pos, this.frames[this.depth]);
      } else if (code === 0x22) {
        this.key(pos, this.frames[this.depth]);
        expect = VALUE;
      } else if (code === 0x7d && expect === KEY_OR_END) {
        this.pos++;
        this.close();
        expect = AFTER_VALUE;
      } else if (code === 0x7d) {
        throw new SyntaxProblem("a comma before '}': JSON allows no trailing comma", pos);
      } else {
        throw new SyntaxProblem(`expected a property name in double quotes, found ${describeCharacter(code)}${hint(code)}`, pos);
      }
    }
  }

  private skipWhitespace(): void {
    const text = this.text;
    let pos = this.pos;
    for (; pos < text.length; pos++) {
      const code = text.charCodeAt(pos);
      if (code === 0x0a) {
        this.line++;
        this.lineStart = pos + 1;
      } else if (code !== 0x20 && code !== 0x09 && code !== 0x0d) {
        break;
      }
    }
    this.pos = pos;
  }

  private unexpectedEnd(): SyntaxProblem {
    if (this.depth < 0) {
      return new SyntaxProblem('unexpected end of the file: a value is missing', this.pos);
    }
    const frame = this.frames[this.depth];
    return new SyntaxProblem(`unexpected end of the file inside the ${frame.isObject ? 'object' : 'array'} opened on line ${frame.openLine}`, this.pos);
  }

  /** After a value: ',' or the end of its container. */
  private afterValue(code: number, pos: number, frame: Frame): number {
    if (code === (frame.isObject ? 0x7d : 0x5d)) {
      this.pos++;
      this.close();
      return AFTER_VALUE;
    }
    if (code === 0x2c) {
      this.pos++;
      if (frame.isObject) {
        return KEY;
      }
      frame.count++;
      this.skipWhitespace();
      if (this.text.charCodeAt(this.pos) === 0x5d) {
        throw new SyntaxProblem("a comma before ']': JSON allows no trailing comma", this.pos);
      }
      return VALUE;
    }
    const expected = frame.isObject ? "',' or '}' after a property value" : "',' or ']' after an array item";
    throw new SyntaxProblem(`expected ${expected}, found ${describeCharacter(code)}${hint(code)}`, pos);
  }

  /** The start of a value; returns what comes next. */
  private value(code: number, pos: number): number {
    const node = this.slotNode();
    if (node !== undefined && (this.depth < 0 || !this.frames[this.depth].isObject)) {
      node.position = this.here(pos);
    }
    if (code === 0x7b || code === 0x5b) {
      this.pos++;
      this.open(code === 0x7b, node);
      if (code === 0x7b) {
        return KEY_OR_END;
      }
      this.skipWhitespace();
      if (this.text.charCodeAt(this.pos) === 0x5d) {
        this.pos++;
        this.close();
        return AFTER_VALUE;
      }
      return VALUE;
    }
    if (code === 0x22) {
      this.stringValue(pos);
    } else if (code === 0x2d || isDigit(code)) {
      this.number(pos);
    } else if (this.text.startsWith('true', pos)) {
      this.pos += 4;
    } else if (this.text.startsWith('false', pos)) {
      this.pos += 5;
    } else if (this.text.startsWith('null', pos)) {
      this.pos += 4;
    } else {
      throw new SyntaxProblem(`expected a value (a "string", a number, true, false, null, an object or an array), found ${describeCharacter(code)}${hint(code)}`, pos);
    }
    return AFTER_VALUE;
  }

  /** The node to locate for the value about to start, if a pointer wants it. */
  private slotNode(): LocateNode | undefined {
    if (this.depth < 0) {
      return this.root;
    }
    const parent = this.frames[this.depth];
    if (parent.node === undefined || parent.node.children.size === 0) {
      return undefined;
    }
    return parent.node.children.get(this.slotToken(parent));
  }

  private slotToken(frame: Frame): string {
    if (!frame.isObject) {
      return String(frame.count);
    }
    return decodeString(this.text.slice(frame.keyStart, frame.keyEnd));
  }

  private open(isObject: boolean, node: LocateNode | undefined): void {
    const depth = ++this.depth;
    const frame = this.frames[depth] ?? (this.frames[depth] = new Frame());
    frame.isObject = isObject;
    frame.count = 0;
    frame.node = node;
    frame.keys = undefined;
    frame.openLine = this.line;
  }

  private close(): void {
    this.frames[this.depth].keys = undefined;
    this.depth--;
  }

  /** A property name: remembered for pointers and located when a pointer names it. */
  private key(pos: number, frame: Frame): void {
    const end = this.string(pos);
    frame.keyStart = pos;
    frame.keyEnd = end;
    frame.count++;
    this.memberCount++;
    if (this.options.duplicates) {
      this.checkDuplicate(frame, pos);
    }
    if (frame.node !== undefined && frame.node.children.size > 0) {
      const node = frame.node.children.get(this.slotToken(frame));
      if (node !== undefined) {
        node.position = this.here(pos);
      }
    }
    this.skipWhitespace();
    if (this.text.charCodeAt(this.pos) !== 0x3a) {
      if (this.pos >= this.text.length) {
        throw this.unexpectedEnd();
      }
      throw new SyntaxProblem(`expected ':' after the property name, found ${describeCharacter(this.text.charCodeAt(this.pos))}`, this.pos);
    }
    this.pos++;
  }

  /** With `duplicates`: a key seen before in the same object is a finding. */
  private checkDuplicate(frame: Frame, pos: number): void {
    const key = this.slotToken(frame);
    frame.keys ??= new Map();
    const earlier = frame.keys.get(key);
    if (earlier === undefined) {
      frame.keys.set(key, this.line);
      return;
    }
    this.find(pos, `duplicate key ${JSON.stringify(key)} (also on line ${earlier}): JSON.parse keeps only the last value; keep one`);
  }

  private stringValue(pos: number): void {
    const end = this.string(pos);
    if (this.trusted && this.text.charCodeAt(pos + 1) === 0x3c && this.text.startsWith(PENDING_MARKER_PREFIX, pos + 1)) {
      if (isPendingMarker(decodeString(this.text.slice(pos, end)))) {
        this.pendingCount++;
        this.firstPending ??= { position: this.here(pos), pointer: this.pointer(this.depth) };
      }
    }
  }

  /** Scans the string whose opening quote is at `pos`; returns the offset after its closing quote. */
  private string(pos: number): number {
    const end = this.trusted ? skipString(this.text, pos) : this.checkString(pos);
    this.pos = end;
    return end;
  }

  /** A string in text JSON.parse refused: every character checked. */
  private checkString(pos: number): number {
    const text = this.text;
    for (let i = pos + 1; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code === 0x22) {
        return i + 1;
      }
      if (code === 0x5c) {
        const next = text.charCodeAt(i + 1);
        if (Number.isNaN(next)) {
          break;
        }
        if (!ESCAPES.includes(String.fromCharCode(next))) {
          throw new SyntaxProblem(`invalid escape '\\${String.fromCharCode(next)}' in a string; allowed: \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX`, i);
        }
        if (next === 0x75) {
          for (let h = i + 2; h < i + 6; h++) {
            if (!isHex(text.charCodeAt(h))) {
              throw new SyntaxProblem('invalid escape in a string: \\u needs four hexadecimal digits', i);
            }
          }
          i += 4;
        }
        i++;
      } else if (code < 0x20) {
        throw new SyntaxProblem(code === 0x0a
          ? 'a string cannot go on to the next line: end it with \'"\' or write the line break as \\n'
          : `${describeCharacter(code)} inside a string: control characters must be escaped (\\t, \\u00XX)`, i);
      }
    }
    throw new SyntaxProblem(`the string that starts on line ${this.line} column ${pos - this.lineStart + 1} is not closed`, text.length);
  }

  private number(pos: number): void {
    const text = this.text;
    let i = pos;
    if (text.charCodeAt(i) === 0x2d) {
      i++;
    }
    const intStart = i;
    while (isDigit(text.charCodeAt(i))) {
      i++;
    }
    if (i === intStart) {
      throw new SyntaxProblem(`invalid number: expected a digit, found ${i < text.length ? describeCharacter(text.charCodeAt(i)) : 'the end of the file'}`, i);
    }
    if (text.charCodeAt(intStart) === 0x30 && i - intStart > 1) {
      throw new SyntaxProblem('invalid number: JSON numbers have no leading zeros', pos);
    }
    let digits = i - intStart;
    if (text.charCodeAt(i) === 0x2e) {
      const fraction = ++i;
      while (isDigit(text.charCodeAt(i))) {
        i++;
      }
      if (i === fraction) {
        throw new SyntaxProblem("invalid number: at least one digit must follow '.'", i);
      }
      digits += i - fraction;
    }
    const mantissaEnd = i;
    const e = text.charCodeAt(i);
    const exponent = e === 0x65 || e === 0x45;
    if (exponent) {
      i++;
      const sign = text.charCodeAt(i);
      if (sign === 0x2b || sign === 0x2d) {
        i++;
      }
      const start = i;
      while (isDigit(text.charCodeAt(i))) {
        i++;
      }
      if (i === start) {
        throw new SyntaxProblem('invalid number: the exponent needs at least one digit', i);
      }
    }
    this.pos = i;
    // Only an exponent or more than 300 digits can leave the range of a double.
    if (this.trusted && (exponent || digits > 300)) {
      this.checkRange(pos, i, mantissaEnd);
    }
  }

  private checkRange(start: number, end: number, mantissaEnd: number): void {
    const token = this.text.slice(start, end);
    const value = Number(token);
    const shown = token.length > 40 ? `${token.slice(0, 37)}...` : token;
    if (!Number.isFinite(value)) {
      this.find(start, `number ${shown} is out of range for JSON.parse (at most about ±1.8e308): it becomes ${value < 0 ? '-' : ''}Infinity, which JSON writes as null`);
    } else if (value === 0 && /[1-9]/.test(this.text.slice(start, mantissaEnd))) {
      this.find(start, `number ${shown} is too close to 0 for JSON.parse (at least about 5e-324 apart from 0): it becomes 0`);
    }
  }

  /** A finding about the current slot; its pointer is built only when the finding is kept (it costs the depth). */
  private find(offset: number, message: string): void {
    this.findingCount++;
    if (this.findings.length < this.options.findingLimit) {
      this.findings.push({ offset, position: this.here(offset), pointer: this.pointer(this.depth), message });
    }
  }


  /** Pointer of the current slot of frames 0..depth (each one's current key or index). */
  private pointer(depth: number): string {
    let pointer = '';
    for (let d = 0; d <= depth; d++) {
      pointer = childPointer(pointer, this.slotToken(this.frames[d]));
    }
    return pointer;
  }
}

/** Position of `offset`, counting lines from the start of the text. */
function positionFromStart(text: string, offset: number): TextPosition {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

/** The value of a JSON string literal (quotes included). */
function decodeString(literal: string): string {
  return literal.includes('\\') ? JSON.parse(literal) as string : literal.slice(1, -1);
}

/** Offset after the closing quote of the string at `pos`, in text JSON.parse accepted. */
function skipString(text: string, pos: number): number {
  let quote = text.indexOf('"', pos + 1);
  for (;;) {
    // A quote preceded by an odd number of backslashes is escaped.
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) {
      backslashes++;
    }
    if (backslashes % 2 === 0) {
      return quote + 1;
    }
    quote = text.indexOf('"', quote + 1);
  }
}
