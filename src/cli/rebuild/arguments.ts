/**
 * The arguments that say which stack to rebuild from (`--stack`, `--app-id`/`--branch`, the
 * hosted build's environment, offline `--outputs-file`/`--app`) and how (`--region`, `--profile`,
 * `--format`, `--out-dir`): `generate` reads them, and `diff` reads the same ones through this
 * parser, so both commands accept and refuse the same things with the same messages.
 */
import type * as ProjectAppId from './project-app-id';
import { RebuildRequest } from './rebuild-request';
import { appIdPlaces, branchPlaces, Environment, FoundValue, hostedIdentity, HostedIdentity } from '../../outputs/cdk-free/hosted-build';
import { parseOptions, ParsedOptions, UsageError } from '../command';
import { clientConfigFormat } from '../outputs-format/client-config-format';

/** The options of generate, as util.parseArgs takes them (diff accepts the same ones). */
export const REBUILD_OPTIONS = {
  'stack': { type: 'string' },
  'app-id': { type: 'string' },
  'branch': { type: 'string' },
  'outputs-file': { type: 'string' },
  'app': { type: 'string' },
  'out-dir': { type: 'string' },
  'region': { type: 'string' },
  'profile': { type: 'string' },
  'format': { type: 'string' },
} as const;

/**
 * Checks the option combinations; throws UsageError (exit 2) for a bad one. Without `--stack`, the
 * app id and branch not given as flags come from a hosted build's environment (`env`, see
 * src/outputs/hosted-build.ts) and the app id also from `projectDir`/cdk.json.
 */
export function parseRebuildArgs(args: string[], env: Environment = process.env, projectDir: string = process.cwd()): RebuildRequest {
  const { values } = parseOptions(args, REBUILD_OPTIONS);
  const stack = nonEmpty(values, 'stack');
  const appIdFlag = nonEmpty(values, 'app-id');
  const branchFlag = nonEmpty(values, 'branch');
  const outputsFile = nonEmpty(values, 'outputs-file');
  const app = nonEmpty(values, 'app');
  const region = nonEmpty(values, 'region');
  const profile = nonEmpty(values, 'profile');

  if (stack !== undefined && (appIdFlag !== undefined || branchFlag !== undefined)) {
    throw new UsageError('give either --stack NAME or --app-id ID --branch NAME, not both');
  }
  if (outputsFile === undefined) {
    if (app !== undefined) {
      throw new UsageError('--app DIR is for offline mode: add --outputs-file FILE (the JSON of cdk deploy --outputs-file)');
    }
  } else if (region !== undefined || profile !== undefined) {
    throw new UsageError(`--${region !== undefined ? 'region' : 'profile'} has no effect with --outputs-file: offline mode makes no AWS call`);
  }
  const format = clientConfigFormat(values.format);
  const common = { outputsFile, app: app ?? 'cdk.out', outDir: nonEmpty(values, 'out-dir') ?? '.', region, profile, format };
  if (stack !== undefined) {
    return { ...common, stack, notices: [] };
  }
  const found = completeIdentity(appIdFlag, branchFlag, env, projectDir);
  if (outputsFile !== undefined && appIdFlag === undefined && branchFlag === undefined) {
    // Offline, the stack is usually clear from the assembly and the outputs file; a hosted
    // build's identity only chooses among several stacks, so a partial one is no error here.
    const hosted = found.appId && found.branch
      ? { appId: found.appId.value, branch: found.branch.value, description: describe(found.appId, found.branch) }
      : undefined;
    return { ...common, environmentIdentity: hosted, notices: [] };
  }
  if (found.appId === undefined || found.branch === undefined) {
    throw new UsageError(missingIdentityMessage(found));
  }
  const fromEnvironment = found.appId.source !== '--app-id' || found.branch.source !== '--branch';
  return {
    ...common,
    appId: found.appId.value,
    branch: found.branch.value,
    notices: fromEnvironment ? [`using ${describe(found.appId, found.branch)}`] : [],
  };
}

/** The flags, then the hosted build's environment, then the project's configured app id. */
function completeIdentity(appIdFlag: string | undefined, branchFlag: string | undefined, env: Environment, projectDir: string): HostedIdentity {
  const hosted = hostedIdentity(env);
  const branch = branchFlag !== undefined ? { value: branchFlag, source: '--branch' } : hosted.branch;
  let appId = appIdFlag !== undefined ? { value: appIdFlag, source: '--app-id' } : hosted.appId;
  // cdk.json is read only when it can complete a pair, so a broken one never gets in the way otherwise.
  if (appId === undefined && branch !== undefined) {
    appId = projectAppIdModule().projectAppId(projectDir);
  }
  return { appId, branch };
}

/** Loaded only when cdk.json is read or named: it reads JSON with line and column positions, which every other run of generate does without. */
function projectAppIdModule(): typeof ProjectAppId {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./project-app-id');
}

function describe(appId: FoundValue, branch: FoundValue): string {
  return `app id ${appId.value} (${appId.source}) and branch ${branch.value} (${branch.source})`;
}

/** What is missing, and where it was looked for. */
function missingIdentityMessage(found: HostedIdentity): string {
  const { appId, branch } = found;
  const appIdLooked = `looked at ${appIdPlaces(projectAppIdModule().PROJECT_APP_ID_PLACE)}`;
  const branchLooked = `looked at ${branchPlaces()}`;
  if (appId === undefined && branch === undefined) {
    return 'say which stack: --stack NAME, --app-id ID --branch NAME, or --outputs-file FILE (offline)';
  }
  if (branch === undefined) {
    return appId!.source === '--app-id'
      ? `--app-id needs --branch NAME: no branch in the environment either (${branchLooked})`
      : `found app id ${appId!.value} in ${appId!.source} but no branch: give --branch NAME or set VENDOR_OUTPUTS_BRANCH (${branchLooked})`;
  }
  return branch.source === '--branch'
    ? `--branch needs --app-id ID: no app id in the environment either (${appIdLooked})`
    : `found branch ${branch.value} in ${branch.source} but no app id: give --app-id ID or set VENDOR_OUTPUTS_APP_ID (${appIdLooked})`;
}

function nonEmpty(values: ParsedOptions<typeof REBUILD_OPTIONS>, name: keyof typeof REBUILD_OPTIONS): string | undefined {
  const value = values[name];
  if (value !== undefined && value.trim() === '') {
    throw new UsageError(`--${name} needs a non-empty value`);
  }
  return value;
}
