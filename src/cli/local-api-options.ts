/**
 * The options of the local API, declared once for every command that starts it (`serve`,
 * `sandbox`, `test-invoke`): their `util.parseArgs` specs, the parser to a typed object, and
 * their `--help` rows. A command spreads the groups that apply to it into its own options.
 */
import { isIP } from 'net';
import { UsageError } from './command';
import { parseCredentials, SigV4Credentials } from './local/auth/sigv4';
import { readEnvVarsFile } from './local/lambda/env-vars';
import { DeployedSource, LocalApiSettings } from './local/local-api-settings';
import { parseApiKeyValue } from './local/rest/api-key-values';

/** Which stacks are read, and what the functions see: every local-API command takes these. */
export const APP_OPTIONS = {
  'stack': { type: 'string', multiple: true },
  'env-vars': { type: 'string' },
  'jwks': { type: 'string' },
  'from-stack': { type: 'string' },
  'outputs-file': { type: 'string' },
  'node': { type: 'string' },
} as const;

/** Where the server listens and what it prints: the commands that serve. */
export const SERVER_OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  quiet: { type: 'boolean' },
} as const;

/** What the gateway lets in (IAM, API keys): the commands that serve. */
export const GATEWAY_OPTIONS = {
  'credentials': { type: 'string' },
  'allow-unsigned': { type: 'boolean' },
  'api-key': { type: 'string', multiple: true },
} as const;

/** Every local-API option, as `serve` and `sandbox` take them. */
export const LOCAL_API_OPTIONS = { ...APP_OPTIONS, ...SERVER_OPTIONS, ...GATEWAY_OPTIONS } as const;

/** The values `util.parseArgs` gives for the local-API options (each may be absent). */
export interface LocalApiOptionValues {
  readonly 'stack'?: string[];
  readonly 'env-vars'?: string;
  readonly 'jwks'?: string;
  readonly 'node'?: string;
  readonly 'port'?: string;
  readonly 'host'?: string;
  readonly 'quiet'?: boolean;
  readonly 'credentials'?: string;
  readonly 'allow-unsigned'?: boolean;
  readonly 'api-key'?: string[];
  readonly 'from-stack'?: string;
  readonly 'outputs-file'?: string;
}

/**
 * Checks and reads the local-API options, in the order `serve` always reported their errors:
 * port, host, credentials, the env-vars file, API keys, then where deployed values come from (read
 * later, by cli/local-deployed-values.ts: reading them may call AWS).
 */
export function parseLocalApiOptions(values: LocalApiOptionValues, env: NodeJS.ProcessEnv): LocalApiSettings {
  const port = values.port === undefined ? 3000 : parsePort(values.port);
  const host = values.host === undefined ? '127.0.0.1' : parseHost(values.host);
  const credentials = credentialsFrom(values.credentials, env);
  const envVars = values['env-vars'] === undefined ? undefined : readEnvVarsFile(values['env-vars']);
  const apiKeys = (values['api-key'] ?? []).map(parseApiKeyValue);
  const deployedSource = deployedSourceOf(values['from-stack'], values['outputs-file'], values.stack);
  return {
    stacks: values.stack ?? [],
    port,
    host,
    quiet: values.quiet === true,
    credentials,
    allowUnsigned: values['allow-unsigned'] === true,
    apiKeys,
    envVars,
    jwks: values.jwks,
    ...(deployedSource !== undefined ? { deployedSource } : {}),
    hostRuntimes: parseNodeChoice(values.node) === 'host',
  };
}

/** `--node runtime` (the default: each function on the Node.js major its runtime names) or `host`. */
export function parseNodeChoice(text: string | undefined): 'runtime' | 'host' {
  if (text === undefined || text === 'runtime' || text === 'host') {
    return text ?? 'runtime';
  }
  throw new UsageError(`--node must be 'runtime' (each function on the Node.js major its runtime names) or 'host' (every function on this machine's Node.js) (got '${text}')`);
}

/** `--from-stack` or `--outputs-file`, not both; never empty. */
export function deployedSourceOf(
  fromStack: string | undefined, outputsFile: string | undefined, stacks: readonly string[] | undefined,
): DeployedSource | undefined {
  if (fromStack !== undefined && outputsFile !== undefined) {
    throw new UsageError('give either --from-stack NAME or --outputs-file FILE, not both');
  }
  if (fromStack !== undefined) {
    if (fromStack.trim() === '') {
      throw new UsageError('--from-stack needs the name of a deployed stack');
    }
    return { kind: 'stack', stack: fromStack };
  }
  if (outputsFile !== undefined) {
    if (outputsFile.trim() === '') {
      throw new UsageError('--outputs-file needs a file (the JSON of cdk deploy --outputs-file)');
    }
    return { kind: 'outputs-file', file: outputsFile, stack: stacks?.length === 1 ? stacks[0] : undefined };
  }
  return undefined;
}

