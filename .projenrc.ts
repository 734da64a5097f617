import { awscdk, javascript, JsonPatch, ReleasableCommits, release } from 'projen';
import { CDK_PACKAGES, layerZones } from './projenrc/layer-rules';
import { clientReleaseJob, releaseAssetsJob } from './projenrc/release-jobs';

// The workflows' Node: the major the build is measured on (not 20.0.0, minNodeVersion's default).
const WORKFLOW_NODE = '20.x';

const project = new awscdk.AwsCdkConstructLibrary({
  author: 'cdk-vendor-outputs maintainers',
  authorAddress: 'maintainers@users.noreply.a-seed-5a6b548f.example',
  name: 'cdk-vendor-outputs',
  description: 'CDK constructs that assemble, validate and write the vendor_outputs.json client configuration file, plus a CLI to regenerate it after deploy and serve the REST API locally.',
  keywords: ['cdk', 'awscdk', 'aws-cdk', 'cdk-construct', 'client-configuration', 'vendor_outputs', 'api-gateway', 'local'],
  repositoryUrl: 'https://github.com/maintainers/cdk-vendor-outputs.git',
  homepage: 'https://github.com/maintainers/cdk-vendor-outputs#readme',
  bugsUrl: 'https://github.com/maintainers/cdk-vendor-outputs/issues',
  license: 'Apache-2.0',
  defaultReleaseBranch: 'main',
  packageManager: javascript.NodePackageManager.NPM,
  projenrcTs: true,

  // Floor of supported CDK: AspectPriority exists since 2.172.0, stable identity pools since 2.187.0.
  cdkVersion: '2.189.1',
  constructsVersion: '10.5.1',
  jsiiVersion: '~6.0.0',
  minNodeVersion: '20.0.0',
  workflowNodeVersion: WORKFLOW_NODE,

  // No runtime dependencies: what lib/ needs at run time is bundled into it at compile time
  // (see below), so the package ships only code that runs.
  devDeps: [
    // Compiled into src/outputs/cdk-free/schema-validator.generated.js with its runtime helpers inlined.
    'ajv@^8.17.1',
    // The CLI's AWS SDK, bundled into lib/vendor/ by scripts/vendor-dependencies.js.
    '@aws-sdk/client-cloudformation@^3.1169.0',
    // The local API checks SigV4 with the same signer the AWS SDK clients sign with.
    '@smithy/signature-v4@^5.7.5',
    '@smithy/hash-node@^4.2.0',
    // The local API, bundled into lib/vendor/ like the SDK: Cognito tokens (jose 5 still ships
    // CommonJS, which ts-jest loads), request models (JSON Schema draft 4), mapping templates
    // (Velocity) and their `$input.path` (JSONPath).
    'jose@^5.9.6',
    'ajv-draft-04@^1.0.0',
    'velocityjs@^2.1.7',
    'jsonpath-plus@^10.3.0',
    // Regular expressions the user wrote, matched against text a client or a function controls
    // (selection patterns, identity validation expressions, template string methods): RE2's
    // linear-time engine, so no pattern can stall the server (a backtracking RegExp can).
    're2js@^2.10.0',
    // WebSocket APIs, served locally (bundled into lib/vendor/ like the SDK); the tests' clients too.
    'ws@^8.18.0',
    '@types/ws@^8.5.12',
    // Functions in the tests post back to WebSocket connections through the management API.
    '@aws-sdk/client-apigatewaymanagementapi@^3.1169.0',
    // The sandbox's tests run generated TypeScript CDK apps the way `cdk init` sets them up.
    'tsx@^4.19.0',
    'cdk-nag@^2.36.23',
    // The local API benchmark (bench/local-api.bench.js, plain JavaScript: no @types package).
    'autocannon@^8.0.0',
    'playwright-core@^1.56.0',
    'esbuild@^0.28.0',
    // Optional for users (loaded only by ModelIntrospection.fromSchema, never by the CLI): the
    // Amplify toolchain's model introspection generator, and the GraphQL API construct that CDK
    // users build Amplify-style APIs with. 1.20 is the newest line whose peer range includes the
    // aws-cdk-lib floor this repository builds against; 1.20.1 is its newest release whose bundled
    // @aws-amplify/plugin-types (1.8.1) has no dependencies: from 1.20.2 it bundles plugin-types
    // 1.10.1, which pulls the whole @aws-cdk/toolkit-lib 0.3.2 tree (about 100 packages, for types
    // only) with a peer conflict of its own (cx-api wants cloud-assembly-schema >= 54, toolkit-lib
    // pins ^43), so `npm ls` fails and `npm ci` warns.
    '@aws-amplify/graphql-generator@^0.5.4',
    '@aws-amplify/graphql-api-construct@1.20.1',
    // test/projenrc/release.test.ts reads the workflows projen writes (projen's own YAML parser).
    'yaml@^2.9.1',
  ],

  bin: { 'vendor-outputs': 'lib/cli/main.js' },

  // No source maps in lib/: a stack trace through the library points at the lib/*.js files the
  // package ships, not at src/*.ts files it does not. Tests run from src/ with their own maps.
  tsconfig: { compilerOptions: { inlineSourceMap: false, inlineSources: false } },
  tsconfigDev: { compilerOptions: { inlineSourceMap: true, inlineSources: true } },

  // The default function's handler is bundled below; the construct that runs it is written by hand
  // (src/constructs/rest-items-api-bundled-function.ts) so that its runtime is a prop.
  lambdaAutoDiscover: false,

  jestOptions: {
    updateSnapshot: javascript.UpdateSnapshot.NEVER,
    jestConfig: {
      testTimeout: 60_000,
      testPathIgnorePatterns: ['/node_modules/', '/test/fixtures/'],
      // Jest's default is one worker per core but one, which is a single in-band process on the
      // 2-core CI machine; most test time waits on child processes (the CLI, servers, curl), so two
      // workers overlap it.
      maxWorkers: 2,
      // Coverage slows in-process tests by about 60 % (V8's precise coverage also runs under
      // aws-cdk-lib's synthesis) and gates nothing (no threshold): the build skips it, and
      // `npx projen test:coverage` writes the same reports to coverage/.
      collectCoverage: false,
    },
  },

  gitignore: [
    'vendor_outputs.json',
    'cdk.out/',
    '/examples/**/cdk.out/',
    '.tmp/',
    // Screenshots and other files tests leave for a person to look at.
    '/test-artifacts/',
    // A node_modules symlink (a worktree sharing another checkout's install) is a file, which
    // projen's `node_modules/` does not match.
    '/node_modules',
  ],
  npmignoreEnabled: true,

  // Released as cdklabs' construct libraries are (README, Development): `npx projen release` bumps
  // the version from the conventional commits since the last tag (CHANGELOG.md, tag v<version>),
  // builds and packs; .github/workflows/release.yml runs it on every push to main and publishes.
  github: true,
  release: true,
  releaseTrigger: release.ReleaseTrigger.continuous(),
  // A push to main releases only when a commit since the last tag is a feature or a fix.
  releasableCommits: ReleasableCommits.featuresAndFixes(),
  releaseToNpm: true,
  // commit-and-tag-version 13 requires Node 22; 12 runs on the Node 20 this repository supports.
  bumpPackage: 'commit-and-tag-version@^12',
  npmAccess: javascript.NpmAccess.PUBLIC,
  npmProvenance: true,
  // The jsii languages, named as CDK users of each expect. Built and published by their own jobs
  // of the build and release workflows (toolchains from actions/setup-*); not by the local build:
  // see the package task below.
  publishToPypi: { distName: 'cdk-vendor-outputs', module: 'cdk_vendor_outputs' },
  publishToMaven: {
    javaPackage: 'io.github.maintainers.cdkvendoroutputs',
    mavenGroupId: 'io.github.maintainers',
    mavenArtifactId: 'cdk-vendor-outputs',
  },
  publishToNuget: { dotNetNamespace: 'CdkVendorOutputs', packageId: 'CdkVendorOutputs' },
  publishToGo: { moduleName: 'github.com/maintainers/cdk-vendor-outputs-go', packageName: 'cdkvendoroutputs' },
  // The build workflow runs the README's test command (.ci/run) on every pull request.
  buildWorkflowOptions: { mutableBuild: false },
  // Weekly dependency upgrades within the ranges of package.json (npm update): the pins and
  // overrides above stay as written, since they are in package.json, which projen writes.
  depsUpgrade: true,
  depsUpgradeOptions: { workflowOptions: { schedule: javascript.UpgradeDependenciesSchedule.WEEKLY } },
  pullRequestTemplate: false,
  // Merging stays a person's decision: no merge queue bot.
  githubOptions: { mergify: false },
});

