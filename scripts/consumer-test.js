#!/usr/bin/env node
// Consumer test: does what an adopter does, following the README's Install section, from the
// packed tarballs in dist/js/ and dist/client/ (run `npx projen package` first; the build runs this at its end).
//
// For aws-cdk-lib at the supported floor and at the newest 2.x, in a fresh temporary CDK app:
//   npm install <cdk-vendor-outputs tarball> aws-cdk-lib constructs  (peers from the npm registry)
//   a TypeScript app synthesized by `npx cdk synth` (aws-cdk CLI ^2.1148.1, ts-node),
//   a plain CommonJS app run with `node app.js`,
//   the CLI through npx (--help, validate, serve + one request, generate against an unreachable
//   endpoint, which loads and runs the bundled AWS SDK),
//   the client subpath in Node ESM and in TypeScript (node10 and nodenext resolution),
//   an error of ours seen through `cdk synth`: the message and construct path are shown, and
//   every file a stack frame names exists.
// Then a frontend folder installs only the client tarball (no aws-cdk-lib) and uses it from ESM,
// CommonJS and TypeScript.
// Node.js 22 and 24 (official builds from the npm registry, node-<platform>-<arch>, kept in a cache
// folder) run the newest app's CommonJS synth, the CLI (validate, token, generate) and the client;
// TypeScript 7 type-checks the app and the client with the resolutions it supports (nodenext,
// bundler) and refuses `node` (node10), as the README says. The app's own checks run on the host's
// Node (20 in CI) with TypeScript 5.
//
// The floor and newest apps are checked at the same time, each by a child process of this script
// (`--only LABEL --base DIR`), since most of their time waits on npm, tsc and cdk synth; the
// frontend follows once both passed.
//
// Usage: node scripts/consumer-test.js [--keep] [--only floor|newest]
// Network: the npm registry (installs); everything else stays on 127.0.0.1.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawn, spawnSync } = require('child_process');

const root = path.join(__dirname, '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const FLOOR = pkg.peerDependencies['aws-cdk-lib'].replace(/^\^/, '');
const CDK_LIB = [['floor', FLOOR], ['newest', '^2']];
const CDK_CLI = 'aws-cdk@^2.1148.1';
// TypeScript 7 is not supported by ts-node: a CDK app pins TypeScript 5 as `cdk init` does.
const DEV_TOOLS = ['typescript@~5.9.3', 'ts-node@^10.9.2', '@types/node@^20', CDK_CLI];
// The other Node.js majors the package is tested on (the host's runs everything else), and where
// their official builds are kept between runs (a clean CI machine installs them).
const OTHER_NODES = [22, 24];
// The CLI's own cache of Node.js builds (src/cli/local/lambda/node/node-binaries.ts, same layout), so a
// CI machine downloads each major once for the CLI's tests and this one.
const NODE_CACHE = process.env.CDK_VENDOR_OUTPUTS_NODE_CACHE
  ?? path.join(process.env.VENDOR_OUTPUTS_CACHE_DIR ? path.resolve(process.env.VENDOR_OUTPUTS_CACHE_DIR)
    : path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'vendor-outputs'), 'node');
const TYPESCRIPT_7 = 'typescript@^7';
const keep = process.argv.includes('--keep');
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
// Set for the child process that checks one app inside the parent's folder (which the parent removes).
const givenBase = process.argv.includes('--base') ? process.argv[process.argv.indexOf('--base') + 1] : undefined;

const env = {
  ...process.env,
  AWS_REGION: 'us-east-1',
  AWS_DEFAULT_REGION: 'us-east-1',
  AWS_EC2_METADATA_DISABLED: 'true',
  CDK_DISABLE_CLI_TELEMETRY: 'true',
  npm_config_yes: 'true',
  npm_config_fund: 'false',
  npm_config_audit: 'false',
  npm_config_update_notifier: 'false',
};
// A parent npm run (npm run build) passes its own settings down; the apps are separate projects.
for (const key of Object.keys(env)) {
  if (/^npm_(package|lifecycle)_/.test(key) || key === 'npm_config_prefix') {
    delete env[key];
  }
}

const timings = [];

function fail(message) {
  throw new Error(message);
}

