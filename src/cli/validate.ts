import { CliError, Command, parseOptions, UsageError } from './command';
import { checkFile, PROBLEM_LIMIT } from './validate/check-file';

export const command: Command = {
  name: 'validate',
  help: [
    'Usage: vendor-outputs validate [--allow-pending] FILE...',
    '',
    'Checks each FILE against the vendor_outputs.json schema (JSON Schema draft 2020-12, version 1), and',
    'what JSON.parse would hide: duplicate keys, numbers out of range, bytes that are not UTF-8, a byte',
    'order mark. Prints one line per problem: FILE:LINE:COLUMN: <json-pointer>: <message naming what is',
    `allowed>; at most ${PROBLEM_LIMIT} per file, then how many more.`,
    '',
    'A file written at synth whose values are still pending until deploy ("<pending: ...>") is not a',
    'final file and fails, unless --allow-pending is given.',
    '',
    'Options:',
    '  --allow-pending  Accept values pending until deploy (check a synth-time file in cdk.out)',
    '',
    'Exit status: 0 when every file is valid, 1 when any is invalid, 2 on usage errors or files that',
    'cannot be read (missing, a folder, a FIFO or a device).',
    '',
    'Example:',
    '  vendor-outputs validate vendor_outputs.json',
    '  vendor-outputs validate --allow-pending cdk.out/MyStack.vendor_outputs.json',
  ].join('\n'),
  async run(args) {
    const { values, positionals } = parseOptions(args, { 'allow-pending': { type: 'boolean' } }, true);
    if (positionals.length === 0) {
      throw new UsageError('no FILE given');
    }
    const allowPending = values['allow-pending'] === true;
    let invalid = 0;
    let unreadable = 0;
    let pending = 0;
    for (const file of positionals) {
      try {
        const check = checkFile(file, { allowPending, limit: PROBLEM_LIMIT });
        pending += check.pendingCount;
        if (check.problemCount > 0) {
          invalid++;
          process.stdout.write(`${check.lines.join('\n')}\n`);
        }
      } catch (error) {
        if (!(error instanceof CliError)) {
          throw error;
        }
        unreadable++;
        process.stderr.write(`vendor-outputs validate: ${error.message}\n`);
      }
    }
    if (unreadable > 0) {
      return 2;
    }
    if (invalid === 0) {
      const note = pending > 0 ? ` (${pending} value(s) pending until deploy, accepted by --allow-pending)` : '';
      process.stderr.write(`${positionals.length} file(s) valid${note}\n`);
    }
    return invalid > 0 ? 1 : 0;
  },
};
