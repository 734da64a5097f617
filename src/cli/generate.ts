/**
 * `vendor-outputs generate`: rebuilds the final vendor_outputs.json after deploy, from the
 * deployed stack (through CloudFormation) or offline from `cdk deploy --outputs-file` plus the
 * cloud assembly. Loads no aws-cdk-lib; loads the AWS SDK only when it calls AWS.
 */
import { CliError, Command, OptionValues, parseOptions, UsageError } from './command';
import { CarriedDocument, METADATA_KEY } from '../outputs/carriage';
import { AssemblyStack, listAssemblyStacks, readTemplate } from './generate/assembly';
import { CloudFormationReader, DeployedStack } from './generate/cloudformation';
import { selectByIdentity } from './generate/identity';
import { readOutputsFile } from './generate/outputs-file';
import { carriedFromMetadata, rebuildAndValidate, summary, writeDocument } from './generate/rebuild';
import { checkStackStatus } from './generate/stack-status';

const OPTIONS = {
  'stack': { type: 'string' },
  'app-id': { type: 'string' },
  'branch': { type: 'string' },
  'outputs-file': { type: 'string' },
  'app': { type: 'string' },
  'out-dir': { type: 'string' },
  'region': { type: 'string' },
  'profile': { type: 'string' },
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
}

/** Checks the option combinations; throws UsageError (exit 2) for a bad one. */
export function parseGenerateArgs(args: string[]): GenerateRequest {
  const { values } = parseOptions(args, OPTIONS);
  const text = (name: keyof typeof OPTIONS): string | undefined => nonEmpty(values, name);
  const stack = text('stack');
  const appId = text('app-id');
  const branch = text('branch');
  const outputsFile = text('outputs-file');
  const app = text('app');
  const region = text('region');
  const profile = text('profile');

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
  return { stack, appId, branch, outputsFile, app: app ?? 'cdk.out', outDir: text('out-dir') ?? '.', region, profile };
}

function nonEmpty(values: OptionValues, name: string): string | undefined {
  const value = values[name];
  if (value === undefined) {
    return undefined;
  }
  if (typeof value !== 'string' || value.trim() === '') {
    throw new UsageError(`--${name} needs a non-empty value`);
  }
  return value;
}

/** The result of a run, before it is written. */
interface Rebuilt {
  readonly where: string;
  readonly carried: CarriedDocument;
  readonly document: Record<string, unknown>;
  readonly warnings: string[];
}

/** Offline: the stack's template from the assembly, its outputs from the outputs file. */
export function rebuildOffline(request: GenerateRequest): Rebuilt {
  const outputsFile = request.outputsFile!;
  const outputs = readOutputsFile(outputsFile);
  const stacks = listAssemblyStacks(request.app);
  if (stacks.length === 0) {
    throw new CliError(`${request.app} has no stacks (manifest.json lists no aws:cloudformation:stack artifact)`);
  }
  const stack = selectAssemblyStack(request, stacks, outputs);
  const where = `stack ${stack.name}`;
  const carried = carriedFromMetadata(readTemplate(stack).Metadata, where);
  const stackOutputs = outputs[stack.name];
  if (stackOutputs === undefined && carried.pending.length > 0) {
    const listed = Object.keys(outputs);
    throw new CliError(`${outputsFile} has no outputs for ${where} (it has: ${listed.length > 0 ? listed.join(', ') : 'none'}), `
      + `which carries ${carried.pending.length} deploy-time value(s) (${carried.pending.map((e) => e.pointer).join(', ')}); `
      + `deploy it with 'cdk deploy ${stack.name} --outputs-file ${outputsFile}'`);
  }
  return { where, carried, document: rebuildAndValidate(carried, stackOutputs ?? {}, where), warnings: [] };
}