/** Runs a command; returns its output; fails with the command and its output unless it exits with `expectStatus` (null: any). */
function run(cwd, command, args, { expectStatus = 0, extraEnv = {}, timeoutMs = 600_000 } = {}) {
  const started = Date.now();
  const result = spawnSync(command, args, { cwd, env: { ...env, ...extraEnv }, encoding: 'utf8', timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
  const seconds = (Date.now() - started) / 1000;
  const shown = `${command} ${args.join(' ')}`;
  if (result.error) {
    fail(`${shown} (in ${cwd}): ${result.error.message}`);
  }
  if (expectStatus !== null && result.status !== expectStatus) {
    fail(`${shown} (in ${cwd}) exited with ${result.status}, expected ${expectStatus}\n--- stdout\n${tail(result.stdout)}\n--- stderr\n${tail(result.stderr)}`);
  }
  return { ...result, seconds };
}

/** run(), without blocking: for installs and checks that overlap the apps' own. */
function runAsync(cwd, command, args, { expectStatus = 0, extraEnv = {}, timeoutMs = 600_000 } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'], timeout: timeoutMs });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', (error) => reject(new Error(`${command} ${args.join(' ')} (in ${cwd}): ${error.message}`)));
    child.on('close', (status) => (expectStatus === null || status === expectStatus
      ? resolve({ status, stdout, stderr })
      : reject(new Error(`${command} ${args.join(' ')} (in ${cwd}) exited with ${status}, expected ${expectStatus}\n--- stdout\n${tail(stdout)}\n--- stderr\n${tail(stderr)}`))));
  });
}

function tail(text, lines = 40) {
  return (text ?? '').split('\n').slice(-lines).join('\n');
}

function step(name, fn) {
  const started = Date.now();
  const value = fn();
  const seconds = (Date.now() - started) / 1000;
  timings.push([name, seconds]);
  console.log(`[consumer] ${name}: ok (${seconds.toFixed(1)} s)`);
  return value;
}

async function stepAsync(name, fn) {
  const started = Date.now();
  const value = await fn();
  const seconds = (Date.now() - started) / 1000;
  timings.push([name, seconds]);
  console.log(`[consumer] ${name}: ok (${seconds.toFixed(1)} s)`);
  return value;
}

function write(dir, files) {
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
}

function tarballs() {
  const library = path.join(root, 'dist', 'js', `${pkg.name}@${pkg.version}.jsii.tgz`);
  const client = path.join(root, 'dist', 'client', `${pkg.name}-client-${pkg.version}.tgz`);
  for (const file of [library, client]) {
    if (!fs.existsSync(file)) {
      fail(`${path.relative(root, file)} is missing: run 'npx projen package' first`);
    }
  }
  return { library, client };
}

// ---- the apps -------------------------------------------------------------------------------

const TS_APP = `import { App, Stack } from 'aws-cdk-lib';
import { RestItemsApi, RestItemsApiAuthorization, VendorOutputs } from 'cdk-vendor-outputs';

const app = new App();
const stack = new Stack(app, 'Backend', { env: { region: 'eu-west-1' } });
new RestItemsApi(stack, 'ItemsApi', { stageName: 'dev', allowOrigins: ['https://a.example', 'https://b.example'] });
new RestItemsApi(stack, 'PrivateApi', { apiName: 'private', outputsKey: 'private', authorization: RestItemsApiAuthorization.IAM });
VendorOutputs.of(stack).addOutput({ custom: { support_email: 'help@example.com' } });
app.synth();
`;

const JS_APP = `const { App, Stack } = require('aws-cdk-lib');
const { RestItemsApi, VendorOutputs } = require('cdk-vendor-outputs');

const app = new App({ outdir: 'cdk.out.js' });
const stack = new Stack(app, 'Backend', { env: { region: 'eu-west-1' } });
new RestItemsApi(stack, 'ItemsApi');
VendorOutputs.of(stack).addOutput({ custom: { support_email: 'help@example.com' } });
app.synth();
`;

// Deploy-time publication into a site bucket, with deploy-time values that JSON must escape.
const PUBLISH_APP = `const { App, CfnParameter, Stack } = require('aws-cdk-lib');
const s3 = require('aws-cdk-lib/aws-s3');
const { VendorOutputs } = require('cdk-vendor-outputs');

const app = new App({ outdir: 'cdk.out.publish' });
const stack = new Stack(app, 'Backend', { env: { region: 'eu-west-1' } });
const site = new s3.Bucket(stack, 'Site');
const note = new CfnParameter(stack, 'Note', { type: 'String' });
VendorOutputs.of(stack).addOutput({ storage: { vendorRegion: stack.region, bucketName: site.bucketName }, custom: { note: note.valueAsString } });
VendorOutputs.of(stack).publishToBucket(site, 'config/vendor_outputs.json');
app.synth();
`;

// One of our errors, thrown at synth by the writer: the document misses a required field.
const FAILING_APP = `import { App, Stack } from 'aws-cdk-lib';
import { VendorOutputs } from 'cdk-vendor-outputs';

const app = new App();
const stack = new Stack(app, 'Broken', { env: { region: 'eu-west-1' } });
VendorOutputs.of(stack).addOutput({ analytics: { vendorMessaging: { vendorRegion: 'eu-west-1' } } } as any);
app.synth();
`;