// Entry points. Node's ESM loader and TypeScript's node16/nodenext resolution refuse deep
// imports of folders (`cdk-vendor-outputs/lib/client`), so the subpaths are declared; jsii and
// jsii-pacmak read `.jsii` and `package.json`, and the bin is run by path.
const clientEntry = { types: './lib/client/index.d.ts', default: './lib/client/index.js' };
project.package.addField('exports', {
  '.': { types: './lib/index.d.ts', default: './lib/index.js' },
  './client': clientEntry,
  // The path the README showed before the exports map; kept so that existing imports still work.
  './lib/client': clientEntry,
  './schema': './schema/vendor-outputs.schema.json',
  './schema/vendor-outputs.schema.json': './schema/vendor-outputs.schema.json',
  './package.json': './package.json',
  './.jsii': './.jsii',
});
// Published from the release workflow only: provenance needs a CI provider's identity token.
project.package.addField('publishConfig', { access: 'public', provenance: true });
// TypeScript's older `node` resolution (cdk init's tsconfig) ignores `exports`: map the subpath.
project.package.addField('typesVersions', { '*': { client: ['lib/client/index.d.ts'] } });

project.package.addField('overrides', {
  // npm 11 writes a lockfile that `npm ci` then rejects without this pin (see shared/TOOLCHAIN.md).
  'unrs-resolver': '1.12.2',
  // @aws-amplify/graphql-generator declares this loader (^8.0.0) but never loads it; from 8.0.35 it
  // brings @graphql-tools/utils 12 and @whatwg-node/* releases that require Node >= 22.15, and
  // Node 20 is supported. 8.0.34 is the newest whose tree runs on Node 18 and later.
  '@aws-amplify/graphql-generator': { '@graphql-tools/apollo-engine-loader': '8.0.34' },
});

