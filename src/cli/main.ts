#!/usr/bin/env node
/**
 * `vendor-outputs`: argument dispatch only. It loads no command module (and so never
 * aws-cdk-lib) until a command is chosen.
 */
import * as path from 'path';
import { asCommandError, CliError, Command, UsageError } from './command';
import { readJsonFile } from '../outputs/cdk-free/json-file';

/** A command as the overview lists it: its summary lives here only, so listing loads no command. */
interface CommandEntry {
  readonly name: string;
  /** One line for the command list. */
  readonly summary: string;
  /** Module (relative to this file) that exports `command`. */
  readonly module: string;
}

export const COMMANDS: readonly CommandEntry[] = [
  { name: 'validate', summary: 'Check vendor_outputs.json files against the schema', module: './validate' },
  { name: 'generate', summary: 'Rebuild vendor_outputs.json from a deployed stack (or offline from deploy outputs)', module: './generate' },
  { name: 'diff', summary: 'Show what generate would change in a local vendor_outputs.json (exit 1 when stale)', module: './diff' },
  { name: 'init', summary: "Add vendor_outputs.json to a project's .gitignore", module: './init' },
  { name: 'stage', summary: 'Force-add vendor_outputs.json, run a build command, then unstage it', module: './stage' },
  { name: 'serve', summary: 'Serve the REST APIs of a synthesized app on 127.0.0.1', module: './serve' },
  { name: 'sandbox', summary: 'Synthesize a CDK app, serve its REST APIs, write vendor_outputs.json; reload on change', module: './sandbox' },
  { name: 'test-invoke', summary: "Send one request to a REST API, as the console's TEST does", module: './test-invoke' },
  { name: 'token', summary: "Print a user pool token that the local API's Cognito authorizers accept", module: './token' },
];

function version(): string {
  const pkg = readJsonFile(path.join(__dirname, '..', '..', 'package.json')) as { version: string };
  return pkg.version;
}

function overview(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    'Usage: vendor-outputs <command> [options]',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Options:',
    '  -h, --help     Show help (also: vendor-outputs <command> --help)',
    '  -v, --version  Show the version',
    '',
    'Example:',
    '  vendor-outputs validate vendor_outputs.json',
  ].join('\n');
}

function loadCommand(entry: CommandEntry): Command {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const loaded: { command: Command } = require(entry.module);
  return loaded.command;
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '-h' || name === '--help' || name === 'help') {
    process.stdout.write(`${overview()}\n`);
    return name === undefined ? 2 : 0;
  }
  if (name === '-v' || name === '--version') {
    process.stdout.write(`${version()}\n`);
    return 0;
  }
  const entry = COMMANDS.find((c) => c.name === name);
  if (entry === undefined) {
    process.stderr.write(`vendor-outputs: unknown command '${name}'; commands: ${COMMANDS.map((c) => c.name).join(', ')}\n`);
    return 2;
  }
  const command = loadCommand(entry);
  // `stage -- cmd --help` must reach cmd, so only options before `--` ask for help.
  const own = rest.includes('--') ? rest.slice(0, rest.indexOf('--')) : rest;
  if (own.includes('--help') || own.includes('-h')) {
    const details = command.helpDetails?.(own) ?? [];
    process.stdout.write(`${[command.help, ...details].join('\n')}\n`);
    return 0;
  }
  try {
    return await command.run(rest);
  } catch (thrown) {
    const error = asCommandError(thrown);
    if (error instanceof UsageError) {
      process.stderr.write(`vendor-outputs ${name}: ${error.message}\nRun 'vendor-outputs ${name} --help' for usage.\n`);
      return 2;
    }
    if (error instanceof CliError) {
      process.stderr.write(`vendor-outputs ${name}: ${error.message}\n`);
      return error.exitCode;
    }
    throw error;
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => { process.exitCode = code; },
    (error) => {
      process.stderr.write(`vendor-outputs: unexpected error: ${error?.stack ?? error}\n`);
      process.exitCode = 1;
    },
  );
}