function selectAssemblyStack(request: GenerateRequest, stacks: AssemblyStack[], outputs: Record<string, unknown>): AssemblyStack {
  const names = (list: AssemblyStack[]) => list.map((s) => s.name).join(', ');
  if (request.stack !== undefined) {
    const wanted = request.stack;
    const found = stacks.find((s) => s.name === wanted) ?? stacks.find((s) => s.artifactId === wanted || s.displayName === wanted);
    if (found === undefined) {
      throw new CliError(`stack ${wanted} not found in ${request.app}; its stacks: ${names(stacks)}`);
    }
    return found;
  }
  if (request.appId !== undefined) {
    return selectByIdentity(stacks, request.appId, request.branch!, `in ${request.app}`);
  }
  const carrying = stacks.filter((s) => {
    const metadata = readTemplate(s).Metadata;
    return typeof metadata === 'object' && metadata !== null && METADATA_KEY in metadata;
  });
  if (carrying.length === 0) {
    throw new CliError(`no stack in ${request.app} was synthesized with cdk-vendor-outputs (no '${METADATA_KEY}' template Metadata); its stacks: ${names(stacks)}`);
  }
  if (carrying.length === 1) {
    return carrying[0];
  }
  const deployed = carrying.filter((s) => s.name in outputs);
  if (deployed.length === 1) {
    return deployed[0];
  }
  throw new CliError(`several stacks in ${request.app} carry vendor outputs: ${names(deployed.length > 1 ? deployed : carrying)}; pick one with --stack NAME`);
}

/** Online: the deployed stack through CloudFormation. */
export async function rebuildOnline(request: GenerateRequest): Promise<Rebuilt> {
  const reader = new CloudFormationReader({ region: request.region, profile: request.profile });
  let stack: DeployedStack;
  if (request.stack !== undefined) {
    stack = await reader.describeStack(request.stack);
  } else {
    const region = await reader.region();
    const roots = (await reader.listStacks()).filter((s) => !s.nested);
    stack = selectByIdentity(roots, request.appId!, request.branch!, `in region ${region}`);
  }
  const warning = checkStackStatus(stack.name, stack.status);
  const where = `stack ${stack.name}`;
  const carried = carriedFromMetadata(await reader.templateMetadata(stack), where);
  return { where, carried, document: rebuildAndValidate(carried, stack.outputs, where), warnings: warning ? [warning] : [] };
}

export const command: Command = {
  name: 'generate',
  summary: 'Rebuild vendor_outputs.json from a deployed stack (or offline from deploy outputs)',
  help: [
    'Usage: vendor-outputs generate --stack NAME [--region REGION] [--profile NAME] [--out-dir DIR]',
    '       vendor-outputs generate --app-id ID --branch NAME [--region REGION] [--profile NAME] [--out-dir DIR]',
    '       vendor-outputs generate --outputs-file FILE [--app DIR] [--stack NAME | --app-id ID --branch NAME] [--out-dir DIR]',
    '',
    'Rebuilds the final vendor_outputs.json of a backend built with cdk-vendor-outputs: the document',
    "skeleton comes from the stack's template Metadata, the deploy-time values from its outputs.",
    'The result is validated against the schema before anything is written; on any error nothing is',
    'written and an existing vendor_outputs.json is left as it was.',
    '',
    'Which stack:',
    '  --stack NAME          The deployed CloudFormation stack (name or stack id).',
    '  --app-id ID           With --branch: the stack tagged at synth with',
    '  --branch NAME           BackendIdentity.tag(stack, { appId, branch })',
    '                          (stack tags vendor-outputs:app-id and vendor-outputs:branch).',
    '',
    'Offline (no AWS call):',
    '  --outputs-file FILE   The JSON written by `cdk deploy --outputs-file FILE`.',
    '  --app DIR             The cloud assembly the stack was deployed from (default: cdk.out).',
    '                        With several stacks, pick one with --stack or --app-id/--branch.',
    '',
    'Other options:',
    '  --out-dir DIR         Where vendor_outputs.json goes (default: current directory; created if missing).',
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
    '  cdk deploy --outputs-file outputs.json && vendor-outputs generate --outputs-file outputs.json --app cdk.out',
  ].join('\n'),
  async run(args) {
    const request = parseGenerateArgs(args);
    const rebuilt = request.outputsFile !== undefined ? rebuildOffline(request) : await rebuildOnline(request);
    for (const warning of rebuilt.warnings) {
      process.stderr.write(`vendor-outputs generate: warning: ${warning}\n`);
    }
    const file = writeDocument(request.outDir, rebuilt.document);
    process.stdout.write(`${file}\n`);
    process.stderr.write(`${summary(rebuilt.where, rebuilt.carried, rebuilt.document)}; wrote ${file}\n`);
    return 0;
  },
};
