/**
 * A temporary TypeScript CDK project shaped as `cdk init app --language typescript` makes it
 * (bin/app.ts, lib/stack.ts, cdk.json running `npx tsx bin/app.ts`, tsconfig.json, a lock file),
 * its node_modules linked to this repository's (aws-cdk-lib, constructs, esbuild, tsx, ts-node, the
 * AWS SDK). The stack has a RestApi and three NodejsFunctions bundled by the local esbuild: `items`
 * imports a local module (lambda/shared/format.ts), `stacks` imports @aws-sdk/client-cloudformation
 * (external, as NodejsFunction leaves the SDK), `health` imports nothing.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ROOT } from '../../support/cli';

export interface TsAppShape {
  /** Adds GET /extra (answered by `health`). */
  readonly extraRoute?: boolean;
}

export interface TsProject {
  readonly dir: string;
  /** Writes a project file (relative path). */
  write(file: string, text: string): void;
  writeStack(shape: TsAppShape): void;
  /** lambda/items.ts answering `{ item: <version>, label }`, with format() from lambda/shared/format.ts or `module`. */
  writeItemsHandler(version: number, module?: string): void;
  writeFormat(prefix: string): void;
  remove(): void;
}

export type TsRunner = 'tsx' | 'ts-node' | 'script';

/** `runner`: how cdk.json runs the app (`script` is a command the warm synth does not know). */
export function createTsProject(runner: TsRunner = 'tsx'): TsProject {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'vo-sandbox-ts-')));
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  };
  const app = { 'tsx': 'npx tsx bin/app.ts', 'ts-node': 'npx ts-node --prefer-ts-exts bin/app.ts', 'script': 'sh -c "npx tsx bin/app.ts"' }[runner];
  write('cdk.json', `${JSON.stringify({ app, watch: { include: ['**'], exclude: ['README.md', 'cdk*.json', '**/*.d.ts', '**/*.js', 'tsconfig.json', 'package*.json', 'yarn.lock', 'node_modules', 'test'] } }, null, 2)}\n`);
  write('package.json', `${JSON.stringify({ name: 'sandbox-ts-app', version: '0.1.0', private: true, bin: { app: 'bin/app.js' } }, null, 2)}\n`);
  write('package-lock.json', `${JSON.stringify({ name: 'sandbox-ts-app', version: '0.1.0', lockfileVersion: 3, requires: true, packages: {} }, null, 2)}\n`);
  write('tsconfig.json', `${JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'commonjs', lib: ['es2022'], strict: true, esModuleInterop: true, skipLibCheck: true, types: ['node'] }, exclude: ['node_modules', 'cdk.out'] }, null, 2)}\n`);
  write('bin/app.ts', [
    "import * as cdk from 'aws-cdk-lib';",
    "import { SandboxTsStack } from '../lib/sandbox-ts-stack';",
    '',
    'const app = new cdk.App();',
    "new SandboxTsStack(app, 'SandboxTsStack');",
    '',
  ].join('\n'));
  write('lambda/stacks.ts', [
    "import { CloudFormationClient } from '@aws-sdk/client-cloudformation';",
    '',
    "const client = new CloudFormationClient({ region: process.env.AWS_REGION ?? 'us-east-1' });",
    '',
    'export const handler = async () => ({',
    '  statusCode: 200,',
    '  body: JSON.stringify({ sdk: typeof client.send, region: await client.config.region() }),',
    '});',
    '',
  ].join('\n'));
  write('lambda/health.ts', 'export const handler = async () => ({ statusCode: 200, body: JSON.stringify({ ok: true }) });\n');
  const project: TsProject = {
    dir,
    write,
    writeStack: (shape) => write('lib/sandbox-ts-stack.ts', stackSource(shape)),
    writeItemsHandler: (version, module = './shared/format') => write('lambda/items.ts', [
      `import { format } from '${module}';`,
      '',
      'export const handler = async () => ({',
      '  statusCode: 200,',
      `  body: JSON.stringify({ item: ${version}, label: format('item') }),`,
      '});',
      '',
    ].join('\n')),
    writeFormat: (prefix) => write('lambda/shared/format.ts', `export const format = (name: string): string => \`${prefix}:\${name}\`;\n`),
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
  project.writeFormat('v1');
  project.writeItemsHandler(1);
  project.writeStack({});
  return project;
}

function stackSource(shape: TsAppShape): string {
  return [
    "import * as path from 'path';",
    "import { Stack, StackProps } from 'aws-cdk-lib';",
    "import * as apigw from 'aws-cdk-lib/aws-apigateway';",
    "import * as lambda from 'aws-cdk-lib/aws-lambda';",
    "import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';",
    "import { Construct } from 'constructs';",
    '',
    'export class SandboxTsStack extends Stack {',
    '  constructor(scope: Construct, id: string, props?: StackProps) {',
    '    super(scope, id, props);',
    '    const fn = (name: string) => new NodejsFunction(this, `${name}Function`, {',
    "      entry: path.join(__dirname, '..', 'lambda', `${name.toLowerCase()}.ts`),",
    '      runtime: lambda.Runtime.NODEJS_20_X,',
    '    });',
    "    const api = new apigw.RestApi(this, 'Api', { cloudWatchRole: false, deployOptions: { stageName: 'dev' } });",
    "    api.root.addResource('items').addMethod('GET', new apigw.LambdaIntegration(fn('Items')));",
    "    api.root.addResource('stacks').addMethod('GET', new apigw.LambdaIntegration(fn('Stacks')));",
    "    const health = fn('Health');",
    "    api.root.addResource('health').addMethod('GET', new apigw.LambdaIntegration(health));",
    shape.extraRoute ? "    api.root.addResource('extra').addMethod('GET', new apigw.LambdaIntegration(health));" : '',
    '  }',
    '}',
    '',
  ].join('\n');
}
