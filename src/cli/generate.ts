/**
 * `vendor-outputs generate`: rebuilds the final vendor_outputs.json after deploy, from the
 * deployed stack (through CloudFormation) or offline from `cdk deploy --outputs-file` plus the
 * cloud assembly. Loads no aws-cdk-lib; loads the AWS SDK only when it calls AWS.
 */
import { AssemblyStack, readCloudAssembly, readTemplate } from './assembly/cloud-assembly';
import { CliError, Command, parseOptions, ParsedOptions, UsageError } from './command';
import { CloudFormationReader, DeployedStack } from './generate/cloudformation';
import { selectByIdentity, taggedWith } from './generate/identity';
import { DeployOutputs, readOutputsFile } from './generate/outputs-file';
import type * as ProjectAppId from './generate/project-app-id';
import { carriedFromMetadata, rebuildAndValidate, summary, writeDocument } from './generate/rebuild';
import { checkStackStatus } from './generate/stack-status';
import { ClientConfigFormat, clientConfigFormat } from './outputs-format/client-config-format';
import { CarriedDocument, hasCarriedDocument, METADATA_KEY } from '../outputs/cdk-free/carriage';
import { OUTPUTS_FILE_NAME } from '../outputs/cdk-free/file-names';
import { APP_ID_CONTEXT_KEY, APP_ID_VARIABLES, appIdPlaces, BRANCH_VARIABLES, branchPlaces, Environment, FoundValue, hostedIdentity, HostedIdentity } from '../outputs/cdk-free/hosted-build';
import { APP_ID_TAG, BRANCH_TAG } from '../outputs/cdk-free/identity-tags';