const CLIENT_SAMPLE = {
  version: '1',
  custom: { api_id: 'a1', api_endpoint: 'https://a1.execute-api.eu-west-1.amazonaws.com/dev/', api_name: 'items' },
};
const CLIENT_EXPECTED = JSON.stringify({ items: { endpoint: CLIENT_SAMPLE.custom.api_endpoint, region: 'eu-west-1' } });

const CLIENT_ESM = (specifier) => `import { toRestConfig, withRestConfig, RestConfigError } from '${specifier}';
const outputs = ${JSON.stringify(CLIENT_SAMPLE)};
if (typeof RestConfigError !== 'function') throw new Error('RestConfigError missing');
console.log(JSON.stringify(toRestConfig(outputs)));
console.log(JSON.stringify(withRestConfig({}, outputs).API.REST));
`;

const CLIENT_CJS = (specifier) => `const { toRestConfig } = require('${specifier}');
console.log(JSON.stringify(toRestConfig(${JSON.stringify(CLIENT_SAMPLE)})));
`;

const CLIENT_TS = (specifier) => `import { toRestConfig, RestConfig, RestConfigError } from '${specifier}';
const rest: RestConfig = toRestConfig({ version: '1' }, { defaultRegion: 'eu-west-1', allowNoApis: true });
const region: string | undefined = rest.items?.region;
// @ts-expect-error the options are typed
toRestConfig({}, { defaultRegion: 42 });
export { region, RestConfigError };
`;

const TSCONFIG_NODE10 = {
  compilerOptions: { target: 'ES2022', module: 'commonjs', moduleResolution: 'node', lib: ['es2022'], strict: true, esModuleInterop: true, skipLibCheck: true, types: ['node'] },
  exclude: ['node_modules', 'cdk.out', 'nodenext'],
};
const TSCONFIG_NODENEXT = {
  compilerOptions: { target: 'ES2022', module: 'nodenext', moduleResolution: 'nodenext', lib: ['es2022'], strict: true, resolveJsonModule: true, skipLibCheck: true, noEmit: true, types: ['node'] },
  include: ['*.ts', '*.mts'],
};

function expectClientOutput(text, where) {
  const first = text.trim().split('\n')[0];
  if (first !== CLIENT_EXPECTED) {
    fail(`${where}: toRestConfig printed ${first}, expected ${CLIENT_EXPECTED}`);
  }
}

// ---- the checks -----------------------------------------------------------------------------

