/**
 * Reads a file to check as UTF-8 text, without ever blocking on something that is not a file and
 * without hiding bytes that are not UTF-8.
 */
import { isUtf8 } from 'buffer';
import * as fs from 'fs';
import { CliError } from '../command';
import { TextPosition } from './json-scan';

/** Larger files are refused: a vendor_outputs.json is kilobytes, and a string this long nears V8's limit. */
export const MAX_FILE_BYTES = 256 * 1024 * 1024;

/** A problem found while decoding, at a place in the file. */
export interface DecodingProblem {
  readonly position: TextPosition;
  readonly message: string;
}

export interface TextFile {
  /** The decoded text, without a byte order mark; undefined when it cannot be decoded. */
  readonly text?: string;
  readonly problems: DecodingProblem[];
}

function fileKind(stat: fs.Stats): string {
  if (stat.isFIFO()) {
    return 'a named pipe (FIFO)';
  }
  if (stat.isCharacterDevice()) {
    return 'a character device';
  }
  if (stat.isBlockDevice()) {
    return 'a block device';
  }
  if (stat.isSocket()) {
    return 'a socket';
  }
  return stat.isDirectory() ? 'a folder' : 'something else';
}

/**
 * Opens without blocking (a FIFO with no writer would block a plain open), then checks that the
 * open file is a regular file before reading anything: the check and the read see the same file.
 * Refusals are CliErrors with exit code 2.
 */
export function readFileBytes(file: string): Buffer {
  let fd: number;
  try {
    // eslint-disable-next-line no-bitwise
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENXIO') {
      throw new CliError(`${file}: is a socket, not a regular file: validate reads files only`, 2);
    }
    throw new CliError(`${file}: cannot read: ${code ?? (error as Error).message}`, 2);
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) {
      throw new CliError(`${file}: is ${fileKind(stat)}, not a regular file: validate reads files only`, 2);
    }
    if (stat.size > MAX_FILE_BYTES) {
      throw new CliError(`${file}: too large to check (${stat.size} bytes; at most ${MAX_FILE_BYTES})`, 2);
    }
    return fs.readFileSync(fd);
  } catch (error) {
    if (error instanceof CliError) {
      throw error;
    }
    throw new CliError(`${file}: cannot read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, 2);
  } finally {
    fs.closeSync(fd);
  }
}

/** Length of the valid UTF-8 sequence at `i`, or 0 when the bytes there are not valid UTF-8. */
function sequenceLength(bytes: Buffer, i: number): number {
  const b = bytes[i];
  if (b < 0x80) {
    return 1;
  }
  let length: number;
  let min: number;
  let max = 0xbf;
  if (b >= 0xc2 && b <= 0xdf) {
    length = 2;
    min = 0x80;
  } else if (b >= 0xe0 && b <= 0xef) {
    length = 3;
    min = b === 0xe0 ? 0xa0 : 0x80; // no overlong forms
    max = b === 0xed ? 0x9f : 0xbf; // no surrogates
  } else if (b >= 0xf0 && b <= 0xf4) {
    length = 4;
    min = b === 0xf0 ? 0x90 : 0x80;
    max = b === 0xf4 ? 0x8f : 0xbf; // nothing above U+10FFFF
  } else {
    return 0;
  }
  for (let k = 1; k < length; k++) {
    const c = bytes[i + k];
    if (c === undefined || c < (k === 1 ? min : 0x80) || c > (k === 1 ? max : 0xbf)) {
      return 0;
    }
  }
  return length;
}

/** Offset of the first byte that does not start a valid UTF-8 sequence. */
export function firstInvalidUtf8(bytes: Buffer): number {
  for (let i = 0; i < bytes.length;) {
    const length = sequenceLength(bytes, i);
    if (length === 0) {
      return i;
    }
    i += length;
  }
  return -1;
}

/** Line and column (in characters) of a byte offset whose preceding bytes are valid UTF-8. */
function bytePosition(bytes: Buffer, offset: number): TextPosition {
  let line = 1;
  let lineStart = 0;
  for (let i = bytes.indexOf(0x0a); i >= 0 && i < offset; i = bytes.indexOf(0x0a, i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: bytes.subarray(lineStart, offset).toString('utf8').length + 1 };
}

/** Decodes bytes as UTF-8 JSON text: reports a byte order mark (and skips it) and refuses bytes that are not UTF-8. */
export function decodeText(bytes: Buffer): TextFile {
  const problems: DecodingProblem[] = [];
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    const mark = bytes[0] === 0xff ? 'FF FE' : 'FE FF';
    problems.push({ position: { line: 1, column: 1 }, message: `the file is UTF-16 (byte order mark ${mark}): JSON files are UTF-8; save it as UTF-8` });
    return { problems };
  }
  let start = 0;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    problems.push({
      position: { line: 1, column: 1 },
      message: 'the file starts with a byte order mark (bytes EF BB BF): JSON text must not have one (RFC 8259, section 8.1) and JSON.parse refuses it; save the file as UTF-8 without BOM',
    });
    start = 3;
  }
  const body = bytes.subarray(start);
  if (!isUtf8(body)) {
    const offset = firstInvalidUtf8(body);
    const byte = body[offset].toString(16).toUpperCase().padStart(2, '0');
    problems.push({
      position: bytePosition(body, offset),
      message: `not valid UTF-8: byte 0x${byte} at byte offset ${offset + start} does not fit a UTF-8 sequence; save the file as UTF-8`,
    });
    return { problems };
  }
  return { text: body.toString('utf8'), problems };
}
