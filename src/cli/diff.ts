/**
 * `vendor-outputs diff`: what `generate` would change in a local client configuration, for CI
 * steps that catch a stale file. It rebuilds the document exactly as generate does (same arguments,
 * same code) and writes nothing. Loads no aws-cdk-lib; loads the AWS SDK only when it calls AWS.
 */
import * as path from 'path';
import { CliError, Command } from './command';
import { parseDiffArgs } from './diff/arguments';
import { changeLines, changeReport, Comparison, isEqual } from './diff/change-report';
import { checkNesting, readLocalFile } from './diff/local-file';
import { CREDENTIAL_WORDS } from './diff/secret-values';
import { documentChanges } from './document-diff/document-changes';
import { ClientConfigFormat, clientConfigFormat } from './outputs-format/client-config-format';
import { rebuild } from './rebuild/rebuild';
import { OUTPUTS_FILE_NAME } from '../outputs/cdk-free/file-names';

const NAME = 'vendor-outputs diff';

export const command: Command = {
  name: 'diff',
  help: [
    'Usage: vendor-outputs diff --stack NAME [--region REGION] [--profile NAME] [--format json|dart] [--json] [FILE]',
    '       vendor-outputs diff --app-id ID --branch NAME [--region REGION] [--profile NAME] [...] [FILE]',
    '       vendor-outputs diff --outputs-file OUTPUTS [--app DIR] [--stack NAME | --app-id ID --branch NAME] [...] [FILE]',
    '',
    `Compares a local client configuration FILE (default: ./${OUTPUTS_FILE_NAME}, or ./vendor_outputs.dart`,
    'with --format dart) with what `vendor-outputs generate` would write now with the same options, and',
    'writes nothing. Which stack (also from a hosted build\'s environment), offline mode, --region,',
    "--profile and --format work as for generate (see 'vendor-outputs generate --help').",
    'A FILE ending in .dart is read as dart when --format is not given.',
    '',
    'Prints one line per change on stdout, in the order of the generated document:',
    '  + /storage/bucket_name: "new"                   generate adds the value',
    '  - /geo: {"vendor_region":"us-east-1"}           generate removes it',
    '  ~ /data/url: "old" -> "new"                     generate changes it',
    '  ! /auth: key order differs (generate writes: a, b)',
    '  ! (layout): ...                                 same values, other whitespace, indentation, escapes',
    'A value is shown at the highest pointer where it differs; long values are shortened.',
    'Secrets are never shown, only that they changed: a value whose key, or a key above it, names a',
    `credential (its last words are one of ${CREDENTIAL_WORDS.slice(0, 5).join(', ')},`,
    `${CREDENTIAL_WORDS.slice(5).join(', ')}, or a plural) shows as (secret); data.api_key is one.`,
    '',
    'Options:',
    '  --json                Print the changes as one JSON document instead:',
    '                        {"equal":false,"file":"/abs/vendor_outputs.json","missing":false,',
    '                         "changes":[{"op":"replace","path":"/data/url","old":"...","new":"..."}]}',
    '                        op: add, remove, replace, order or layout; a secret has "secret":true, no value.',
    '',
    'Exit status:',
    '  0  FILE is up to date: byte for byte what generate would write.',
    '  1  FILE is stale: generate would change it (also when FILE is missing: every value is an addition).',
    '  1  could not compare (stderr says "cannot compare: ..."): FILE is not valid JSON (FILE:LINE:COLUMN)',
    '     or not what --format writes, or rebuilding failed (the errors of generate: stack not found, ...).',
    '  2  usage error (--out-dir, two FILEs, a bad --format, --app-id without --branch, ...).',
    '',
    'Examples:',
    '  vendor-outputs diff --stack MyBackend',
    '  vendor-outputs diff --stack MyBackend || { echo "stale: run vendor-outputs generate"; exit 1; }',
    '  vendor-outputs diff --outputs-file outputs.json --app cdk.out src/vendor_outputs.json',
    '  vendor-outputs diff --app-id d1a2b3c4 --branch main --format dart --json lib/vendor_outputs.dart',
  ].join('\n'),
  async run(args) {
    const request = parseDiffArgs(args);
    for (const notice of request.generate.notices ?? []) {
      process.stderr.write(`${NAME}: ${notice}\n`);
    }
    const format = request.formatGiven || request.file === undefined || !request.file.endsWith('.dart')
      ? request.generate.format ?? clientConfigFormat('json')
      : clientConfigFormat('dart');
    const file = request.file ?? format.fileName;

    const rebuilt = await cannotCompare(() => rebuild(request.generate));
    for (const notice of rebuilt.notices ?? []) {
      process.stderr.write(`${NAME}: ${notice}\n`);
    }
    for (const warning of rebuilt.warnings) {
      process.stderr.write(`${NAME}: warning: ${warning}\n`);
    }
    const comparison = await cannotCompare(async () => compare(file, format, rebuilt.document));

    if (request.json) {
      process.stdout.write(`${JSON.stringify(changeReport(comparison, path.resolve(file)), null, 2)}\n`);
    } else {
      const lines = changeLines(comparison);
      process.stdout.write(lines.map((line) => `${line}\n`).join(''));
    }
    process.stderr.write(`${NAME}: ${verdict(comparison, rebuilt.where)}\n`);
    return isEqual(comparison) ? 0 : 1;
  },
};

/** Compares the local file with the text generate would write for `generated`. */
function compare(file: string, format: ClientConfigFormat, generated: Record<string, unknown>): Comparison {
  const expected = format.render(generated);
  const text = readLocalFile(file);
  if (text === undefined) {
    return { file, missing: true, changes: documentChanges({}, generated), layoutDiffers: false };
  }
  if (text === expected) {
    return { file, missing: false, changes: [], layoutDiffers: false };
  }
  const local = format.parse(text, file);
  checkNesting(local, file);
  const changes = documentChanges(local, generated);
  // The values as the file holds them, written as generate writes: any other text is layout.
  const layoutDiffers = text !== format.render(local as Record<string, unknown>);
  return { file, missing: false, changes, layoutDiffers };
}

/** The one-line summary for stderr; "stale" and "up to date" never read like "cannot compare". */
function verdict(comparison: Comparison, where: string): string {
  if (comparison.missing) {
    return `${comparison.file} is missing: generate would create it (${where})`;
  }
  if (isEqual(comparison)) {
    return `${comparison.file} is up to date (${where})`;
  }
  const count = comparison.changes.length + (comparison.layoutDiffers ? 1 : 0);
  return `${comparison.file} is stale: generate would change it (${count} difference(s), ${where})`;
}

/** Failures before a verdict exit 1 with "cannot compare: ...", never read as "stale". */
async function cannotCompare<T>(step: () => Promise<T> | T): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof CliError) {
      throw new CliError(`cannot compare: ${error.message}`, 1);
    }
    throw error;
  }
}