async function backendApp(base, label, cdkLib, library) {
  const dir = path.join(base, `app-${label}`);
  write(dir, {
    'package.json': JSON.stringify({ name: `consumer-${label}`, version: '0.0.0', private: true }, null, 2),
    'cdk.json': JSON.stringify({ app: 'npx ts-node --prefer-ts-exts app.ts' }, null, 2),
    'tsconfig.json': JSON.stringify(TSCONFIG_NODE10, null, 2),
    'app.ts': TS_APP,
    'app.js': JS_APP,
    'broken.ts': FAILING_APP,
    'publish.js': PUBLISH_APP,
    'client.mjs': CLIENT_ESM('cdk-vendor-outputs/client'),
    'client-lib-path.mjs': CLIENT_ESM('cdk-vendor-outputs/lib/client'),
    'client-node10.ts': CLIENT_TS('cdk-vendor-outputs/client'),
    'nodenext/tsconfig.json': JSON.stringify(TSCONFIG_NODENEXT, null, 2),
    'nodenext/client.mts': CLIENT_TS('cdk-vendor-outputs/client'),
    'nodenext/client.ts': CLIENT_TS('cdk-vendor-outputs/client'),
    'nodenext/main.mts': "import { VendorOutputs } from 'cdk-vendor-outputs';\nimport schema from 'cdk-vendor-outputs/schema' with { type: 'json' };\nexport const x: string = typeof VendorOutputs + schema.$id;\n",
  });

  // README, Install: the library and its peers, then the app's own tools.
  step(`${label}: npm install cdk-vendor-outputs aws-cdk-lib@${cdkLib} constructs`, () => run(dir, 'npm', ['install', library, `aws-cdk-lib@${cdkLib}`, 'constructs@^10.5.1']));
  step(`${label}: npm install --save-dev ${DEV_TOOLS.join(' ')}`, () => run(dir, 'npm', ['install', '--save-dev', ...DEV_TOOLS]));
  const installed = JSON.parse(fs.readFileSync(path.join(dir, 'node_modules', 'aws-cdk-lib', 'package.json'), 'utf8')).version;
  console.log(`[consumer] ${label}: aws-cdk-lib ${installed}`);
  step(`${label}: the package brings no dependencies of its own`, () => {
    const nested = path.join(dir, 'node_modules', 'cdk-vendor-outputs', 'node_modules');
    if (fs.existsSync(nested)) {
      fail(`node_modules/cdk-vendor-outputs/node_modules exists: ${fs.readdirSync(nested).join(', ')}`);
    }
    run(dir, 'npm', ['ls', 'cdk-vendor-outputs', 'aws-cdk-lib', 'constructs']);
  });

  step(`${label}: npx cdk synth (TypeScript app)`, () => {
    run(dir, 'npx', ['cdk', 'synth', '--no-notices', '--quiet']);
    const file = path.join(dir, 'cdk.out', 'Backend.vendor_outputs.json');
    const document = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (document.custom?.support_email !== 'help@example.com' || document.custom?.api_name !== 'ItemsApi') {
      fail(`${file} lacks the app's outputs: ${JSON.stringify(document.custom)}`);
    }
  });
  step(`${label}: node app.js (CommonJS app)`, () => {
    run(dir, 'node', ['app.js']);
    const document = JSON.parse(fs.readFileSync(path.join(dir, 'cdk.out.js', 'Backend.vendor_outputs.json'), 'utf8'));
    if (document.custom?.api_name !== 'ItemsApi') {
      fail(`cdk.out.js/Backend.vendor_outputs.json lacks custom.api_name: ${JSON.stringify(document.custom)}`);
    }
  });

  step(`${label}: npx vendor-outputs --help, validate`, () => {
    const help = run(dir, 'npx', ['vendor-outputs', '--help']);
    if (!/Usage: vendor-outputs/.test(help.stdout + help.stderr)) {
      fail(`vendor-outputs --help printed no usage:\n${help.stdout}${help.stderr}`);
    }
    // A synth-time file holds values pending until deploy: README, Install.
    run(dir, 'npx', ['vendor-outputs', 'validate', '--allow-pending', 'cdk.out/Backend.vendor_outputs.json']);
    const invalid = path.join(dir, 'invalid.json');
    fs.writeFileSync(invalid, JSON.stringify({ version: '2' }));
    const refused = run(dir, 'npx', ['vendor-outputs', 'validate', 'invalid.json'], { expectStatus: 1 });
    if (!/invalid\.json(:\d+:\d+)?: \/version/.test(refused.stdout + refused.stderr)) {
      fail(`validate of an invalid file said:\n${refused.stdout}${refused.stderr}`);
    }
  });
  await stepAsync(`${label}: npx vendor-outputs serve, GET /dev/items?limit=2, a preflight from one of several origins (bundled Velocity engine), IAM method unsigned and signed (curl --aws-sigv4)`, () => serveOnce(dir));
  step(`${label}: npx vendor-outputs token (bundled jose)`, () => {
    const token = run(dir, 'npx', ['vendor-outputs', 'token', '--pool', 'eu-west-1_Local', '--username', 'ada']).stdout.trim();
    const [header, payload] = token.split('.').slice(0, 2).map((part) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8') || 'null'));
    if (token.split('.').length !== 3 || header.alg !== 'RS256' || payload['cognito:username'] !== 'ada') {
      fail(`vendor-outputs token printed no RS256 ID token for ada: ${token}`);
    }
  });
  step(`${label}: npx vendor-outputs generate (bundled AWS SDK, unreachable endpoint)`, () => {
    const result = run(dir, 'npx', ['vendor-outputs', 'generate', '--stack', 'Backend', '--region', 'eu-west-1'], {
      expectStatus: 1,
      extraEnv: { AWS_ENDPOINT_URL_CLOUDFORMATION: 'http://127.0.0.1:9', AWS_ACCESS_KEY_ID: 'AKIDCONSUMER', AWS_SECRET_ACCESS_KEY: 'consumer-secret', AWS_MAX_ATTEMPTS: '1' },
    });
    if (/\n\s+at /.test(result.stderr) || !/ECONNREFUSED|127\.0\.0\.1/.test(result.stderr)) {
      fail(`generate against an unreachable endpoint should fail with one line naming it, got:\n${result.stderr}`);
    }
  });

  step(`${label}: publishToBucket: the object aws-cdk-lib's own handler writes equals generate --outputs-file`, () => publicationMatchesGenerate(dir));

  step(`${label}: client subpath from Node ESM (cdk-vendor-outputs/client, /lib/client)`, () => {
    expectClientOutput(run(dir, 'node', ['client.mjs']).stdout, 'client.mjs');
    expectClientOutput(run(dir, 'node', ['client-lib-path.mjs']).stdout, 'client-lib-path.mjs');
  });
  step(`${label}: TypeScript, node10 resolution (app, client subpath)`, () => run(dir, 'npx', ['tsc', '--noEmit', '-p', '.']));
  step(`${label}: TypeScript, nodenext resolution (client subpath, main entry, schema)`, () => run(dir, 'npx', ['tsc', '-p', 'nodenext']));
  step(`${label}: an error of ours through npx cdk synth`, () => errorThroughSynth(dir));
  return dir;
}

/**
 * Synthesizes publish.js, substitutes deployed values into the published object with the
 * installed aws-cdk-lib's BucketDeployment handler (its Python marker substitution), and compares
 * it with what `vendor-outputs generate --outputs-file` writes for the same values.
 */
function publicationMatchesGenerate(dir) {
  run(dir, 'node', ['publish.js']);
  const assembly = path.join(dir, 'cdk.out.publish');
  const template = JSON.parse(fs.readFileSync(path.join(assembly, 'Backend.template.json'), 'utf8'));
  const deployment = Object.values(template.Resources).find((r) => r.Type === 'Custom::CDKBucketDeployment').Properties;
  const values = { 'AWS::Region': 'eu-west-1', 'Note': 'a "quoted" note \\ with a backslash,\nand a newline' };
  const evaluate = (e) => {
    if (typeof e === 'string') return e;
    if (Array.isArray(e)) return e.map(evaluate);
    if (e.Ref !== undefined) return values[e.Ref] ?? `${e.Ref.toLowerCase()}-physical-id`;
    if (e['Fn::Join'] !== undefined) return evaluate(e['Fn::Join'][1]).join(e['Fn::Join'][0]);
    if (e['Fn::Base64'] !== undefined) return Buffer.from(evaluate(e['Fn::Base64']), 'utf8').toString('base64');
    fail(`cannot evaluate ${JSON.stringify(e)}`);
  };
  const outputs = Object.fromEntries(Object.entries(template.Outputs).map(([key, output]) => [key, evaluate(output.Value)]));
  fs.writeFileSync(path.join(dir, 'publish-outputs.json'), JSON.stringify({ Backend: outputs }));
  run(dir, 'npx', ['vendor-outputs', 'generate', '--outputs-file', 'publish-outputs.json', '--app', 'cdk.out.publish', '--out-dir', 'generated']);
  const expected = fs.readFileSync(path.join(dir, 'generated', 'vendor_outputs.json'), 'utf8');

  const published = path.join(dir, 'published.json');
  const asset = path.join(assembly, `asset.${deployment.SourceObjectKeys[0].replace(/\.zip$/, '')}`);
  fs.copyFileSync(path.join(asset, 'config', 'vendor_outputs.json'), published);
  const markers = Object.fromEntries(Object.entries(deployment.SourceMarkers[0]).map(([marker, e]) => [marker, evaluate(e)]));
  const config = Object.fromEntries(Object.entries(deployment.SourceMarkersConfig?.[0] ?? {}).map(([k, v]) => [k, String(v)]));
  const handler = path.join(dir, 'node_modules', 'aws-cdk-lib', 'custom-resource-handlers', 'dist', 'aws-s3-deployment', 'bucket-deployment-handler', 'index.py');
  const runner = path.join(root, 'test', 'support', 'replace-markers.py');
  const mode = run(dir, 'python3', [runner, handler, published, JSON.stringify(markers), JSON.stringify(config)]).stdout.trim();
  const text = fs.readFileSync(published, 'utf8');
  // Releases with a markers config keep the text byte for byte; 2.189 parses the JSON and writes it again.
  const same = mode === 'escape' ? text === expected : `${JSON.stringify(JSON.parse(text), null, 2)}\n` === expected;
  if (!same || JSON.parse(text).custom.note !== values.Note) {
    fail(`the published object (handler mode ${mode}) differs from generate's file:\n${text}\n---\n${expected}`);
  }
  console.log(`[consumer] publication: handler mode ${mode}, ${text.length} bytes ${mode === 'escape' ? 'identical to' : 'with the values and key order of'} generate's file`);
}

/** Starts `vendor-outputs serve --port 0`, requests one URL, stops it. */
function serveOnce(dir) {
  return new Promise((resolve, reject) => {
    // Its own process group: npx runs the bin as a child of its own, and both must stop.
    const child = spawn('npx', ['vendor-outputs', 'serve', '--app', 'cdk.out', '--port', '0', '--quiet', '--credentials', 'AKIDLOCAL:local-secret'], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    let done = false;
    let closed = false;
    const finish = (error) => {
      if (done) {
        return;
      }
      done = true;
      clearTimeout(timer);
      const settle = () => (error ? reject(error) : resolve());
      if (closed) {
        settle();
        return;
      }
      child.once('close', settle);
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => finish(new Error(`serve did not start in 60 s:\n${output}`)), 60_000);
    const onData = async (chunk) => {
      output += chunk;
      const base = /^ItemsApi .* at (http:\/\/127\.0\.0\.1:\d+\/dev\/)$/m.exec(output)?.[1];
      const iam = /^private .* at (http:\/\/127\.0\.0\.1:\d+\/dev\/)$/m.exec(output)?.[1];
      if (base === undefined || iam === undefined || !output.includes('Press Ctrl+C to stop.') || done) {
        return;
      }
      try {
        const response = await fetch(`${base}items?limit=2`);
        const body = await response.json();
        if (response.status !== 200 || body.count !== 2) {
          throw new Error(`GET ${base}items?limit=2 answered ${response.status} ${JSON.stringify(body)}`);
        }
        // The preflight of several allowed origins is a Velocity template: the bundled engine runs it.
        const preflight = await fetch(`${base}items`, { method: 'OPTIONS', headers: { 'Origin': 'https://b.example', 'Access-Control-Request-Method': 'GET' } });
        if (preflight.status !== 204 || preflight.headers.get('access-control-allow-origin') !== 'https://b.example') {
          throw new Error(`OPTIONS ${base}items from https://b.example answered ${preflight.status}, Access-Control-Allow-Origin ${preflight.headers.get('access-control-allow-origin')}`);
        }
        const unsigned = await fetch(`${iam}items`);
        if (unsigned.status !== 403) {
          throw new Error(`unsigned GET ${iam}items answered ${unsigned.status}, expected 403`);
        }
        // README, serve: a real client signs with SigV4; the bundled signer checks it.
        const signed = spawnSync('curl', ['-s', '-o', '/dev/null', '-w', '%{http_code}', '--aws-sigv4', 'aws:amz:eu-west-1:execute-api', '--user', 'AKIDLOCAL:local-secret', `${iam}items`], { encoding: 'utf8' });
        if (signed.stdout !== '200') {
          throw new Error(`curl --aws-sigv4 GET ${iam}items answered ${signed.stdout} ${signed.stderr}`);
        }
        finish();
      } catch (error) {
        finish(error);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', finish);
    child.on('close', (code) => {
      closed = true;
      finish(new Error(`serve exited with ${code} before answering:\n${output}`));
    });
  });
}

/** What a user sees when one of our errors stops `cdk synth`: our message, no frame into a missing file. */
function errorThroughSynth(dir) {
  const result = run(dir, 'npx', ['cdk', 'synth', '--no-notices', '--quiet', '--app', 'npx ts-node --prefer-ts-exts broken.ts'], { expectStatus: null });
  const output = result.stderr + result.stdout;
  if (result.status === 0) {
    fail('cdk synth of broken.ts succeeded');
  }
  if (!/\/analytics\/vendor_messaging/.test(output) || !/Broken/.test(output)) {
    fail(`cdk synth of broken.ts did not show our message:\n${output}`);
  }
  const missing = [...output.matchAll(/(\/[^\s():]+\.(?:ts|js)):\d+/g)]
    .map((match) => match[1])
    .filter((file) => file.includes('/node_modules/cdk-vendor-outputs/') && !fs.existsSync(file));
  if (missing.length > 0) {
    fail(`cdk synth of broken.ts shows stack frames in files that do not exist: ${[...new Set(missing)].join(', ')}\n${output}`);
  }
  const firstLines = output.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('npm warn')).slice(0, 6).join('\n');
  console.log(`[consumer] what cdk synth shows for an error of ours (first lines):\n${firstLines.replace(/^/gm, '    ')}`);
  // Node prints the throwing line (a real lib/*.js file) before the error; our message and the
  // construct path must follow right after it, not below a screen of frames.
  if (!/Error: Invalid vendor_outputs\.json for stack Broken/.test(firstLines) || !/\[from Broken\]/.test(firstLines)) {
    fail(`cdk synth of broken.ts does not show our message and construct path in its first lines:\n${firstLines}`);
  }
}

function frontend(base, client, tscFrom) {
  const dir = path.join(base, 'frontend');
  write(dir, {
    'package.json': JSON.stringify({ name: 'consumer-frontend', version: '0.0.0', private: true }, null, 2),
    'client.mjs': CLIENT_ESM('cdk-vendor-outputs-client'),
    'client.cjs': CLIENT_CJS('cdk-vendor-outputs-client'),
    'tsconfig.json': JSON.stringify({ compilerOptions: { ...TSCONFIG_NODENEXT.compilerOptions, types: [] }, include: ['*.ts', '*.mts'] }, null, 2),
    'client.mts': CLIENT_TS('cdk-vendor-outputs-client'),
    'client.ts': CLIENT_TS('cdk-vendor-outputs-client'),
  });
  step('frontend: npm install cdk-vendor-outputs-client', () => run(dir, 'npm', ['install', client]));
  step('frontend: nothing else installed (no aws-cdk-lib, no constructs)', () => {
    const installed = fs.readdirSync(path.join(dir, 'node_modules')).filter((name) => !name.startsWith('.'));
    if (installed.join(',') !== 'cdk-vendor-outputs-client') {
      fail(`the frontend's node_modules holds ${installed.join(', ')}`);
    }
  });
  step('frontend: ESM, CommonJS, TypeScript nodenext', () => {
    expectClientOutput(run(dir, 'node', ['client.mjs']).stdout, 'frontend client.mjs');
    expectClientOutput(run(dir, 'node', ['client.cjs']).stdout, 'frontend client.cjs');
    run(dir, path.join(tscFrom, 'node_modules', '.bin', 'tsc'), ['-p', '.']);
  });
  return dir;
}

// ---- other Node.js majors, TypeScript 7 ------------------------------------------------------

/** The official Node.js build of `major` (npm package node-<platform>-<arch>), installed into the cache once; resolves to its bin/node. */
async function installNode(major) {
  const name = `node-${process.platform}-${process.arch}`;
  const prefix = path.join(NODE_CACHE, String(major));
  const node = path.join(prefix, 'node_modules', name, 'bin', 'node');
  if (!fs.existsSync(node)) {
    fs.mkdirSync(prefix, { recursive: true });
    fs.writeFileSync(path.join(prefix, 'package.json'), '{ "private": true }\n');
    await runAsync(prefix, 'npm', ['install', `${name}@${major}`]);
  }
  return node;
}

/** TypeScript 7 in a folder of its own (the apps keep TypeScript 5, which ts-node needs); resolves to its tsc. */
async function installTypescript7(base) {
  const prefix = path.join(base, 'typescript-7');
  write(prefix, { 'package.json': '{ "private": true }\n' });
  await runAsync(prefix, 'npm', ['install', TYPESCRIPT_7]);
  return path.join(prefix, 'node_modules', '.bin', 'tsc');
}

/** Starts the installs of the other Node.js majors and TypeScript 7, to overlap the apps' checks. */
function startTools(base) {
  const tools = Promise.all([Promise.all(OTHER_NODES.map(installNode)), installTypescript7(base)]);
  // Awaited once the apps passed; a failure before then is reported there, not as unhandled.
  tools.catch(() => undefined);
  return tools;
}

/** The newest app on another Node.js major: CommonJS synth, the CLI's commands that load each bundled package, the client from ESM. */
async function onNode(dir, major, node) {
  const extraEnv = { PATH: `${path.dirname(node)}${path.delimiter}${env.PATH}` };
  const version = (await runAsync(dir, node, ['-p', 'process.versions.node'])).stdout.trim();
  if (!version.startsWith(`${major}.`)) {
    fail(`${node} is Node.js ${version}, not ${major}`);
  }
  const outdir = `cdk.out.node${major}`;
  write(dir, { [`app-node${major}.js`]: JS_APP.replace("outdir: 'cdk.out.js'", `outdir: '${outdir}'`) });
  await runAsync(dir, node, [`app-node${major}.js`], { extraEnv });
  const document = JSON.parse(fs.readFileSync(path.join(dir, outdir, 'Backend.vendor_outputs.json'), 'utf8'));
  if (document.custom?.api_name !== 'ItemsApi') {
    fail(`Node.js ${major}: ${outdir}/Backend.vendor_outputs.json lacks custom.api_name: ${JSON.stringify(document.custom)}`);
  }
  const cli = path.join(dir, 'node_modules', 'cdk-vendor-outputs', 'lib', 'cli', 'main.js');
  await runAsync(dir, node, [cli, 'validate', '--allow-pending', `${outdir}/Backend.vendor_outputs.json`], { extraEnv });
  const token = (await runAsync(dir, node, [cli, 'token', '--pool', 'eu-west-1_Local', '--username', 'ada'], { extraEnv })).stdout.trim();
  if (token.split('.').length !== 3) {
    fail(`Node.js ${major}: vendor-outputs token printed no JWT: ${token}`);
  }
  const generate = await runAsync(dir, node, [cli, 'generate', '--stack', 'Backend', '--region', 'eu-west-1'], {
    expectStatus: 1,
    extraEnv: { ...extraEnv, AWS_ENDPOINT_URL_CLOUDFORMATION: 'http://127.0.0.1:9', AWS_ACCESS_KEY_ID: 'AKIDCONSUMER', AWS_SECRET_ACCESS_KEY: 'consumer-secret', AWS_MAX_ATTEMPTS: '1' },
  });
  if (!/ECONNREFUSED|127\.0\.0\.1/.test(generate.stderr) || /\n\s+at /.test(generate.stderr)) {
    fail(`Node.js ${major}: generate against an unreachable endpoint should fail with one line naming it, got:\n${generate.stderr}`);
  }
  expectClientOutput((await runAsync(dir, node, ['client.mjs'], { extraEnv })).stdout, `Node.js ${major} client.mjs`);
  return version;
}

const TSCONFIG_BUNDLER = {
  compilerOptions: { target: 'ES2022', module: 'preserve', moduleResolution: 'bundler', lib: ['es2022'], strict: true, resolveJsonModule: true, skipLibCheck: true, noEmit: true, types: ['node'] },
};

/** TypeScript 7 on the app: nodenext and bundler compile the app and every entry point; node (node10) is refused with TS5108. */
async function onTypescript7(dir, tsc) {
  write(dir, {
    'tsconfig.ts7-nodenext.json': JSON.stringify({ ...TSCONFIG_NODENEXT, include: undefined, files: ['app.ts', 'nodenext/client.mts', 'nodenext/client.ts', 'nodenext/main.mts'] }, null, 2),
    'tsconfig.ts7-bundler.json': JSON.stringify({ ...TSCONFIG_BUNDLER, files: ['app.ts', 'client-node10.ts', 'nodenext/main.mts'] }, null, 2),
  });
  const version = (await runAsync(dir, tsc, ['--version'])).stdout.trim();
  await runAsync(dir, tsc, ['-p', 'tsconfig.ts7-nodenext.json']);
  await runAsync(dir, tsc, ['-p', 'tsconfig.ts7-bundler.json']);
  const node10 = await runAsync(dir, tsc, ['--noEmit', '-p', '.'], { expectStatus: null });
  if (node10.status === 0 || !/TS5108/.test(node10.stdout + node10.stderr)) {
    fail(`${version} with moduleResolution node: expected TS5108 (removed), got exit ${node10.status}:\n${node10.stdout}${node10.stderr}`);
  }
  return version;
}

/** Node.js 22 and 24 and TypeScript 7 on the newest app, at the same time. */
async function otherRuntimes(dir, tools) {
  const [nodes, tsc] = await stepAsync(`install Node.js ${OTHER_NODES.join(', ')} (cache ${NODE_CACHE}) and ${TYPESCRIPT_7}`, () => tools);
  await Promise.all([
    ...OTHER_NODES.map((major, i) => stepAsync(`Node.js ${major}: node app.js, vendor-outputs validate, token, generate, client ESM`, async () => {
      console.log(`[consumer] Node.js ${await onNode(dir, major, nodes[i])}`);
    })),
    stepAsync('TypeScript 7: nodenext and bundler resolution (app, client subpath, main entry, schema); node10 refused (TS5108)', async () => {
      console.log(`[consumer] ${await onTypescript7(dir, tsc)}`);
    }),
  ]);
  return tsc;
}

/** Runs this script for one app (`--only label`) in `base` as a child process; resolves when it passed, rejects with its exit status. */
function appInChild(base, label) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [__filename, '--only', label, '--base', base], { env: process.env, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', reject);
    child.on('close', (code, signal) => (code === 0 ? resolve() : reject(new Error(`the ${label} app failed (exit ${code ?? signal}); its output is above`))));
  });
}

/** The backend apps for every aws-cdk-lib version, at the same time; returns the folder of the last one. */
async function allApps(base) {
  const outcomes = await Promise.allSettled(CDK_LIB.map(([label]) => appInChild(base, label)));
  const failed = outcomes.filter((outcome) => outcome.status === 'rejected').map((outcome) => outcome.reason.message);
  if (failed.length > 0) {
    fail(failed.join('; '));
  }
  return path.join(base, `app-${CDK_LIB[CDK_LIB.length - 1][0]}`);
}

async function main() {
  const started = Date.now();
  const { library, client } = tarballs();
  if (givenBase !== undefined) {
    const [, version] = CDK_LIB.find(([label]) => label === only) ?? fail(`--base needs --only ${CDK_LIB.map(([label]) => label).join('|')}`);
    await backendApp(givenBase, only, version, library);
    return;
  }
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'cdk-vendor-outputs-consumer-'));
  console.log(`[consumer] ${path.relative(root, library)}, ${path.relative(root, client)} in ${base}`);
  let ok = false;
  try {
    const tools = startTools(base);
    let appDir;
    if (only === undefined) {
      appDir = await allApps(base);
    } else {
      for (const [label, version] of CDK_LIB) {
        if (only === label) {
          appDir = await backendApp(base, label, version, library);
        }
      }
    }
    const tsc7 = await otherRuntimes(appDir, tools);
    const frontendDir = frontend(base, client, appDir);
    step('frontend: TypeScript 7, nodenext', () => run(frontendDir, tsc7, ['-p', '.']));
    ok = true;
  } finally {
    const total = (Date.now() - started) / 1000;
    console.log(`[consumer] ${ok ? 'passed' : 'FAILED'} in ${total.toFixed(1)} s`);
    if (keep || !ok) {
      console.log(`[consumer] kept ${base}`);
    } else {
      fs.rmSync(base, { recursive: true, force: true });
    }
  }
}

main().catch((error) => {
  console.error(`[consumer] ${error.message}`);
  process.exit(1);
});