// npm 11 runs no dependency install script unless package.json allows it. Name-only entries: the
// lockfile records no registry URLs, so npm cannot verify a pinned version (it refuses the pin).
project.package.addField('allowScripts', {
  // Checks that the platform's native binary (an optional dependency) is installed, fetches it
  // if npm skipped it, and replaces the JavaScript launcher with the binary.
  'esbuild': true,
  // The same check for eslint-import-resolver-typescript's native resolver binding.
  'unrs-resolver': true,
  // jest's file watcher: the script runs node-gyp only when npm_config_build_from_source is set;
  // the prebuilt binary comes as an optional dependency.
  '@parcel/watcher': false,
  // Prints a funding message (core-js 2 and 3, from @aws-amplify/graphql-types-generator).
  'core-js': false,
});

// The schema ships as a plain JSON file next to lib/.
project.npmignore?.addPatterns('!/schema/', '!/assets/');
project.addPackageIgnore('/examples/');
project.addPackageIgnore('/bench/');
project.addPackageIgnore('/scripts/');
project.addPackageIgnore('/docs/');
project.addPackageIgnore('/.ci/');
project.addPackageIgnore('/.tmp/');
project.addPackageIgnore('/packages/');

// projen silences jsii's reserved-word warning by default; the public API avoids those words, so keep it on.
project.compileTask.reset('jsii');
project.tasks.tryFind('watch')?.reset('jsii -w');

