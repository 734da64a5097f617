/**
 * The modules a function's code needs: the scan for AWS SDK imports, and where a package resolves
 * from.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { resolves, sdkImportsIn } from '../../../../../src/cli/local/lambda/node/runtime-modules';

let dir: string;

beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vo-env-unit-')); });

afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

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
