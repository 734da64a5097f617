/**
 * The runtime-family seam on its own: the registry picks a family by `Runtime`, a runtime no
 * family runs is reported as today (not run locally, 'unsupported' at invocation), and a function
 * pool drives a family only through runtime-family.ts (a fake family here, no process started).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { AccountConcurrency } from '../../../src/cli/local/lambda/concurrency';
import { FunctionPool } from '../../../src/cli/local/lambda/function-pool';
import { Invoker } from '../../../src/cli/local/lambda/invoker';
import { MAX_REQUEST_PAYLOAD_BYTES } from '../../../src/cli/local/lambda/limits';
import { nodeFamily } from '../../../src/cli/local/lambda/node/node-family';
import { roughCharacters, requestTooLarge } from '../../../src/cli/local/lambda/request-size';
import { RUNTIME_FAMILIES, runtimeFamilyFor, unsupportedRuntimeReason } from '../../../src/cli/local/lambda/runtime-families';
import type { FunctionRuntimeInput, RuntimeFamily } from '../../../src/cli/local/lambda/runtime-family';
import type { FunctionSpec } from '../../../src/cli/local/model/function-spec';

function fn(runtime: string, overrides: Partial<FunctionSpec> = {}): FunctionSpec {
  return {
    key: `Stack/Fn${runtime.replace(/\W/g, '')}`,
    logicalId: 'Fn',
    stackName: 'Stack',
    functionName: 'Stack-Fn',
    runtime,
    handler: 'index.handler',
    code: { kind: 'inline', source: 'exports.handler = async () => 1;' },
    environment: {},
    timeoutSeconds: 3,
    memoryMb: 128,
    region: 'us-east-1',
    ...overrides,
  };
}

describe('runtimeFamilyFor', () => {
  test.each(['nodejs18.x', 'nodejs20.x', 'nodejs22.x', 'nodejs24.x'])('%s runs on the Node.js family', (runtime) => {
    expect(runtimeFamilyFor(runtime)).toBe(nodeFamily);
    expect(unsupportedRuntimeReason(runtime)).toBeUndefined();
  });

  test.each(['python3.12', 'java21', 'provided.al2023', 'dotnet8'])('%s: no family, not run locally (as before families)', (runtime) => {
    expect(runtimeFamilyFor(runtime)).toBeUndefined();
    expect(unsupportedRuntimeReason(runtime)).toBe(`runtime ${runtime} is not run locally (only nodejs runtimes are)`);
  });

  test('a function without Runtime (a container image) is not run locally', () => {
    expect(unsupportedRuntimeReason(undefined)).toBe('runtime (container image) is not run locally (only nodejs runtimes are)');
  });

  test('the registry holds the Node.js family; the first family that supports a runtime wins and every family is named', () => {
    expect(RUNTIME_FAMILIES.map((f) => f.name)).toEqual(['Node.js']);
    const other: RuntimeFamily = { ...nodeFamily, name: 'Other', runtimePrefix: 'python', supports: (r) => r.startsWith('python') || r === 'nodejs22.x' };
    expect(runtimeFamilyFor('nodejs22.x', [nodeFamily, other])).toBe(nodeFamily);
    expect(runtimeFamilyFor('python3.12', [nodeFamily, other])).toBe(other);
    expect(unsupportedRuntimeReason('java21', [nodeFamily, other])).toBe('runtime java21 is not run locally (only nodejs, python runtimes are)');
  });
});

describe('a function no family runs', () => {
  test('its invocation answers unsupported with the reason, and nothing starts', async () => {
    // Code the template reader would have marked unsupported; the invoker checks the runtime again.
    const python = fn('python3.12');
    const invoker = new Invoker(new Map([[python.key, python]]), { log: () => undefined });
    try {
      invoker.warmAll();
      expect(await invoker.invoke(python.key, {}, { awsRequestId: 'r1' })).toEqual({
        kind: 'unsupported',
        reason: 'runtime python3.12 is not run locally (only nodejs runtimes are)',
      });
      expect(invoker.environmentCount(python.key)).toBe(0);
    } finally {
      await invoker.close();
    }
  });
});

/** A family whose environments answer each event with the event itself, once told to. */
function fakeFamily() {
  const started: FunctionRuntimeInput[] = [];
  const invocations: Array<{ id: number; event: unknown; requestId: string }> = [];
  const family: RuntimeFamily = {
    name: 'Fake',
    runtimePrefix: 'fake',
    inlineCodeFile: 'main.fake',
    supports: (runtime) => runtime.startsWith('fake'),
    notices: () => ({ warnings: [], notes: new Map() }),
    variables: () => ({ base: { SEARCH_PATH: '/opt/fake' }, reserved: { FAKE_RUNTIME_DIR: '/fake' } }),
    start: (input, given) => {
      started.push(input);
      return {
        startEnvironment: (id) => {
          setImmediate(() => given.ready(id));
          return {
            retirable: true,
            invoke: (event, context) => {
              invocations.push({ id, event, requestId: context.awsRequestId });
              setImmediate(() => given.result(id, context.awsRequestId, JSON.stringify(event), undefined, 1));
            },
            stop: () => undefined,
          };
        },
        close: async () => undefined,
      };
    },
  };
  return { family, started, invocations };
}

