/**
 * The client entry point is for frontends: it must load without aws-cdk-lib, without any
 * Node built-in, and without any other package.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as vm from 'vm';
import * as ts from 'typescript';

const SOURCE = path.join(__dirname, '..', '..', 'src', 'client', 'index.ts');

test('src/client imports nothing', () => {
  const text = fs.readFileSync(SOURCE, 'utf8');
  const file = ts.createSourceFile(SOURCE, text, ts.ScriptTarget.ES2022);
  const imports = file.statements.filter((s) => ts.isImportDeclaration(s) || ts.isImportEqualsDeclaration(s));
  expect(imports).toEqual([]);
  expect(text).not.toMatch(/\brequire\(/);
});

test('the transpiled module runs in a bare VM context (no require, no process, no Buffer)', () => {
  const js = ts.transpileModule(fs.readFileSync(SOURCE, 'utf8'), { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
  const sandbox: any = { exports: {}, module: { exports: {} } };
  sandbox.module.exports = sandbox.exports;
  vm.runInNewContext(js, sandbox);
  const rest = sandbox.exports.toRestConfig({ version: '1', custom: { api_name: 'items', api_endpoint: 'https://x.execute-api.eu-west-1.amazonaws.com/dev/' } });
  expect(JSON.parse(JSON.stringify(rest))).toEqual({ items: { endpoint: 'https://x.execute-api.eu-west-1.amazonaws.com/dev/', region: 'eu-west-1' } });
});
