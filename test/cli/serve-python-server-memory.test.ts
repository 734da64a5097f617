/**
 * A Python function's MemorySize counts its own memory, never the server's: `serve` using more
 * resident memory than the function's MemorySize (a large app, a long session, a test runner)
 * still answers. Linux hands a process's peak resident memory (ru_maxrss) on across fork and exec,
 * so a peak read that way started at the server's size and every invocation looked out of memory.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { startCli, synth } from './local/support';

const MEMORY_MB = 128;
const SERVER_EXTRA_MB = 300;

let tmp: string;
let assembly: string;

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-python-server-memory-'));
  assembly = synth((stack) => {
    const fn = new lambda.Function(stack, 'Small', {
      runtime: lambda.Runtime.PYTHON_3_11,
      handler: 'index.handler',
      memorySize: MEMORY_MB,
      code: lambda.Code.fromInline('def handler(event, context):\n    return {"statusCode": 200, "body": "small " + str(context.memory_limit_in_mb)}\n'),
    });
    new apigw.RestApi(stack, 'Api', { deployOptions: { stageName: 'test' } }).root.addResource('small').addMethod('GET', new apigw.LambdaIntegration(fn));
  }, { stackName: 'ServerMemory' });
});

afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.rmSync(assembly, { recursive: true, force: true });
});

function residentMb(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
}

test(`a server resident past the function's MemorySize (${MEMORY_MB} MB): the function answers, each time`, async () => {
  // The server holds SERVER_EXTRA_MB more than usual, loaded before the CLI starts.
  const ballast = path.join(tmp, 'ballast.js');
  fs.writeFileSync(ballast, `globalThis.ballast = Array.from({ length: ${SERVER_EXTRA_MB} }, () => Buffer.alloc(1 << 20, 1));\n`);
  const server = startCli(['serve', '--app', assembly, '--port', '0'], { NODE_OPTIONS: `--require ${ballast}` });
  try {
    await server.waitFor('Press Ctrl+C to stop.');
    expect(residentMb(server.child.pid!)).toBeGreaterThan(MEMORY_MB + 100);
    const url = /(http:\/\/127\.0\.0\.1:\d+\/test\/)small/.exec(server.stdout())![1];
    for (let i = 0; i < 2; i++) {
      const response = await fetch(`${url}small`);
      expect([response.status, await response.text()]).toEqual([200, `small ${MEMORY_MB}`]);
    }
    expect(server.stdout()).not.toContain('OutOfMemory');
  } finally {
    server.child.kill('SIGTERM');
  }
  expect(await server.exited).toEqual({ code: 0, signal: null });
});