describe('FunctionPool drives a family through the seam', () => {
  let scratch: string;
  beforeEach(() => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'runtime-families-test-'));
  });
  afterEach(() => fs.rmSync(scratch, { recursive: true, force: true }));

  test('the finished event reaches the environment as it is; the payload comes back', async () => {
    const fake = fakeFamily();
    const pool = new FunctionPool(fn('fake1'), { log: () => undefined }, () => scratch, new AccountConcurrency(10), fake.family);
    try {
      const event = { resource: '/items', headers: { A: 'b' }, body: null };
      expect(await pool.invoke(event, { awsRequestId: 'req-1' })).toEqual({ kind: 'ok', payload: JSON.stringify(event) });
      expect(fake.invocations).toEqual([{ id: 1, event, requestId: 'req-1' }]);
    } finally {
      await pool.close();
    }
  });

  test('inline code is written under the family\'s file name; the family\'s variables and the Lambda context are given', async () => {
    const fake = fakeFamily();
    const pool = new FunctionPool(fn('fake1'), { log: () => undefined }, () => scratch, new AccountConcurrency(10), fake.family);
    try {
      const [input] = fake.started;
      expect(input.taskRoot).toBe(pool.directory);
      expect(fs.readFileSync(path.join(pool.directory, 'main.fake'), 'utf8')).toBe('exports.handler = async () => 1;');
      expect(input.environment).toMatchObject({ SEARCH_PATH: '/opt/fake', FAKE_RUNTIME_DIR: '/fake', LAMBDA_TASK_ROOT: pool.directory, AWS_LAMBDA_FUNCTION_NAME: 'Stack-Fn' });
      expect(input.context).toMatchObject({ functionName: 'Stack-Fn', invokedFunctionArn: 'arn:aws:lambda:us-east-1:123456789012:function:Stack-Fn', memoryLimitInMB: '128' });
    } finally {
      await pool.close();
    }
  });

  test('environments that end together fail the running invocation as a runtime exit', async () => {
    const fake = fakeFamily();
    const family: RuntimeFamily = {
      ...fake.family,
      start: (input, events) => {
        const running = fake.family.start(input, events);
        return {
          ...running,
          startEnvironment: (id) => {
            const environment = running.startEnvironment(id);
            // This environment's process dies while it runs the invocation.
            return { ...environment, invoke: () => setImmediate(() => events.exited([id], 'exit status 3', false, true)) };
          },
        };
      },
    };
    const logs: string[] = [];
    const pool = new FunctionPool(fn('fake1'), { log: (id, level, text) => logs.push(`${id} ${level} ${text}`) }, () => scratch, new AccountConcurrency(10), family);
    try {
      expect(await pool.invoke({}, { awsRequestId: 'req-2' })).toEqual({ kind: 'crash', errorMessage: 'Runtime exited with error: exit status 3', outOfMemory: false });
      expect(logs).toEqual(['req-2 ERROR Runtime exited with error: exit status 3; the execution environment is replaced']);
      expect(pool.size).toBe(0);
    } finally {
      await pool.close();
    }
  });
});

describe('requestTooLarge', () => {
  test('an event within 6 MB passes without being serialized; one over is refused with 413', () => {
    expect(requestTooLarge({ body: 'x'.repeat(1000), headers: { A: 'b' } })).toBeUndefined();
    const body = 'x'.repeat(MAX_REQUEST_PAYLOAD_BYTES);
    const bytes = Buffer.byteLength(JSON.stringify({ body }));
    expect(requestTooLarge({ body })).toEqual({
      kind: 'rejected',
      statusCode: 413,
      errorType: 'RequestEntityTooLargeException',
      errorMessage: `Request must be smaller than ${MAX_REQUEST_PAYLOAD_BYTES} bytes for the InvokeFunction operation (the event is ${bytes} bytes)`,
    });
  });

  test('an event near the bound is measured exactly: just under the limit passes', () => {
    const body = 'x'.repeat(MAX_REQUEST_PAYLOAD_BYTES - JSON.stringify({ body: '' }).length);
    expect(Buffer.byteLength(JSON.stringify({ body }))).toBe(MAX_REQUEST_PAYLOAD_BYTES);
    expect(requestTooLarge({ body })).toBeUndefined();
  });

  test.each([
    ['escaped characters', { text: '"\\\n\u0001'.repeat(50) }],
    ['non-ASCII text', { text: 'é€😀'.repeat(50) }],
    ['numbers, booleans and nulls', { list: [1.7976931348623157e308, -5e-324, true, false, null, 0], nested: { a: [[], {}] } }],
    ['a proxy event', { headers: { 'User-Agent': 'curl/8' }, multiValueHeaders: { 'User-Agent': ['curl/8'] }, requestContext: { identity: { sourceIp: '127.0.0.1', user: null } }, isBase64Encoded: false }],
  ])('the rough count bounds the JSON bytes (six per character): %s', (_name, event) => {
    expect(Buffer.byteLength(JSON.stringify(event))).toBeLessThanOrEqual(roughCharacters(event) * 6);
  });

  test('a deeply nested event is not counted (it is measured exactly), and a shallow one is', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 100; i++) {
      deep = [deep];
    }
    expect(roughCharacters(deep)).toBe(Infinity);
    expect(requestTooLarge(deep)).toBeUndefined();
    expect(roughCharacters([['leaf']])).toBe(2 + 2 + 4 + 3);
  });
});
