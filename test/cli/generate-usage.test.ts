import { UsageError } from '../../src/cli/command';
import { parseRebuildArgs } from '../../src/cli/rebuild/arguments';
import { HOSTED_BUILD_VARIABLES } from '../../src/outputs/cdk-free/hosted-build';
import { runCli } from '../support/cli';

test('--help shows the three modes and examples, exit 0', async () => {
  const run = await runCli(['generate', '--help']);
  expect(run.code).toBe(0);
  expect(run.stdout).toContain('Usage: vendor-outputs generate --stack NAME');
  expect(run.stdout).toContain('vendor-outputs generate --app-id ID --branch NAME');
  expect(run.stdout).toContain('vendor-outputs generate --outputs-file FILE [--app DIR]');
  expect(run.stdout).toMatch(/Examples:\n {2}vendor-outputs generate --stack MyBackend/);
});

test.each([
  [[], 'say which stack: --stack NAME, --app-id ID --branch NAME, or --outputs-file FILE (offline)'],
  [['--stack', 'S', '--app-id', 'd1', '--branch', 'main'], 'give either --stack NAME or --app-id ID --branch NAME, not both'],
])('on the command line, generate %j is a usage error (exit 2) with a hint', async (args, message) => {
  // Without the CI variables of the machine running the tests (a hosted build's branch would complete the request).
  const run = await runCli(['generate', ...args], { env: Object.fromEntries(HOSTED_BUILD_VARIABLES.map((name) => [name, undefined])) });
  expect(run.stderr).toBe(`vendor-outputs generate: ${message}\nRun 'vendor-outputs generate --help' for usage.\n`);
  expect(run.code).toBe(2);
});

test.each([
  [['--app-id', 'd1'], '--app-id needs --branch NAME'],
  [['--branch', 'main'], '--branch needs --app-id ID'],
  [['--outputs-file', 'o.json', '--stack', 'S', '--app-id', 'd1', '--branch', 'main'], 'give either --stack NAME or --app-id ID --branch NAME, not both'],
  [['--stack', 'S', '--app', 'cdk.out'], '--app DIR is for offline mode: add --outputs-file FILE'],
  [['--app-id', 'd1', '--branch', 'main', '--app', 'cdk.out'], '--app DIR is for offline mode'],
  [['--outputs-file', 'o.json', '--region', 'eu-west-1'], '--region has no effect with --outputs-file: offline mode makes no AWS call'],
  [['--outputs-file', 'o.json', '--profile', 'dev'], '--profile has no effect with --outputs-file'],
  [['--stack', ''], '--stack needs a non-empty value'],
  [['--stack', ' '], '--stack needs a non-empty value'],
  [['--stack'], "Option '--stack <value>' argument missing"],
  [['--stack', 'S', '--bogus'], "Unknown option '--bogus'"],
  [['--stack', 'S', 'extra'], "Unexpected argument 'extra'"],
])('generate %j is a usage error', (args, message) => {
  expect(() => parseRebuildArgs(args, {})).toThrow(UsageError);
  expect(() => parseRebuildArgs(args, {})).toThrow(message);
});

test.each([
  [['--stack', 'S'], { stack: 'S', app: 'cdk.out', outDir: '.' }],
  [['--stack', 'S', '--region', 'eu-west-1', '--profile', 'dev', '--out-dir', 'src'], { stack: 'S', region: 'eu-west-1', profile: 'dev', outDir: 'src' }],
  [['--app-id', 'd1', '--branch', 'feature/x'], { appId: 'd1', branch: 'feature/x' }],
  [['--outputs-file', 'o.json'], { outputsFile: 'o.json', app: 'cdk.out' }],
  [['--outputs-file', 'o.json', '--app', 'out', '--stack', 'S'], { outputsFile: 'o.json', app: 'out', stack: 'S' }],
  [['--outputs-file', 'o.json', '--app-id', 'd1', '--branch', 'main'], { outputsFile: 'o.json', appId: 'd1', branch: 'main' }],
])('generate %j is accepted', (args, expected) => {
  expect(parseRebuildArgs(args, {})).toMatchObject(expected);
});