/** The options of generate, as util.parseArgs takes them (diff accepts the same ones). */
export const OPTIONS = {
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

/** What the arguments ask for, once checked. */
export interface GenerateRequest {
  readonly stack?: string;
  readonly appId?: string;
  readonly branch?: string;
  /** Set in offline mode. */
  readonly outputsFile?: string;
  readonly app: string;
  readonly outDir: string;
  readonly region?: string;
  readonly profile?: string;
  /** `--format`: the client configuration's file and content (json when absent). */
  readonly format?: ClientConfigFormat;
  /** Lines for stderr about how the request was completed (for example from the environment). */
  readonly notices?: readonly string[];
  /**
   * Offline with no stack named: the app id and branch of a hosted build's environment, used only
   * to choose among several stacks that carry vendor outputs.
   */
  readonly environmentIdentity?: EnvironmentIdentity;
}

/** An app id and branch found in the environment; `description` names the variables. */
export interface EnvironmentIdentity {
  readonly appId: string;
  readonly branch: string;
  readonly description: string;
}

/**
 * Checks the option combinations; throws UsageError (exit 2) for a bad one. Without `--stack`, the
 * app id and branch not given as flags come from a hosted build's environment (`env`, see
 * src/outputs/hosted-build.ts) and the app id also from `projectDir`/cdk.json.
 */
export function parseGenerateArgs(args: string[], env: Environment = process.env, projectDir: string = process.cwd()): GenerateRequest {
  const { values } = parseOptions(args, OPTIONS);
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
  return require('./generate/project-app-id');
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

function nonEmpty(values: ParsedOptions<typeof OPTIONS>, name: keyof typeof OPTIONS): string | undefined {
  const value = values[name];
  if (value !== undefined && value.trim() === '') {
    throw new UsageError(`--${name} needs a non-empty value`);
  }
  return value;
}

/** The result of a run, before it is written. */
export interface Rebuilt {
  readonly where: string;
  readonly carried: CarriedDocument;
  readonly document: Record<string, unknown>;
  readonly warnings: string[];
  /** How the stack was chosen, when that is worth saying (offline, by the environment's identity). */
  readonly notices?: readonly string[];
}

/** Offline: the stack's template from the assembly, its outputs from the outputs file. */
export function rebuildOffline(request: GenerateRequest, outputsFile: string): Rebuilt {
  const outputs = readOutputsFile(outputsFile);
  const stacks = readCloudAssembly(request.app).stacks;
  if (stacks.length === 0) {
    throw new CliError(`${request.app} has no stacks (manifest.json lists no aws:cloudformation:stack artifact)`);
  }
  const { stack, notice } = selectAssemblyStack(request, stacks, outputs);
  const where = `stack ${stack.stackName}`;
  const carried = carriedFromMetadata(readTemplate(stack).Metadata, where);
  const stackOutputs = Object.hasOwn(outputs, stack.stackName) ? outputs[stack.stackName] : undefined;
  if (stackOutputs === undefined && carried.pending.length > 0) {
    const listed = Object.keys(outputs);
    throw new CliError(`${outputsFile} has no outputs for ${where} (it has: ${listed.length > 0 ? listed.join(', ') : 'none'}), `
      + `which carries ${carried.pending.length} deploy-time value(s) (${carried.pending.map((e) => e.pointer).join(', ')}); `
      + `deploy it with 'cdk deploy ${stack.stackName} --outputs-file ${outputsFile}'`);
  }
  const document = rebuildAndValidate(carried, stackOutputs ?? {}, where);
  return { where, carried, document, warnings: [], notices: notice ? [notice] : [] };
}

/** The stack an offline run rebuilds, and how it was chosen when that is worth a notice. */
interface AssemblyChoice {
  readonly stack: AssemblyStack;
  readonly notice?: string;
}

function selectAssemblyStack(request: GenerateRequest, stacks: readonly AssemblyStack[], outputs: DeployOutputs): AssemblyChoice {
  const names = (list: readonly AssemblyStack[]) => list.map((s) => s.stackName).join(', ');
  const { stack: wanted, appId, branch } = request;
  if (wanted !== undefined) {
    const found = stacks.find((s) => s.stackName === wanted) ?? stacks.find((s) => s.artifactId === wanted || s.displayName === wanted);
    if (found === undefined) {
      throw new CliError(`stack ${wanted} not found in ${request.app}; its stacks: ${names(stacks)}`);
    }
    return { stack: found };
  }
  if (appId !== undefined && branch !== undefined) {
    return { stack: selectByIdentity(stacks, appId, branch, `in ${request.app}`) };
  }
  const carrying = stacks.filter((s) => hasCarriedDocument(readTemplate(s).Metadata));
  if (carrying.length === 0) {
    throw new CliError(`no stack in ${request.app} was synthesized with cdk-vendor-outputs (no '${METADATA_KEY}' template Metadata); its stacks: ${names(stacks)}`);
  }
  if (carrying.length === 1) {
    return { stack: carrying[0] };
  }
  const deployed = carrying.filter((s) => Object.hasOwn(outputs, s.stackName));
  if (deployed.length === 1) {
    return { stack: deployed[0] };
  }
  const candidates = deployed.length > 1 ? deployed : carrying;
  const hosted = request.environmentIdentity;
  const tagged = hosted ? taggedWith(candidates, hosted.appId, hosted.branch) : [];
  if (hosted && tagged.length === 1) {
    return { stack: tagged[0], notice: `chose stack ${tagged[0].stackName} of ${candidates.length} by ${hosted.description}` };
  }
  const why = hosted ? ` (${tagged.length === 0 ? 'none' : tagged.length} of them tagged with ${hosted.description})` : '';
  throw new CliError(`several stacks in ${request.app} carry vendor outputs: ${names(candidates)}; pick one with --stack NAME${why}`);
}

/** Online: the deployed stack through CloudFormation. */
export async function rebuildOnline(request: GenerateRequest): Promise<Rebuilt> {
  const reader = new CloudFormationReader({ region: request.region, profile: request.profile });
  const { stack: wanted, appId, branch } = request;
  let stack: DeployedStack;
  if (wanted !== undefined) {
    stack = await reader.describeStack(wanted);
  } else if (appId !== undefined && branch !== undefined) {
    const region = await reader.region();
    const roots = (await reader.listStacks()).filter((s) => !s.nested);
    stack = selectByIdentity(roots, appId, branch, `in region ${region}`);
  } else {
    throw new UsageError('say which stack: --stack NAME or --app-id ID --branch NAME');
  }
  const warning = checkStackStatus(stack.stackName, stack.status);
  const where = `stack ${stack.stackName}`;
  const carried = carriedFromMetadata(await reader.templateMetadata(stack), where);
  return { where, carried, document: rebuildAndValidate(carried, stack.outputs, where), warnings: warning ? [warning] : [] };
}

/** `prefix` and the names, comma-separated, over lines that fit a terminal. */
function wrapList(prefix: string, names: readonly string[]): string[] {
  const lines: string[] = [];
  let line = prefix;
  for (const [i, name] of names.entries()) {
    const item = i < names.length - 1 ? `${name},` : `${name}.`;
    if (line.length + item.length + 1 > 96 && line.trim() !== '') {
      lines.push(line.trimEnd());
      line = ' '.repeat(prefix.length);
    }
    line += `${item} `;
  }
  lines.push(line.trimEnd());
  return lines;
}

export const command: Command = {
  name: 'generate',
  help: [
    'Usage: vendor-outputs generate --stack NAME [--region REGION] [--profile NAME] [--out-dir DIR]',
    '       vendor-outputs generate --app-id ID --branch NAME [--region REGION] [--profile NAME] [--out-dir DIR]',
    '       vendor-outputs generate --outputs-file FILE [--app DIR] [--stack NAME | --app-id ID --branch NAME] [--out-dir DIR]',
    '',
    `Rebuilds the final ${OUTPUTS_FILE_NAME} of a backend built with cdk-vendor-outputs: the document`,
    "skeleton comes from the stack's template Metadata, the deploy-time values from its outputs.",
    'The result is validated against the schema before anything is written; on any error nothing is',
    `written and an existing ${OUTPUTS_FILE_NAME} is left as it was. A replaced file keeps its mode`,
    '(a chmod 600 file stays 600); when it is a symbolic link, the file it points to is written.',
    'Output values must be exactly what the library deploys (Base64 of UTF-8 text, comma-separated):',
    'an output edited after deploy is refused, naming the output and the JSON pointer it fills.',
    '',
    'Which stack:',
    '  --stack NAME          The deployed CloudFormation stack (name or stack id).',
    '  --app-id ID           With --branch: the stack tagged at synth with',
    '  --branch NAME           BackendIdentity.tag(stack, { appId, branch })',
    `                          (stack tags ${APP_ID_TAG} and ${BRANCH_TAG}).`,
    '',
    'Offline (no AWS call):',
    '  --outputs-file FILE   The JSON written by `cdk deploy --outputs-file FILE`.',
    '  --app DIR             The cloud assembly the stack was deployed from (default: cdk.out).',
    '                        With several stacks, pick one with --stack or --app-id/--branch.',
    '',
    'In hosted CI/CD (no --stack): what --app-id and --branch do not give comes from the build,',
    'first set variable wins (an empty one counts as unset); stderr names the variables used.',
    `  app id: ${APP_ID_VARIABLES.join(', ')}, then ./cdk.json's context "${APP_ID_CONTEXT_KEY}".`,
    ...wrapList('  branch: ', BRANCH_VARIABLES),
    '  (refs/heads/ and refs/tags/ are dropped from CODEBUILD_WEBHOOK_HEAD_REF and the Azure refs.)',
    '  Finding only one of the two is a usage error. Offline, it only chooses among several stacks.',
    '',
    'Other options:',
    `  --out-dir DIR         Where ${OUTPUTS_FILE_NAME} goes (default: current directory; created if missing).`,
    `  --format json|dart    ${OUTPUTS_FILE_NAME} (default), or vendor_outputs.dart for Flutter:`,
    "                        const vendorConfig = r'''{...}'''; (a value holding ''' is refused).",
    '  --region REGION       AWS region (default: the SDK chain: AWS_REGION, profile, ...).',
    '  --profile NAME        AWS profile for credentials and region (default: AWS_PROFILE or default).',
    '',
    'The endpoint can be overridden with AWS_ENDPOINT_URL_CLOUDFORMATION or AWS_ENDPOINT_URL.',
    'Readable stack states: CREATE_COMPLETE, UPDATE_COMPLETE, IMPORT_COMPLETE and the rolled-back',
    'UPDATE_ROLLBACK_COMPLETE / IMPORT_ROLLBACK_COMPLETE (with a warning); in-progress and failed stacks are refused.',
    '',
    'Prints the path of the written file on stdout and a one-line summary on stderr.',
    'Exit status: 0 written, 1 failed (nothing written), 2 usage error.',
    '',
    'Examples:',
    '  vendor-outputs generate --stack MyBackend --region eu-west-1 --out-dir src',
    '  vendor-outputs generate --app-id d1a2b3c4 --branch main',
    '  vendor-outputs generate --stack MyBackend --format dart --out-dir lib',
    '  VENDOR_OUTPUTS_APP_ID=d1a2b3c4 vendor-outputs generate   # in GitHub Actions: branch from GITHUB_REF_NAME',
    '  cdk deploy --outputs-file outputs.json && vendor-outputs generate --outputs-file outputs.json --app cdk.out',
  ].join('\n'),
  async run(args) {
    const request = parseGenerateArgs(args);
    for (const notice of request.notices ?? []) {
      process.stderr.write(`vendor-outputs generate: ${notice}\n`);
    }
    const rebuilt = request.outputsFile !== undefined ? rebuildOffline(request, request.outputsFile) : await rebuildOnline(request);
    for (const notice of rebuilt.notices ?? []) {
      process.stderr.write(`vendor-outputs generate: ${notice}\n`);
    }
    for (const warning of rebuilt.warnings) {
      process.stderr.write(`vendor-outputs generate: warning: ${warning}\n`);
    }
    const file = writeDocument(request.outDir, rebuilt.document, request.format);
    process.stdout.write(`${file}\n`);
    process.stderr.write(`${summary(rebuilt.where, rebuilt.carried, rebuilt.document)}; wrote ${file}\n`);
    return 0;
  },
};