// The default function of RestItemsApi. Target node20: the local API runs it on the host's Node 20.
project.bundler.addBundle('src/constructs/rest-items-api.lambda.ts', {
  platform: 'node',
  target: 'node20',
  externals: ['@aws-sdk/*'],
  tsconfigPath: 'test/tsconfig.json',
});
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

// ts-jest only transpiles (test/tsconfig.json has isolatedModules), so the test files and the
// sources they use are type-checked here once, before jest.
project.testTask.prependExec('tsc --noEmit -p test/tsconfig.json');

const coverage = project.addTask('test:coverage', {
  description: 'Run the tests with coverage (reports in coverage/); the build runs them without',
  env: cdkEnv,
});
coverage.exec('jest --passWithNoTests --ci --coverage', { receiveArgs: true });

// Browser tests need Debian's chromium; install it when missing (CI and fresh machines run as root).
const ensureBrowser = project.addTask('ensure-browser', {
  description: 'Install Debian chromium for the browser tests when it is missing',
  exec: 'bash scripts/ensure-chromium.sh',
});
project.testTask.prependSpawn(ensureBrowser);

// The schema validator is generated ahead of time (see scripts/generate-validator.js) and
// copied next to the compiled code, which jsii does not do for .js files.
project.addTask('gen:validator', {
  description: 'Regenerate src/outputs/cdk-free/schema-validator.generated.js from the schema',
  exec: 'node scripts/generate-validator.js',
});
project.compileTask.exec('cp src/outputs/cdk-free/schema-validator.generated.js lib/outputs/cdk-free/');
// The CLI's AWS SDK and signer go into lib/vendor/ as single files; fails on any other package lib/ requires.
project.compileTask.exec('node scripts/vendor-dependencies.js');
// The modules that import those vendored packages (devDependencies, bundled into lib/vendor/).
project.eslint?.allowDevDeps('src/cli/rebuild/cloudformation.ts');
project.eslint?.allowDevDeps('src/cli/local/auth/sigv4.ts');
project.eslint?.allowDevDeps('src/cli/local/auth/cognito/**');
project.eslint?.allowDevDeps('src/cli/local/rest/validation/**');
project.eslint?.allowDevDeps('src/cli/local/rest/mapping/**');
project.eslint?.allowDevDeps('src/cli/local/rest/integrations/**');
project.eslint?.allowDevDeps('src/cli/local/common/linear-regex.ts');
project.eslint?.allowDevDeps('src/cli/local/websocket/websocket-gateway.ts');

// The layers of src/ (projenrc/layer-rules.ts): no import loops, no import from a lower layer to a
// higher one, and nothing the CLI loads imports aws-cdk-lib or constructs.
project.eslint?.addRules({
  'import/no-cycle': ['error', { ignoreExternal: true }],
  'import/no-restricted-paths': ['error', { zones: layerZones() }],
});
project.eslint?.addOverride({
  files: ['src/cli/**/*.ts', 'src/outputs/cdk-free/**/*.ts', 'src/client/**/*.ts'],
  rules: { '@typescript-eslint/no-restricted-imports': ['error', CDK_PACKAGES] },
});

// The package task packs the JavaScript package only, in CI as here: projen's default also runs
// jsii-pacmak for every configured language outside CI (package-all), which needs Python's build
// tools from PyPI, Maven Central, .NET and Go. Each language is packed by `npx projen package:<lang>`
// in its own job of the build and release workflows, where actions/setup-* installs its toolchain.
project.packageTask.reset();
project.packageTask.spawn(project.tasks.tryFind('package:js')!);

