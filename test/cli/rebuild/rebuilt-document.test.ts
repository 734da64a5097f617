/**
 * What generate accepts from a deployed stack: the carried document's shape and pointers
 * (template Metadata is input: anyone can edit a template) and the exact encoding of the
 * output values. Each refusal is one line that names where the problem is. Then the rebuild:
 * pending values filled, the result validated, the summary line.
 */
import * as zlib from 'zlib';
import { CliError } from '../../../src/cli/command';
import { carriedFromMetadata, rebuildAndValidate, summary } from '../../../src/cli/rebuild/rebuilt-document';
import { carriedMetadata, decodePackedOutput, encodePackedOutput } from '../../../src/outputs/cdk-free/carriage';
import { COMPRESS_ABOVE, MAX_INFLATED_BYTES } from '../../../src/outputs/cdk-free/compressed-document';

const KEY = 'cdk-vendor-outputs/v1';
const MALFORMED = `stack S: template Metadata '${KEY}' is malformed`;
const metadata = (carried: unknown) => ({ [KEY]: carried });
const skeleton = () => ({ version: '1', storage: { vendor_region: null, bucket_name: null } });
const entry = (pointer: string, index = 0, output = 'O') => ({ pointer, output, index });

function refused(carried: unknown): string {
  try {
    carriedFromMetadata(metadata(carried), 'stack S');
  } catch (error) {
    expect(error).toBeInstanceOf(CliError);
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
}

describe('carried document shape', () => {
  test.each([
    ['null', null, `${MALFORMED}: expected { document, pending[] } or { documentGzip, pending[] } (got null)`],
    ['a list', [], `${MALFORMED}: expected { document, pending[] } or { documentGzip, pending[] } (got [])`],
    ['no pending', { document: {} }, `${MALFORMED}: expected { document, pending[] } or { documentGzip, pending[] } (got {"document":{}})`],
    ['document null', { document: null, pending: [] }, `${MALFORMED}: document must be an object (got null)`],
    ['document a list', { document: [], pending: [] }, `${MALFORMED}: document must be an object (got [])`],
    ['pending an object', { document: {}, pending: {} }, `${MALFORMED}: pending must be a list (got {})`],
    ['an empty output id', { document: { a: null }, pending: [entry('/a', 0, '')] },
      `${MALFORMED}: pending[0] must be { pointer: "/...", output: string, index: integer 0..7 } (got {"pointer":"/a","output":"","index":0})`],
    ['an index past the slots of one output', { document: { a: null }, pending: [entry('/a', 8)] }, `${MALFORMED}: pending[0] must be`],
    ['a fractional index', { document: { a: null }, pending: [entry('/a', 0.5)] }, `${MALFORMED}: pending[0] must be`],
  ])('%s is refused in one line', (_, carried, message) => {
    const text = refused(carried);
    expect(text.startsWith(message)).toBe(true);
    expect(text).not.toContain('\n');
  });

  test('a large skeleton travels compressed and comes back the same', () => {
    const large = { version: '1', custom: { text: 'x'.repeat(COMPRESS_ABOVE), pending: null } };
    const carried = carriedMetadata({ document: large, pending: [entry('/custom/pending')] });
    expect(Object.keys(carried)).toEqual(['documentGzip', 'pending']);
    expect(String(carried.documentGzip).length).toBeLessThan(COMPRESS_ABOVE / 10);
    expect(carriedFromMetadata(metadata(carried), 'stack S').document).toEqual(large);
    expect(Object.keys(carriedMetadata({ document: skeleton(), pending: [] }))).toEqual(['document', 'pending']);
  });

  const gzip = (text: string | Buffer) => zlib.gzipSync(text).toString('base64');
  test.each([
    ['both document and documentGzip', { document: {}, documentGzip: gzip('{}'), pending: [] }, `${MALFORMED}: expected { document, pending[] } or { documentGzip, pending[] }`],
    ['documentGzip not Base64', { documentGzip: 'not base64!', pending: [] }, `${MALFORMED}: documentGzip must be Base64 text`],
    ['documentGzip not gzip', { documentGzip: Buffer.from('plain').toString('base64'), pending: [] }, `${MALFORMED}: documentGzip is not gzip data of at most ${MAX_INFLATED_BYTES} bytes`],
    ['documentGzip not JSON', { documentGzip: gzip('{not json'), pending: [] }, `${MALFORMED}: documentGzip does not hold JSON`],
    ['documentGzip a list', { documentGzip: gzip('[]'), pending: [] }, `${MALFORMED}: document must be an object (got [])`],
  ])('%s is refused in one line', (_, carried, message) => {
    const text = refused(carried);
    expect(text.startsWith(message)).toBe(true);
    expect(text).not.toContain('\n');
  });

  test('a document that inflates past the limit is refused', () => {
    const bomb = gzip(Buffer.alloc(MAX_INFLATED_BYTES + 1, 0x20));
    expect(bomb.length).toBeLessThan(200_000);
    expect(refused({ documentGzip: bomb, pending: [] })).toMatch(`${MALFORMED}: documentGzip is not gzip data of at most ${MAX_INFLATED_BYTES} bytes`);
  });

  test('a document whose Metadata key is only inherited is not carried', () => {
    const inherited = Object.create({ [KEY]: { document: {}, pending: [] } });
    expect(() => carriedFromMetadata(inherited, 'stack S')).toThrow(`stack S has no '${KEY}' template Metadata`);
  });
});

describe('pending pointers', () => {
  afterEach(() => {
    // Nothing may ever land on the shared prototype.
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  test.each([
    ['through __proto__', '/__proto__/polluted', 'pending[0].pointer "/__proto__/polluted" does not lead to a pending value (null) of the document: / has no key "__proto__"'],
    ['through constructor.prototype', '/constructor/prototype/polluted', '/ has no key "constructor"'],
    ['to an inherited member', '/storage/toString', '/storage has no key "toString"'],
    ['to a missing key', '/storage/bucket_url', '/storage has no key "bucket_url"'],
    ['to a literal value', '/version', 'does not lead to a pending value (null) of the document: it holds "1"'],
    ['to a whole section', '/storage', 'it holds {"vendor_region":null,"bucket_name":null}'],
    ['through a string', '/version/x', '/version is "1", not an object'],
    ['with a bad escape', '/storage/a~2b', 'pending[0].pointer "/storage/a~2b" is not a JSON pointer: \'~\' must be followed by 0 or 1'],
    ['the document itself', '', 'pending[0].pointer "" is not a JSON pointer: it must start with \'/\''],
  ])('a pointer %s is refused', (_, pointer, message) => {
    const text = refused({ document: skeleton(), pending: [entry(pointer)] });
    expect(text).toContain(message);
    expect(text.startsWith(MALFORMED)).toBe(true);
  });

  test('a pointer listed twice is refused', () => {
    expect(refused({ document: skeleton(), pending: [entry('/storage/bucket_name', 0), entry('/storage/bucket_name', 1)] }))
      .toBe(`${MALFORMED}: pending[1].pointer "/storage/bucket_name" is listed twice`);
  });

  test.each([
    ['/list/01', 'has no item "01"'],
    ['/list/2', '/list is a list of 2 and has no item "2"'],
    ['/list/-', 'has no item "-"'],
  ])('a list index %s that is not an item is refused', (pointer, message) => {
    expect(refused({ document: { list: ['a', null] }, pending: [entry(pointer)] })).toContain(message);
  });

  test('a key named __proto__ that the document has itself is data, filled without touching any prototype', () => {
    const carried = carriedFromMetadata(JSON.parse(`{"${KEY}":{"document":{"version":"1","custom":{"__proto__":null,"a~b/c":null,"list":["x",null]}},`
      + '"pending":[{"pointer":"/custom/__proto__","output":"O","index":0},{"pointer":"/custom/a~0b~1c","output":"O","index":1},'
      + '{"pointer":"/custom/list/1","output":"O","index":2}]}}'), 'stack S');
    const document = rebuildAndValidate(carried, { O: encodePackedOutput(['{"polluted":true}', 'slash', 'item']) }, 'stack S') as any;
    expect(Object.keys(document.custom)).toEqual(['__proto__', 'a~b/c', 'list']);
    expect(Object.getOwnPropertyDescriptor(document.custom, '__proto__')?.value).toBe('{"polluted":true}');
    expect(Object.getPrototypeOf(document.custom)).toBe(Object.prototype);
    expect(document.custom['a~b/c']).toBe('slash');
    expect(document.custom.list).toEqual(['x', 'item']);
    expect(JSON.stringify(document.custom)).toBe('{"__proto__":"{\\"polluted\\":true}","a~b/c":"slash","list":["x","item"]}');
  });
});

describe('output values', () => {
  const carried = () => carriedFromMetadata(metadata({
    document: skeleton(),
    pending: [entry('/storage/vendor_region', 0, 'Values0'), entry('/storage/bucket_name', 1, 'Values0')],
  }), 'stack S');
  const rebuild = (value: string) => rebuildAndValidate(carried(), { Values0: value }, 'stack S');

  test('the exact encoding comes back byte for byte: commas, quotes, a BOM, astral characters, empty', () => {
    const values = ['\uFEFFeu,"west"\\1', '𝄞 bücket\n'];
    expect(decodePackedOutput(encodePackedOutput(values))).toEqual({ values });
    expect(decodePackedOutput('')).toEqual({ values: [''] });
    expect(rebuild(encodePackedOutput(['eu-west-1', 'files-1a2b'])).storage).toEqual({ vendor_region: 'eu-west-1', bucket_name: 'files-1a2b' });
  });

  const prefix = 'stack S: output Values0 (for /storage/vendor_region) is not what cdk-vendor-outputs deploys (up to 8 comma-separated Base64 values of UTF-8 text): value 0:';
  test.each([
    ['a raw value pasted in', 'https://abc.execute-api.eu-west-1.amazonaws.com/prod/', `${prefix} "https://abc.execute-api.eu-west-1.amazon..." is not Base64`],
    ['unpadded Base64', 'ZXU', `${prefix} "ZXU" is not Base64`],
    ['URL-safe Base64', 'ZXUtd2VzdC0x_-8=', `${prefix} "ZXUtd2VzdC0x_-8=" is not Base64`],
    ['Base64 with spaces', 'ZXUt d2Vz', `${prefix} "ZXUt d2Vz" is not Base64`],
    ['non-canonical padding bits', 'ZXV=', `${prefix} "ZXV=" is not canonical Base64`],
    ['bytes that are not UTF-8', Buffer.from([0xff, 0xfe, 0x41]).toString('base64'), `${prefix} "//5B" decodes to bytes that are not UTF-8 text`],
    ['a lone surrogate encoded as UTF-8 (CESU)', Buffer.from([0xed, 0xa0, 0x80]).toString('base64'), `${prefix} "7aCA" decodes to bytes that are not UTF-8 text`],
  ])('%s is refused, naming the output and the pointer', (_, value, message) => {
    expect(() => rebuild(`${value},${encodePackedOutput(['b'])}`)).toThrow(new CliError(`${message}; was the output changed after deploy? Deploy the stack again`));
  });

  test('a bad second value names the second pointer', () => {
    expect(() => rebuild(`${encodePackedOutput(['eu-west-1'])},not base64!`))
      .toThrow('stack S: output Values0 (for /storage/bucket_name) is not what cdk-vendor-outputs deploys (up to 8 comma-separated Base64 values of UTF-8 text): value 1: "not base64!" is not Base64');
  });

  test('more values than one output carries is refused', () => {
    expect(() => rebuild(encodePackedOutput(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'])))
      .toThrow('stack S: output Values0 (for /storage/vendor_region, /storage/bucket_name) is not what cdk-vendor-outputs deploys (up to 8 comma-separated Base64 values of UTF-8 text): value 8: it holds 9 comma-separated values; the library writes at most 8');
  });
});

describe('rebuild', () => {
  const b64 = (...values: string[]) => values.map((v) => Buffer.from(v).toString('base64')).join(',');

  test('fills pending values and validates', () => {
    const carried = carriedFromMetadata(metadata({
      document: { version: '1', storage: { vendor_region: null, bucket_name: null } },
      pending: [{ pointer: '/storage/vendor_region', output: 'O', index: 0 }, { pointer: '/storage/bucket_name', output: 'O', index: 1 }],
    }), 'stack S');
    const document = rebuildAndValidate(carried, { O: b64('eu-west-1', 'b,"\\') }, 'stack S');
    expect(document).toEqual({ version: '1', storage: { vendor_region: 'eu-west-1', bucket_name: 'b,"\\' } });
    expect(summary('stack S', carried, document)).toBe('stack S: 2 deploy-time value(s) filled; sections: storage');
  });

  test.each([
    [{ document: {}, pending: [{ pointer: 'x', output: 'O', index: 0 }] }, 'pending[0].pointer "x" is not a JSON pointer: it must start with \'/\''],
    [{ document: {}, pending: [{ pointer: '/x', output: 1, index: 0 }] }, 'pending[0] must be { pointer: "/...", output: string, index: integer 0..7 } (got {"pointer":"/x","output":1,"index":0})'],
    [{ document: {}, pending: [{ pointer: '/x', output: 'O', index: -1 }] }, 'pending[0] must be'],
    [{ document: {}, pending: [null] }, 'pending[0] must be { pointer: "/...", output: string, index: integer 0..7 } (got null)'],
    [{ document: 'x', pending: [] }, "template Metadata 'cdk-vendor-outputs/v1' is malformed: document must be an object (got \"x\")"],
  ])('malformed carriage %j is refused', (carried, message) => {
    expect(() => carriedFromMetadata(metadata(carried), 'stack S')).toThrow(CliError);
    expect(() => carriedFromMetadata(metadata(carried), 'stack S')).toThrow(message);
  });

  test('no Metadata at all', () => {
    expect(() => carriedFromMetadata(undefined, 'stack S')).toThrow("stack S has no 'cdk-vendor-outputs/v1' template Metadata");
  });

  test('an invalid result lists every violation', () => {
    const carried = carriedFromMetadata(metadata({ document: { version: '2', storage: { bucket_name: null } }, pending: [{ pointer: '/storage/bucket_name', output: 'O', index: 0 }] }), 'stack S');
    expect(() => rebuildAndValidate(carried, { O: b64('b') }, 'stack S'))
      .toThrow(/stack S: the rebuilt vendor_outputs.json is invalid \(nothing written\):\n {2}.*\/version: must be "1" \(got "2"\)/s);
    expect(() => rebuildAndValidate(carried, { O: b64('b') }, 'stack S')).toThrow('/storage/vendor_region: is required but missing');
  });
});
