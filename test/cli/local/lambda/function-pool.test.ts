/**
 * A function pool drives a family only through runtime-family.ts (a fake family here, no process
 * started).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { fn } from './function-spec';
import { AccountConcurrency } from '../../../../src/cli/local/lambda/concurrency';
import { FunctionPool } from '../../../../src/cli/local/lambda/function-pool';
import type { FunctionRuntimeInput, RuntimeFamily } from '../../../../src/cli/local/lambda/runtime-family';

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