// Frontends get the REST helper as a package of its own, without the library's peers. Its tarball
// goes to dist/client/, not dist/js/: the workflows' language jobs extract `dist/js/*.tgz`, which
// must be the library's tarball alone. Same version as the library (read from package.json, which
// the release task bumps before it builds).
const packageClient = project.addTask('package:client', {
  description: 'Pack cdk-vendor-outputs-client (src/client) into dist/client/',
  exec: 'node scripts/package-client.js',
});
project.packageTask.spawn(packageClient);

// Both tarballs from a clone without the tests (README, Install: the way to install before a
// release): what the build does before and after its test step.
const pack = project.addTask('pack', {
  description: 'Compile and pack both packages into dist/js/ and dist/client/, without the tests (README, Install)',
});
for (const name of ['pre-compile', 'compile', 'post-compile', 'package:js', 'package:client']) {
  pack.spawn(project.tasks.tryFind(name)!);
}

// What an adopter does, from the packed tarballs: install with the peers from the npm registry,
// synthesize TypeScript and CommonJS apps on the aws-cdk-lib floor and the newest 2.x, run the CLI,
// import the client helper. The build's last step is package (its task is locked), so the test
// runs at the end of package, once both tarballs exist.
const consumerTest = project.addTask('test:consumer', {
  description: 'Install the packed tarballs in temporary CDK apps (aws-cdk-lib floor and newest 2.x) and use them as the README says',
  exec: 'node scripts/consumer-test.js',
  env: cdkEnv,
});
project.packageTask.spawn(consumerTest);

// The Python package (README, Python): generated, built into a wheel, installed into a fresh
// virtual environment and imported where PyPI is reachable; says NOT CHECKED for what it cannot do
// here. Not part of the build: the build workflow's package-python job builds it with pacmak.
project.addTask('test:python', {
  description: 'Build the Python package from .jsii, install it into a virtual environment and import it (where PyPI is reachable)',
  exec: 'node scripts/python-package-check.js',
  env: cdkEnv,
});

const demo = project.addTask('demo', {
  description: 'The sandbox on the example backend: synthesize it, write its vendor_outputs.json, serve its REST API and the console on 127.0.0.1:3000, and reload on every change',
  env: cdkEnv,
});
demo.spawn(project.preCompileTask);
demo.spawn(project.compileTask);
demo.exec('node ../../lib/cli/main.js sandbox --port 3000', { cwd: 'examples/backend' });

const bench = project.addTask('bench', {
  description: 'Benchmarks: prints ratios against baselines measured in the same run',
  env: cdkEnv,
});
bench.spawn(project.preCompileTask);
bench.spawn(project.compileTask);
bench.exec('node bench/run.js');

// ---- The workflows (README, Development: releases) beyond what projen writes
// The jobs that run `npx projen build` (pull requests) and `npx projen release` run where the build
// is developed and measured: Debian bookworm as root, so that scripts/ensure-chromium.sh installs
// Debian's /usr/bin/chromium for the browser tests (GitHub's Ubuntu runners have no such package),
// with python3 and curl for the consumer test. Only those two jobs: the others need the runner's
// tools (gh, actions/setup-python, -java, -dotnet, -go).
const debian = { image: 'node:20-bookworm' };
project.github?.tryFindWorkflow('build')?.file?.addOverride('jobs.build.container', debian);
project.github?.tryFindWorkflow('release')?.file?.addOverride('jobs.release.container', debian);
// The wheel pacmak built on a pull request is installed into a fresh virtual environment and
// imported, and a stack synthesized with it (README, Python), where PyPI is reachable.
project.github?.tryFindWorkflow('build')?.file?.patch(JsonPatch.add('/jobs/package-python/steps/-', {
  name: 'Install and import the Python package',
  run: 'node .repo/scripts/python-package-check.js --require-import --wheel dist/python/*.whl',
}));
project.release?.addJobs({ release_npm_client: clientReleaseJob(WORKFLOW_NODE), release_github_assets: releaseAssetsJob(WORKFLOW_NODE) });

project.synth();
