/** The framing between the server and a Python environment, against bootstrap.py's own reader and writer. */
import { spawn } from 'child_process';
import { Readable, Writable } from 'stream';
import { BOOTSTRAP_FILE } from '../../../../../src/cli/local/lambda/python/bootstrap-file';
import { encodeFrame, FrameReader } from '../../../../../src/cli/local/lambda/python/frames';

describe('frames', () => {
  test('a frame is a 4-byte big-endian length, then the UTF-8 JSON', () => {
    const frame = encodeFrame(['invoke', 'r1', { name: 'é' }]);
    const body = '["invoke","r1",{"name":"é"}]';
    expect(frame.readUInt32BE(0)).toBe(Buffer.byteLength(body));
    expect(frame.subarray(4).toString('utf8')).toBe(body);
  });

  test('messages split across chunks and several in one chunk come out whole and in order', () => {
    const got: unknown[] = [];
    const reader = new FrameReader((m) => got.push(m));
    const bytes = Buffer.concat([encodeFrame(['ready']), encodeFrame(['log', 'r1', 'INFO', 'x'.repeat(70_000)]), encodeFrame(['out-of-memory'])]);
    for (let i = 0; i < bytes.length; i += 1000) {
      reader.push(bytes.subarray(i, i + 1000));
    }
    expect(got).toEqual([['ready'], ['log', 'r1', 'INFO', 'x'.repeat(70_000)], ['out-of-memory']]);
  });

  test('bootstrap.py reads what the server writes and writes what the server reads', async () => {
    // bootstrap.py's own Channel over fds 3 and 4: it echoes one frame back.
    const script = [
      'import runpy',
      `ns = runpy.run_path(${JSON.stringify(BOOTSTRAP_FILE)})`,
      'ns["CHANNEL"].send(["echo", ns["CHANNEL"].receive()])',
    ].join('\n');
    const child = spawn('python3', ['-B', '-c', script], { stdio: ['ignore', 'inherit', 'inherit', 'pipe', 'pipe'] });
    const got: unknown[] = [];
    const reader = new FrameReader((m) => got.push(m));
    (child.stdio[4] as Readable).on('data', (chunk: Buffer) => reader.push(chunk));
    (child.stdio[3] as Writable).end(encodeFrame(['invoke', 'r1', { text: 'ünïcode', n: 1.5 }]));
    await new Promise((resolve) => child.on('close', resolve));
    expect(got).toEqual([['echo', ['invoke', 'r1', { text: 'ünïcode', n: 1.5 }]]]);
  });
});
