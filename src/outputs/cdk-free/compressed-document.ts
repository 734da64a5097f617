/**
 * A large carried document travels gzip-compressed and Base64-encoded in the template Metadata,
 * so that a data section with a generated model introspection (hundreds of KB of JSON for a
 * schema of 200 models) keeps the template far below CloudFormation's 1 MB limit, and the stack
 * alone still suffices to rebuild the file. Free of aws-cdk-lib.
 */
import type * as Zlib from 'zlib';
import { CarriageError } from './carriage-error';

/** Documents whose JSON is longer than this many characters are compressed. */
export const COMPRESS_ABOVE = 32 * 1024;

/** The largest document a reader inflates (a guard against a crafted template). */
export const MAX_INFLATED_BYTES = 64 * 1024 * 1024;

/** zlib, loaded when a document is large: most stacks and most runs of generate never need it. */
function zlib(): typeof Zlib {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('zlib');
}

/** Base64 of the gzip of the document's JSON. */
export function compressDocument(document: Record<string, unknown>): string {
  return zlib().gzipSync(JSON.stringify(document), { level: 9 }).toString('base64');
}

/** The document of a `documentGzip` value; throws CarriageError prefixed with `where`. */
export function inflateDocument(encoded: unknown, where: string): unknown {
  if (typeof encoded !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(encoded)) {
    throw new CarriageError(`${where}: documentGzip must be Base64 text`);
  }
  let text: string;
  try {
    text = zlib().gunzipSync(Buffer.from(encoded, 'base64'), { maxOutputLength: MAX_INFLATED_BYTES }).toString('utf8');
  } catch (error) {
    throw new CarriageError(`${where}: documentGzip is not gzip data of at most ${MAX_INFLATED_BYTES} bytes: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CarriageError(`${where}: documentGzip does not hold JSON: ${(error as Error).message}`);
  }
}
