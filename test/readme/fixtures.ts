/**
 * What a README block marked `stack` or `frontend` runs inside (see blocks.ts), written into the
 * temporary project of the README-blocks test.
 */

/**
 * Names a `stack` fragment may use without declaring them, each declared only when the block
 * uses it (with what it needs first). `this` is the stack.
 */
const STACK_NAMES: Array<[name: string, code: string, needs: string[]]> = [
  ['stack', 'const stack = this;', []],
  ['userPool', "const userPool = new cognito.UserPool(this, 'UserPool');", []],
  ['userPoolClient', "const userPoolClient = userPool.addClient('Client', { oAuth: { callbackUrls: ['https://app.example.com/'], logoutUrls: ['https://app.example.com/'] } });", ['userPool']],
  ['domain', "const domain = userPool.addDomain('Domain', { cognitoDomain: { domainPrefix: 'readme-example' } });", ['userPool']],
  ['identityPool', "const identityPool = new identitypool.IdentityPool(this, 'IdentityPool', { allowUnauthenticatedIdentities: true });", []],
  ['graphqlApi', "const graphqlApi = new appsync.GraphqlApi(this, 'Api', { name: 'readme', definition: appsync.Definition.fromSchema(appsync.SchemaFile.fromAsset(path.join(__dirname, '..', 'schema.graphql'))) });", []],
  ['modelIntrospection', 'const modelIntrospection = ModelIntrospection.fromDocument({ version: 1, models: {}, enums: {}, nonModels: {} });', []],
  ['bucket', "const bucket = new s3.Bucket(this, 'Bucket');", []],
  ['someOtherRole', "const someOtherRole = new iam.Role(this, 'OtherRole', { assumedBy: new iam.AccountRootPrincipal() });", []],
  ['sesIdentityArn', "const sesIdentityArn = 'arn:aws:ses:eu-west-1:123456789012:identity/example.com';", []],
];

const STACK_IMPORTS = [
  "import * as path from 'path';",
  "import { App, Stack, SecretValue, Duration } from 'aws-cdk-lib';",
  "import * as appsync from 'aws-cdk-lib/aws-appsync';",
  "import * as cognito from 'aws-cdk-lib/aws-cognito';",
  "import * as identitypool from 'aws-cdk-lib/aws-cognito-identitypool';",
  "import * as iam from 'aws-cdk-lib/aws-iam';",
  "import * as lambda from 'aws-cdk-lib/aws-lambda';",
  "import * as s3 from 'aws-cdk-lib/aws-s3';",
  "import { Construct } from 'constructs';",
];

/** `import ...;` statements at the top of a block (they may span lines), and the rest. */
function splitImports(code: string): { imports: string; body: string } {
  const match = /^(?:\s*import[\s\S]*?from\s+['"][^'"]+['"];?\s*\n)*/.exec(code + '\n');
  const imports = match ? match[0] : '';
  return { imports: imports.trim(), body: code.slice(imports.length) };
}

/** Names a block imports itself (`{ a, b as c }` and `* as ns`). */
function importedNames(imports: string): Set<string> {
  const names = new Set<string>();
  for (const [, namespace] of imports.matchAll(/import\s*\*\s*as\s+(\w+)/g)) {
    names.add(namespace);
  }
  for (const [, list] of imports.matchAll(/import\s*\{([^}]*)\}/g)) {
    for (const part of list.split(',')) {
      const name = part.trim().split(/\s+as\s+/).pop();
      if (name) {
        names.add(name);
      }
    }
  }
  return names;
}

/**
 * A whole program around a `stack` fragment: the library's exports the block does not import
 * itself, the names it uses, a stack, and the block as the stack's constructor body.
 */
export function stackProgram(code: string, libraryExports: string[]): string {
  const { imports, body } = splitImports(code);
  const own = importedNames(imports);
  const library = libraryExports.filter((name) => !own.has(name));
  const declared = new Set<string>();
  const declarations: string[] = [];
  const declare = (name: string) => {
    const entry = STACK_NAMES.find(([n]) => n === name);
    if (!entry || declared.has(name)) {
      return;
    }
    entry[2].forEach(declare);
    declared.add(name);
    declarations.push(entry[1]);
  };
  for (const [name] of STACK_NAMES) {
    if (new RegExp(`\\b${name}\\b`).test(body)) {
      declare(name);
    }
  }
  return [
    // The usual imports, but those the block makes itself.
    ...STACK_IMPORTS.filter((line) => !own.has(/\*\s*as\s+(\w+)/.exec(line)?.[1] ?? '')),
    imports,
    `import { ${library.join(', ')} } from 'cdk-vendor-outputs';`,
    '',
    'class ReadmeStack extends Stack {',
    '  constructor(scope: Construct, id: string) {',
    "    super(scope, id, { env: { account: '123456789012', region: 'eu-west-1' } });",
    ...declarations.map((d) => `    ${d}`),
    '    // ---- README block',
    body,
    '    // ----',
    '  }',
    '}',
    '',
    'void [SecretValue, Duration, lambda, iam, s3];',
    'const app = new App();',
    "new ReadmeStack(app, 'Readme');",
    'app.synth();',
    '',
  ].join('\n');
}

/** The sample vendor_outputs.json next to a frontend block. */
export const FRONTEND_OUTPUTS = {
  version: '1',
  custom: {
    api_id: 'a1b2c3',
    api_endpoint: 'https://a1b2c3.execute-api.eu-west-1.amazonaws.com/dev/',
    api_name: 'items',
    api_stage: 'dev',
    vendor_region: 'eu-west-1',
  },
};

/**
 * `vendor-client`, the README's placeholder for a vendor's client library: `configure` prints the
 * configuration it receives, so the test can check what the block passed.
 */
export const VENDOR_CLIENT: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'vendor-client', version: '0.0.0', exports: { '.': './index.js', './utils': './utils.js' } }),
  'index.js': "exports.Vendor = { configure(config) { console.log('CONFIGURED ' + JSON.stringify(config)); } };\n",
  'index.d.ts': 'export declare const Vendor: { configure(config: object): void };\n',
  'utils.js': 'exports.parseVendorConfig = (outputs) => ({ API: { GraphQL: { endpoint: "https://graphql.example.com/" } }, parsedVersion: outputs.version });\n',
  'utils.d.ts': 'export declare function parseVendorConfig(outputs: object): { API?: Record<string, unknown>; [key: string]: unknown };\n',
};

/** `cdk-vendor-outputs-client` as the frontend installs it, here the built library's client entry. */
export const CLIENT_PACKAGE: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'cdk-vendor-outputs-client', version: '0.0.0', main: './index.js', types: './index.d.ts' }),
  'index.js': "module.exports = require('cdk-vendor-outputs/client');\n",
  'index.d.ts': "export * from 'cdk-vendor-outputs/client';\n",
};