/** The SigV4 key pair: the option, else VENDOR_OUTPUTS_CREDENTIALS, else the AWS_* pair. */
export function credentialsFrom(option: string | undefined, env: NodeJS.ProcessEnv): SigV4Credentials | undefined {
  if (option !== undefined) {
    return parseCredentials(option, '--credentials');
  }
  if (env.VENDOR_OUTPUTS_CREDENTIALS !== undefined && env.VENDOR_OUTPUTS_CREDENTIALS !== '') {
    return parseCredentials(env.VENDOR_OUTPUTS_CREDENTIALS, 'the environment variable VENDOR_OUTPUTS_CREDENTIALS');
  }
  if (env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY) {
    return { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY };
  }
  return undefined;
}

export function parsePort(text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535) {
    throw new UsageError(`--port must be an integer from 0 to 65535 (got '${text}')`);
  }
  return port;
}

/** The interface to bind: any address or name, but not an empty one (that would bind every interface). */
export function parseHost(text: string): string {
  const host = text.trim();
  if (host === '') {
    throw new UsageError("--host must be an address or name to listen on, e.g. 127.0.0.1 or ::1 (got '')");
  }
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (/^[\d.]+$/.test(bare) && isIP(bare) !== 4) {
    throw new UsageError(`--host ${host} is not an IPv4 address (four numbers from 0 to 255, e.g. 127.0.0.1)`);
  }
  if (bare.includes(':') && isIP(bare) !== 6) {
    throw new UsageError(`--host ${host} is not an IPv6 address (e.g. ::1)`);
  }
  return bare;
}

/** One option in a command's `--help`: the flag with its argument, and its description's lines. */
export interface HelpRow {
  readonly flag: string;
  readonly lines: readonly string[];
}

/** The help rows of the local-API options, by option name. */
export const LOCAL_API_HELP: Readonly<Record<keyof typeof LOCAL_API_OPTIONS, HelpRow>> = {
  'stack': { flag: '--stack NAME', lines: ['Serve only this stack (artifact id or stack name; repeatable)'] },
  'port': { flag: '--port N', lines: ['Port of the first API (default: 3000; 0 picks a free port)'] },
  'host': { flag: '--host ADDR', lines: ['Interface to bind (default: 127.0.0.1)'] },
  'credentials': {
    flag: '--credentials KEY:SECRET',
    lines: [
      'Key pair that IAM-authorized methods accept (SigV4, service execute-api).',
      'Default: $VENDOR_OUTPUTS_CREDENTIALS (KEY:SECRET), else',
      '$AWS_ACCESS_KEY_ID and $AWS_SECRET_ACCESS_KEY when both are set',
    ],
  },
  'allow-unsigned': { flag: '--allow-unsigned', lines: ['Let unsigned requests reach IAM-authorized methods as a guest'] },
  'api-key': {
    flag: '--api-key NAME=VALUE',
    lines: [
      'Value of an API key (NAME: its Name, logical id or construct path; repeatable).',
      'Default: the template\'s Value, else a local value that is the same at every start',
      '(printed at start)',
    ],
  },
  'env-vars': {
    flag: '--env-vars FILE',
    lines: [
      'Function environment variables over the template\'s, in the SAM CLI\'s JSON shape:',
      '{"Parameters": {"NAME": "value"}, "<logical id or construct path>": {"NAME": "value"}}',
    ],
  },
  'jwks': {
    flag: '--jwks FILE',
    lines: [
      'Cognito authorizers also accept tokens signed by these keys (a real pool\'s',
      '.well-known/jwks.json, saved); tokens from `vendor-outputs token` always verify',
    ],
  },
  'quiet': { flag: '--quiet', lines: ['No line per request (function output is still shown)'] },
  'from-stack': {
    flag: '--from-stack NAME',
    lines: [
      'Values the template names but does not spell out (a table\'s generated name,',
      'a queue\'s URL) from this deployed stack: its resources\' physical ids and its',
      'outputs (AWS SDK, as `generate --stack`: AWS_REGION, AWS_PROFILE, ...)',
    ],
  },
  'outputs-file': {
    flag: '--outputs-file FILE',
    lines: [
      'The same from the JSON of `cdk deploy --outputs-file FILE` (no AWS call): an',
      'output whose Value is exactly a Ref or Fn::GetAtt gives that reference\'s value',
    ],
  },
  'node': {
    flag: '--node runtime|host',
    lines: [
      'runtime (default): each function runs on the Node.js major its runtime names',
      '(nodejs22.x: Node.js 22), fetched once from the npm registry into the cache',
      '($VENDOR_OUTPUTS_CACHE_DIR, else ~/.cache/vendor-outputs); host: on this Node.js',
    ],
  },
};

/** Help rows as `  --flag ARG   text`, continuation lines under the text; `column` is where the text starts. */
export function helpRows(rows: readonly HelpRow[], column = 28): string[] {
  return rows.flatMap((row) => row.lines.map((line, i) => (i === 0 ? `  ${row.flag.padEnd(column - 4)}  ${line}` : `${' '.repeat(column)}${line}`)));
}
