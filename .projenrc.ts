import { awscdk, javascript } from 'projen';

const project = new awscdk.AwsCdkConstructLibrary({
  author: 'cdk-vendor-outputs maintainers',
  authorAddress: 'maintainers@users.noreply.a-seed-5a6b548f.example',
  name: 'cdk-vendor-outputs',
  description: 'CDK constructs that assemble, validate and write the vendor_outputs.json client configuration file, plus a CLI to regenerate it after deploy and serve the REST API locally.',
  keywords: ['cdk', 'awscdk', 'client-configuration', 'vendor_outputs', 'api-gateway', 'local'],
  repositoryUrl: 'https://github.com/maintainers/cdk-vendor-outputs.git',
  defaultReleaseBranch: 'main',
  packageManager: javascript.NodePackageManager.NPM,
  projenrcTs: true,

  // Floor of supported CDK: AspectPriority exists since 2.172.0, stable identity pools since 2.187.0.
  cdkVersion: '2.189.1',
  constructsVersion: '10.5.1',
  jsiiVersion: '~6.0.0',
  minNodeVersion: '20.0.0',

  // jsii needs every non-jsii runtime dependency bundled into the package.
  bundledDeps: [
    'ajv@^8.17.1',
    '@aws-sdk/client-cloudformation@^3.1169.0',
    // The local API checks SigV4 with the same signer the AWS SDK clients sign with.
    '@smithy/signature-v4@^5.7.5',
    '@smithy/hash-node@^4.2.0',
  ],
  devDeps: [
    'cdk-nag@^2.36.23',
    'autocannon@^8.0.0',
    '@types/autocannon',
    'playwright-core@^1.56.0',
    'esbuild@^0.28.0',
  ],

  bin: { 'vendor-outputs': 'lib/cli/main.js' },

  lambdaOptions: {
    runtime: awscdk.LambdaRuntime.NODEJS_20_X,
  },

  jestOptions: {
    updateSnapshot: javascript.UpdateSnapshot.NEVER,
    jestConfig: {
      testTimeout: 60_000,
      testPathIgnorePatterns: ['/node_modules/', '/test/fixtures/'],
    },
  },

  gitignore: [
    'vendor_outputs.json',
    'cdk.out/',
    '/examples/**/cdk.out/',
    '.tmp/',
  ],
  npmignoreEnabled: true,

  github: false,
  release: false,
  depsUpgrade: false,
  pullRequestTemplate: false,
});

// npm 11 writes a lockfile that `npm ci` then rejects without this pin (see shared/TOOLCHAIN.md).
project.package.addField('overrides', { 'unrs-resolver': '1.12.2' });

// The schema ships as a plain JSON file next to lib/.
project.npmignore?.addPatterns('!/schema/', '!/assets/');
project.addPackageIgnore('/examples/');
project.addPackageIgnore('/bench/');
project.addPackageIgnore('/scripts/');
project.addPackageIgnore('/docs/');
project.addPackageIgnore('/.ci/');
project.addPackageIgnore('/.tmp/');

project.tasks.tryFind('compile')?.env('JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION', '20');
for (const name of ['compile', 'docgen', 'package:js', 'package']) {
  project.tasks.tryFind(name)?.env('JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION', '20');
}

// Environment for anything that synthesizes: never probe EC2 metadata, never phone home.
const cdkEnv = {
  AWS_REGION: 'us-east-1',
  AWS_DEFAULT_REGION: 'us-east-1',
  AWS_EC2_METADATA_DISABLED: 'true',
  CDK_DISABLE_CLI_TELEMETRY: 'true',
};
for (const [k, v] of Object.entries(cdkEnv)) {
  project.testTask.env(k, v);
}

// Browser tests need Debian's chromium; install it when missing (CI and fresh machines run as root).
const ensureBrowser = project.addTask('ensure-browser', {
  description: 'Install Debian chromium for the browser tests when it is missing',
  exec: 'bash scripts/ensure-chromium.sh',
});
project.testTask.prependSpawn(ensureBrowser);

// The schema validator is generated ahead of time (see scripts/generate-validator.js) and
// copied next to the compiled code, which jsii does not do for .js files.
project.addTask('gen:validator', {
  description: 'Regenerate src/outputs/schema-validator.generated.js from the schema',
  exec: 'node scripts/generate-validator.js',
});
project.compileTask.exec('cp src/outputs/schema-validator.generated.js lib/outputs/');

const demo = project.addTask('demo', {
  description: 'Synthesize the example backend, write its vendor_outputs.json and serve its REST API on 127.0.0.1:3000',
  env: cdkEnv,
});
demo.spawn(project.preCompileTask);
demo.spawn(project.compileTask);
demo.exec('node scripts/synth-example.js');
demo.exec('node lib/cli/main.js serve --app examples/backend/cdk.out --port 3000 --write-outputs examples/backend');

const bench = project.addTask('bench', {
  description: 'Benchmarks: prints ratios against baselines measured in the same run',
  env: cdkEnv,
});
bench.spawn(project.preCompileTask);
bench.spawn(project.compileTask);
bench.exec('node bench/run.js');

project.synth();
