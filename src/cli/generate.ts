/**
 * `vendor-outputs generate`: rebuilds the final vendor_outputs.json after deploy, from the
 * deployed stack (through CloudFormation) or offline from `cdk deploy --outputs-file` plus the
 * cloud assembly. Loads no aws-cdk-lib; loads the AWS SDK only when it calls AWS.
 */
import { AssemblyStack, readCloudAssembly, readTemplate } from './assembly/cloud-assembly';
import { CliError, Command, parseOptions, ParsedOptions, UsageError } from './command';
import { CloudFormationReader, DeployedStack } from './generate/cloudformation';
import { selectByIdentity } from './generate/identity';
import { DeployOutputs, readOutputsFile } from './generate/outputs-file';
import { carriedFromMetadata, rebuildAndValidate, summary, writeDocument } from './generate/rebuild';
import { checkStackStatus } from './generate/stack-status';
import { ClientConfigFormat, clientConfigFormat } from './outputs-format/client-config-format';
import { CarriedDocument, hasCarriedDocument, METADATA_KEY } from '../outputs/carriage';
import { OUTPUTS_FILE_NAME } from '../outputs/file-names';
import { APP_ID_TAG, BRANCH_TAG } from '../outputs/identity-tags';

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
}

/** Checks the option combinations; throws UsageError (exit 2) for a bad one. */
export function parseGenerateArgs(args: string[]): GenerateRequest {
  const { values } = parseOptions(args, OPTIONS);
  const stack = nonEmpty(values, 'stack');
  const appId = nonEmpty(values, 'app-id');
  const branch = nonEmpty(values, 'branch');
  const outputsFile = nonEmpty(values, 'outputs-file');
  const app = nonEmpty(values, 'app');
  const region = nonEmpty(values, 'region');
  const profile = nonEmpty(values, 'profile');

  if ((appId === undefined) !== (branch === undefined)) {
    throw new UsageError(appId === undefined ? '--branch needs --app-id ID' : '--app-id needs --branch NAME');
  }
  if (appId !== undefined && stack !== undefined) {
    throw new UsageError('give either --stack NAME or --app-id ID --branch NAME, not both');
  }
  if (outputsFile === undefined) {
    if (app !== undefined) {
      throw new UsageError('--app DIR is for offline mode: add --outputs-file FILE (the JSON of cdk deploy --outputs-file)');
    }
    if (stack === undefined && appId === undefined) {
      throw new UsageError('say which stack: --stack NAME, --app-id ID --branch NAME, or --outputs-file FILE (offline)');
    }
  } else if (region !== undefined || profile !== undefined) {
    throw new UsageError(`--${region !== undefined ? 'region' : 'profile'} has no effect with --outputs-file: offline mode makes no AWS call`);
  }
  const format = clientConfigFormat(values.format);
  return { stack, appId, branch, outputsFile, app: app ?? 'cdk.out', outDir: nonEmpty(values, 'out-dir') ?? '.', region, profile, format, notices: [] };
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
}

/** Offline: the stack's template from the assembly, its outputs from the outputs file. */
export function rebuildOffline(request: GenerateRequest, outputsFile: string): Rebuilt {
  const outputs = readOutputsFile(outputsFile);
  const stacks = readCloudAssembly(request.app).stacks;
  if (stacks.length === 0) {
    throw new CliError(`${request.app} has no stacks (manifest.json lists no aws:cloudformation:stack artifact)`);
  }
  const stack = selectAssemblyStack(request, stacks, outputs);
  const where = `stack ${stack.stackName}`;
  const carried = carriedFromMetadata(readTemplate(stack).Metadata, where);
  const stackOutputs = Object.hasOwn(outputs, stack.stackName) ? outputs[stack.stackName] : undefined;
  if (stackOutputs === undefined && carried.pending.length > 0) {
    const listed = Object.keys(outputs);
    throw new CliError(`${outputsFile} has no outputs for ${where} (it has: ${listed.length > 0 ? listed.join(', ') : 'none'}), `
      + `which carries ${carried.pending.length} deploy-time value(s) (${carried.pending.map((e) => e.pointer).join(', ')}); `
      + `deploy it with 'cdk deploy ${stack.stackName} --outputs-file ${outputsFile}'`);
  }
  return { where, carried, document: rebuildAndValidate(carried, stackOutputs ?? {}, where), warnings: [] };
}

function selectAssemblyStack(request: GenerateRequest, stacks: readonly AssemblyStack[], outputs: DeployOutputs): AssemblyStack {
  const names = (list: readonly AssemblyStack[]) => list.map((s) => s.stackName).join(', ');
  const { stack: wanted, appId, branch } = request;
  if (wanted !== undefined) {
    const found = stacks.find((s) => s.stackName === wanted) ?? stacks.find((s) => s.artifactId === wanted || s.displayName === wanted);
    if (found === undefined) {
      throw new CliError(`stack ${wanted} not found in ${request.app}; its stacks: ${names(stacks)}`);
    }
    return found;
  }
  if (appId !== undefined && branch !== undefined) {
    return selectByIdentity(stacks, appId, branch, `in ${request.app}`);
  }
  const carrying = stacks.filter((s) => hasCarriedDocument(readTemplate(s).Metadata));
  if (carrying.length === 0) {
    throw new CliError(`no stack in ${request.app} was synthesized with cdk-vendor-outputs (no '${METADATA_KEY}' template Metadata); its stacks: ${names(stacks)}`);
  }
  if (carrying.length === 1) {
    return carrying[0];
  }
  const deployed = carrying.filter((s) => Object.hasOwn(outputs, s.stackName));
  if (deployed.length === 1) {
    return deployed[0];
  }
  throw new CliError(`several stacks in ${request.app} carry vendor outputs: ${names(deployed.length > 1 ? deployed : carrying)}; pick one with --stack NAME`);
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
    '  cdk deploy --outputs-file outputs.json && vendor-outputs generate --outputs-file outputs.json --app cdk.out',
  ].join('\n'),
  async run(args) {
    const request = parseGenerateArgs(args);
    for (const notice of request.notices ?? []) {
      process.stderr.write(`vendor-outputs generate: ${notice}\n`);
    }
    const rebuilt = request.outputsFile !== undefined ? rebuildOffline(request, request.outputsFile) : await rebuildOnline(request);
    for (const warning of rebuilt.warnings) {
      process.stderr.write(`vendor-outputs generate: warning: ${warning}\n`);
    }
    const file = writeDocument(request.outDir, rebuilt.document, request.format);
    process.stdout.write(`${file}\n`);
    process.stderr.write(`${summary(rebuilt.where, rebuilt.carried, rebuilt.document)}; wrote ${file}\n`);
    return 0;
  },
};
