/**
 * The pieces of the function's environment that need no server: the `--env-vars` layering, the
 * scan for AWS SDK imports, and where the app folder and its node_modules are.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { appFolderOf } from '../../../src/cli/local/lambda/app-folder';
import { envVarsFor, readEnvVarsFile, unmatchedKeys } from '../../../src/cli/local/lambda/env-vars';
import { resolves, sdkImportsIn } from '../../../src/cli/local/lambda/node/runtime-modules';
import { nodeMajorOf } from '../../../src/cli/local/lambda/node/startup-notices';
import type { FunctionSpec } from '../../../src/cli/local/model/function-spec';

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

test('SDK imports: require, import from, bare import and dynamic import; other scopes ignored', () => {
  const source = [
    'var a = require("@aws-sdk/client-dynamodb");',
    "import { S3Client } from '@aws-sdk/client-s3';",
    'import "@aws-sdk/lib-dynamodb";',
    'const m = await import("@aws-sdk/client-sqs");',
    'require("@smithy/types"); require("aws-sdk"); require("@aws-sdk/client-s3");',
  ].join('\n');
  expect(sdkImportsIn(source)).toEqual(['@aws-sdk/client-dynamodb', '@aws-sdk/client-s3', '@aws-sdk/client-sqs', '@aws-sdk/lib-dynamodb']);
});

test('the app folder holds cdk.json above the assembly, else it is the current directory', () => {
  const app = path.join(dir, 'app');
  fs.mkdirSync(path.join(app, 'cdk.out'), { recursive: true });
  fs.writeFileSync(path.join(app, 'cdk.json'), '{}');
  expect(appFolderOf(path.join(app, 'cdk.out'), '/elsewhere')).toBe(app);
  expect(appFolderOf(path.join(dir, 'loose'), '/elsewhere')).toBe('/elsewhere');
});

test('a package resolves from the code folder upwards, or from the app node_modules', () => {
  const modules = path.join(dir, 'app', 'node_modules');
  fs.mkdirSync(path.join(modules, '@aws-sdk', 'client-x'), { recursive: true });
  fs.writeFileSync(path.join(modules, '@aws-sdk', 'client-x', 'package.json'), '{}');
  const code = path.join(dir, 'elsewhere', 'asset');
  fs.mkdirSync(code, { recursive: true });
  expect(resolves('@aws-sdk/client-x', code, undefined)).toBe(false);
  expect(resolves('@aws-sdk/client-x', code, modules)).toBe(true);
  expect(resolves('@aws-sdk/client-x', path.join(dir, 'app', 'cdk.out'), undefined)).toBe(true);
});

test('Node.js majors of runtimes', () => {
  expect(nodeMajorOf('nodejs22.x')).toBe(22);
  expect(nodeMajorOf('python3.12')).toBeUndefined();
});
