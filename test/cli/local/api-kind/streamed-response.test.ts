/**
 * The reader of a function's response stream shared by function URLs and REST streaming methods:
 * the prelude (split across chunks, with multiValueHeaders and cookies), and each limit cutting the
 * stream: the byte limit, the prelude's 16 KB, the idle timeout and the duration.
 */
import { StreamedResponse, StreamHead, StreamLimits } from '../../../../src/cli/local/api-kind/streamed-response';

const PRELUDE_TYPE = 'application/vnd.awslambda.http-integration-response';

/** A stream piped to a recorder: the head, the bytes written, and how it ended. */
function recorded(limits: StreamLimits) {
  const cuts: string[] = [];
  const stream = new StreamedResponse(limits, (why) => cuts.push(why));
  const sent: Buffer[] = [];
  let ended: 'end' | 'abort' | undefined;
  const pipe = () => stream.pipe({ write: (c) => sent.push(c), end: () => { ended = 'end'; }, abort: () => { ended = 'abort'; } });
  return { stream, cuts, pipe, body: () => Buffer.concat(sent).toString(), ended: () => ended };
}

test('a prelude split across chunks gives status, headers, multiValueHeaders and cookies; the rest is the body', async () => {
  const r = recorded({ maxBytes: 1000 });
  r.stream.start(PRELUDE_TYPE);
  r.stream.write(Buffer.from('{"statusCode":418,"headers":{"a":"1"},'));
  r.stream.write(Buffer.from('"multiValueHeaders":{"b":["2","3"]},"cookies":["c=4"]}\0\0\0\0'));
  r.stream.write(Buffer.from('\0\0\0\0body'));
  const head = await r.stream.head;
  expect(head).toEqual({ kind: 'head', statusCode: 418, headers: [['a', '1'], ['b', '2'], ['b', '3'], ['Set-Cookie', 'c=4']] } satisfies StreamHead);
  r.pipe();
  r.stream.finish({ kind: 'ok', payload: undefined });
  expect(r.body()).toBe('body');
  expect(r.ended()).toBe('end');
});

test.each([
  [10, 'abcdefghij', 'end'],
  [10, 'abcdefghijk', 'abort'],
])('the byte limit %i: %s ends with %s', async (maxBytes, text, how) => {
  const r = recorded({ maxBytes });
  r.stream.start('text/plain');
  r.pipe();
  r.stream.write(Buffer.from(text));
  r.stream.finish({ kind: 'ok', payload: undefined });
  expect(r.ended()).toBe(how);
  expect(r.cuts).toEqual(how === 'abort' ? [`the response passed ${maxBytes} bytes, the streamed response limit`] : []);
});

test('a REST stream without a prelude, or with one past 16 KB, is a bad prelude', async () => {
  const plain = recorded({ maxBytes: 1e6, requirePrelude: true });
  plain.stream.start('text/plain');
  expect(await plain.stream.head).toEqual({ kind: 'bad-prelude', reason: `the stream's content type is text/plain, not ${PRELUDE_TYPE} (no metadata prelude)` });
  const long = recorded({ maxBytes: 1e6, requirePrelude: true, maxPreludeBytes: 16 * 1024 });
  long.stream.start(PRELUDE_TYPE);
  long.stream.write(Buffer.from(`{"statusCode":200,"headers":{"x":"${'y'.repeat(16 * 1024)}"}}`));
  expect(await long.stream.head).toEqual({ kind: 'bad-prelude', reason: 'the metadata prelude and its 8 NUL bytes did not come within the first 16384 bytes' });
});

test('the idle timeout and the duration limit cut a stream once the client has its head', async () => {
  const idle = recorded({ maxBytes: 1e6, idleMs: 50 });
  idle.stream.start('text/plain');
  idle.pipe();
  idle.stream.write(Buffer.from('a'));
  await new Promise((r) => setTimeout(r, 150));
  expect(idle.ended()).toBe('abort');
  expect(idle.cuts).toEqual(['no byte came for 0.05 s, the streaming idle timeout']);

  const long = recorded({ maxBytes: 1e6, maxDurationMs: 80, idleMs: 1000 });
  long.stream.start('text/plain');
  long.pipe();
  for (let i = 0; i < 6; i++) {
    long.stream.write(Buffer.from('b'));
    await new Promise((r) => setTimeout(r, 30));
  }
  expect(long.ended()).toBe('abort');
  expect(long.cuts).toEqual(['the stream ran past 0.08 s, the streaming duration limit']);
});

test('past the free bytes, the bandwidth cap paces what follows (in order) and the end waits for it', async () => {
  const r = recorded({ maxBytes: 1e6, bandwidth: { freeBytes: 10, bytesPerSecond: 100 } });
  const arrivals: number[] = [];
  const started = performance.now();
  r.stream.start('text/plain');
  r.stream.pipe({ write: () => arrivals.push(performance.now() - started), end: () => arrivals.push(-1), abort: () => undefined });
  r.stream.write(Buffer.alloc(10, 'a'));
  r.stream.write(Buffer.alloc(10, 'b'));
  r.stream.write(Buffer.alloc(10, 'c'));
  r.stream.finish({ kind: 'ok', payload: undefined });
  // The first 10 bytes at once; the next 10 at 100 B/s after them (100 ms), the last 10 at 200 ms.
  expect(arrivals).toHaveLength(1);
  await new Promise((resolve) => setTimeout(resolve, 350));
  expect(arrivals).toHaveLength(4);
  expect(arrivals[0]).toBeLessThan(50);
  expect(arrivals[1]).toBeGreaterThanOrEqual(95);
  expect(arrivals[2]).toBeGreaterThanOrEqual(195);
  expect(arrivals[3]).toBe(-1);
});

test('an invocation that ends before any stream gives its outcome as the head', async () => {
  const r = recorded({ maxBytes: 10 });
  r.stream.finish({ kind: 'timeout', seconds: 3 });
  expect(await r.stream.head).toEqual({ kind: 'ended', outcome: { kind: 'timeout', seconds: 3 } });
});
