/**
 * A temporary CDK project for the sandbox tests: cdk.json with `node app.js`, an app.js that builds
 * a RestItemsApi (from this repository's compiled lib/, see test/support/compiled.ts) with its own
 * asset function in handler/, and node_modules linked to this repository's. Real synthesis, no CDK CLI.
 */
import { ChildProcess, spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ROOT } from '../../support/cli';
import { compiledCli, libFile } from '../../support/compiled';

/**
 * Set in the sandbox's environment (which its synths inherit), the app waits this many
 * milliseconds before it builds the stack: a test that saves files while a synth runs gets a synth
 * that surely lasts that long.
 */
export const SYNTH_DELAY_VARIABLE = 'VO_TEST_SYNTH_DELAY_MS';

export interface AppShape {
  /** Answer of the handler: `{ version, limit }`. */
  readonly version?: number;
  /** Adds `/health` (GET, MOCK) to the API. */
  readonly health?: boolean;
  /** The app throws before synthesis. */
  readonly broken?: boolean;
  /** Adds a bucket whose name is known only after deploy (storage section). */
  readonly bucket?: boolean;
  /** RestItemsApi's apiName. @default itemsApi */
  readonly apiName?: string;
  /** Adds a RestApi (`orders`, GET / a MOCK) and an HttpApi (`chat`) through addRestApi / addHttpApi. */
  readonly apiEntries?: boolean;
}

export interface TempProject {
  readonly dir: string;
  writeApp(shape: AppShape): void;
  writeHandler(version: number): void;
  remove(): void;
}

export function createProject(shape: AppShape = {}): TempProject {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'vo-sandbox-')));
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  fs.mkdirSync(path.join(dir, 'handler'));
  fs.writeFileSync(path.join(dir, 'cdk.json'), `${JSON.stringify({ app: 'node app.js', watch: { include: ['**'], exclude: ['README.md'] } }, null, 2)}\n`);
  const project: TempProject = {
    dir,
    writeApp: (s) => fs.writeFileSync(path.join(dir, 'app.js'), appSource(s)),
    writeHandler: (version) => fs.writeFileSync(path.join(dir, 'handler', 'index.js'), handlerSource(version)),
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
  project.writeHandler(shape.version ?? 1);
  project.writeApp(shape);
  return project;
}

function handlerSource(version: number): string {
  return [
    'exports.handler = async (event) => ({',
    '  statusCode: 200,',
    "  headers: { 'Content-Type': 'application/json', 'Access-Control-Allow-Origin': '*' },",
    `  body: JSON.stringify({ version: ${version}, limit: (event.queryStringParameters || {}).limit || null }),`,
    '});',
    '',
  ].join('\n');
}

/** A RestApi and an HttpApi written as API entries of custom. */
const API_ENTRIES = [
  "const apigwv2 = require('aws-cdk-lib/aws-apigatewayv2');",
  "const { HttpUrlIntegration } = require('aws-cdk-lib/aws-apigatewayv2-integrations');",
  "const orders = new apigw.RestApi(stack, 'Orders', { cloudWatchRole: false, deployOptions: { stageName: 'prod' } });",
  "orders.root.addMethod('GET', new apigw.MockIntegration({ requestTemplates: { 'application/json': '{\"statusCode\": 200}' }, integrationResponses: [{ statusCode: '200', responseTemplates: { 'application/json': '{\"orders\": []}' } }] }), { methodResponses: [{ statusCode: '200' }] });",
  "lib.VendorOutputs.of(stack).addRestApi(orders, { apiName: 'orders' });",
  "const chat = new apigwv2.HttpApi(stack, 'Chat', { apiName: 'chat' });",
  "chat.addRoutes({ path: '/messages', integration: new HttpUrlIntegration('Messages', 'https://example.com/messages') });",
  'lib.VendorOutputs.of(stack).addHttpApi(chat);',
];

function appSource(shape: AppShape): string {
  return [
    `const delay = Number(process.env.${SYNTH_DELAY_VARIABLE} || 0);`,
    'if (delay > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, delay);',
    "const path = require('path');",
    "const { App, Stack } = require('aws-cdk-lib');",
    "const apigw = require('aws-cdk-lib/aws-apigateway');",
    "const lambda = require('aws-cdk-lib/aws-lambda');",
    "const s3 = require('aws-cdk-lib/aws-s3');",
    `const lib = require(${JSON.stringify(libFile('index.js'))});`,
    shape.broken ? "throw new Error('the app is broken on purpose');" : '',
    'const app = new App({ builtinCloudFormationValidation: false });',
    "const stack = new Stack(app, 'SandboxTest');",
    "const handler = new lambda.Function(stack, 'Items', { runtime: lambda.Runtime.NODEJS_20_X, handler: 'index.handler', code: lambda.Code.fromAsset(path.join(__dirname, 'handler')) });",
    `const items = new lib.RestItemsApi(stack, 'ItemsApi', { apiName: ${JSON.stringify(shape.apiName ?? 'itemsApi')}, stageName: 'dev', handler });`,
    shape.health
      ? "items.api.root.addResource('health').addMethod('GET', new apigw.MockIntegration({ requestTemplates: { 'application/json': '{\"statusCode\": 200}' }, integrationResponses: [{ statusCode: '200', responseTemplates: { 'application/json': '{\"ok\": true}' } }] }), { methodResponses: [{ statusCode: '200' }] });"
      : '',
    shape.bucket ? "new lib.StorageOutputsProducer(stack, 'Storage', { bucket: new s3.Bucket(stack, 'Files') });" : '',
    ...(shape.apiEntries ? API_ENTRIES : []),
    '',
  ].join('\n');
}

/** A `vendor-outputs` process (the compiled CLI) run in `cwd`. */
export interface SandboxProcess {
  readonly child: ChildProcess;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stdout(): string;
  stderr(): string;
  /** Resolves when stdout (or stderr) has `text` after `from` characters; rejects after `ms`. */
  waitFor(text: string | RegExp, options?: { stream?: 'stdout' | 'stderr'; from?: number; ms?: number }): Promise<string>;
}

export function startSandbox(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): SandboxProcess {
  const child = spawn(process.execPath, [compiledCli(), 'sandbox', ...args], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const text = { stdout: '', stderr: '' };
  const waiters = new Set<() => void>();
  child.stdout!.on('data', (d) => { text.stdout += d; waiters.forEach((w) => w()); });
  child.stderr!.on('data', (d) => { text.stderr += d; waiters.forEach((w) => w()); });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  return {
    child,
    exited,
    stdout: () => text.stdout,
    stderr: () => text.stderr,
    waitFor(wanted, { stream = 'stdout', from = 0, ms = 60_000 } = {}) {
      return new Promise((resolve, reject) => {
        const matches = () => {
          const part = text[stream].slice(from);
          return typeof wanted === 'string' ? part.includes(wanted) : wanted.test(part);
        };
        const done = (error?: Error) => {
          waiters.delete(check);
          clearTimeout(timer);
          if (error) {
            reject(error);
          } else {
            resolve(text[stream]);
          }
        };
        const check = () => { if (matches()) done(); };
        const timer = setTimeout(() => done(new Error(`timed out waiting for ${wanted} on ${stream}; stdout:\n${text.stdout}\nstderr:\n${text.stderr}`)), ms);
        waiters.add(check);
        void exited.then(() => { if (!matches()) done(new Error(`exited before ${wanted}; stdout:\n${text.stdout}\nstderr:\n${text.stderr}`)); });
        check();
      });
    },
  };
}
