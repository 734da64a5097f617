/**
 * `vendor-outputs generate`: rebuilds the final vendor_outputs.json after deploy, from the
 * deployed stack (through CloudFormation) or offline from `cdk deploy --outputs-file` plus the
 * cloud assembly, and writes it. The rebuild is the service in rebuild/, which `diff` and
 * `sandbox` use too. Loads no aws-cdk-lib; loads the AWS SDK only when it calls AWS.
 */
import { Command } from './command';
import { writeDocument } from './generate/write-document';
import { parseRebuildArgs } from './rebuild/arguments';
import { rebuild } from './rebuild/rebuild';
import { Rebuilt } from './rebuild/rebuild-request';
import { summary } from './rebuild/rebuilt-document';
import { OUTPUTS_FILE_NAME } from '../outputs/cdk-free/file-names';
import { APP_ID_CONTEXT_KEY, APP_ID_VARIABLES, BRANCH_VARIABLES } from '../outputs/cdk-free/hosted-build';
import { APP_ID_TAG, BRANCH_TAG } from '../outputs/cdk-free/identity-tags';

const NAME = 'vendor-outputs generate';

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
    const request = parseRebuildArgs(args);
    printNotices(request.notices);
    const rebuilt = await rebuild(request);
    printNotices(rebuilt.notices, rebuilt.warnings);
    const file = writeDocument(request.outDir, rebuilt.document, request.format);
    printWritten(file, rebuilt);
    return 0;
  },
};

/** How the request was completed and how the stack was chosen; then what to look out for. */
function printNotices(notices: readonly string[] = [], warnings: readonly string[] = []): void {
  for (const notice of notices) {
    process.stderr.write(`${NAME}: ${notice}\n`);
  }
  for (const warning of warnings) {
    process.stderr.write(`${NAME}: warning: ${warning}\n`);
  }
}

/** The written file's path on stdout (for scripts), the one-line summary on stderr. */
function printWritten(file: string, rebuilt: Rebuilt): void {
  process.stdout.write(`${file}\n`);
  process.stderr.write(`${summary(rebuilt.where, rebuilt.carried, rebuilt.document)}; wrote ${file}\n`);
}
