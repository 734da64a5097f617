/**
 * The `--env-vars` file: Parameters for all functions, then the objects named after one function.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { envVarsFor, readEnvVarsFile, unmatchedKeys } from '../../../../src/cli/local/lambda/env-vars';
import type { FunctionSpec } from '../../../../src/cli/local/model/function-spec';

let dir: string;

beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-env-unit-')); });

afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function fn(logicalId: string, constructPath?: string): FunctionSpec {
  return {
    key: `S/${logicalId}`,
    logicalId,
    stackName: 'Stack',
    constructPath,
    functionName: logicalId,
    runtime: 'nodejs20.x',
    handler: 'index.handler',
    code: { kind: 'inline', source: '' },
    environment: {},
    timeoutSeconds: 3,
    memoryMb: 128,
    region: 'us-east-1',
  };
}

test('Parameters for all; the logical id, stack/logical id and construct path objects for one, in that order', () => {
  const file = path.join(dir, 'env.json');
  // Raw JSON text: a `__proto__` key in an object literal would set the prototype, not a key.
  fs.writeFileSync(file, '{"Parameters": {"A": "p", "B": "p", "C": "p", "__proto__": "own"},'
    + ' "HandlerABC": {"B": "id", "C": "id"}, "Backend/Api/Handler": {"C": "path"}}');
  const envVars = readEnvVarsFile(file);
  const vars = envVarsFor(envVars, fn('HandlerABC', 'Backend/Api/Handler'));
  expect(Object.entries(vars)).toEqual([['A', 'p'], ['B', 'id'], ['C', 'path'], ['__proto__', 'own']]);
  expect(Object.prototype.hasOwnProperty.call(vars, '__proto__')).toBe(true);
  expect(Object.entries(envVarsFor(envVars, fn('Other')))).toEqual([['A', 'p'], ['B', 'p'], ['C', 'p'], ['__proto__', 'own']]);
  expect(unmatchedKeys(envVars, [fn('HandlerABC')])).toEqual([
    `--env-vars ${file}: /Backend~1Api~1Handler names no function of the app (use a logical id or a construct path such as Stack/Api/Handler); ignored`,
  ]);
});
