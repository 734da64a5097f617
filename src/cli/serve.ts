import { isIP } from 'net';
import * as path from 'path';
import { CliError, Command, parseOptions, UsageError } from './command';
import { appTokenVerifier } from './local/auth/cognito/app-pools';
import { signingKeyFile } from './local/auth/cognito/signing-key';
import { parseCredentials, SigV4Credentials } from './local/auth/sigv4';
import { readEnvVarsFile } from './local/lambda/env-vars';
import { functionRuntime } from './local/lambda/function-runtime';
import { ResourceNode } from './local/model/local-app';
import { apiKeyLines, parseApiKeyValue, withApiKeyValues } from './local/rest/api-key-values';
import { consoleUrl } from './local/server/console/console-path';
import { buildLocalOutputs, stacksWithOutputs, writeLocalOutputs } from './local/server/local-outputs';
import { isLoopback, LocalApiServer, urlHost } from './local/server/server';
import { readLocalApp } from './local/template/assembly';
import { OUTPUTS_FILE_NAME } from '../outputs/cdk-free/file-names';

export const SERVE_HELP = [
  'Usage: vendor-outputs serve [--app DIR] [--stack NAME]... [--port N] [--host ADDR]',
  '                            [--credentials KEY:SECRET] [--allow-unsigned] [--env-vars FILE] [--write-outputs DIR]',
  '                            [--api-key NAME=VALUE]...',
  '                            [--jwks FILE] [--quiet]',
  '',
  'Serves every REST API (AWS::ApiGateway::RestApi) of the synthesized app on a local port, reached at',
  'http://HOST:PORT/<stage>/..., running the Lambda functions behind its proxy integrations from their',
  'code assets in worker threads. No cloud account and no Docker. Several APIs take consecutive ports.',
  "Every port also serves the console's TEST page at http://HOST:PORT/@console/ (resource tree, TEST,",
  'the --write-outputs file with its validation).',
  '',
  'Options:',
  '  --app DIR                 Cloud assembly directory (default: cdk.out)',
  '  --stack NAME              Serve only this stack (artifact id or stack name; repeatable)',
  '  --port N                  Port of the first API (default: 3000; 0 picks a free port)',
  '  --host ADDR               Interface to bind (default: 127.0.0.1)',
  '  --credentials KEY:SECRET  Key pair that IAM-authorized methods accept (SigV4, service execute-api).',
  '                            Default: $VENDOR_OUTPUTS_CREDENTIALS (KEY:SECRET), else',
  '                            $AWS_ACCESS_KEY_ID and $AWS_SECRET_ACCESS_KEY when both are set',
  '  --allow-unsigned          Let unsigned requests reach IAM-authorized methods as a guest',
  '  --api-key NAME=VALUE      Value of an API key (NAME: its Name, logical id or construct path; repeatable).',
  '                            Default: the template\'s Value, else a local value that is the same at every start',
  '                            (printed at start)',
  '  --env-vars FILE           Function environment variables over the template\'s, in the SAM CLI\'s JSON shape:',
  '                            {"Parameters": {"NAME": "value"}, "<logical id or construct path>": {"NAME": "value"}}',
  '  --write-outputs DIR       Also write DIR/vendor_outputs.json with the REST endpoints pointing here',
  '  --jwks FILE               Cognito authorizers also accept tokens signed by these keys (a real pool\'s',
  '                            .well-known/jwks.json, saved); tokens from `vendor-outputs token` always verify',
  '  --quiet                   No line per request (function output is still shown)',
  '',
  'Stops on Ctrl+C (SIGINT) or SIGTERM.',
  '',
  'Example:',
  '  npx cdk synth && vendor-outputs serve --write-outputs ../frontend/src',
  '  curl -i "http://127.0.0.1:3000/dev/items?limit=5"',
].join('\n');

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

export const command: Command = {
  name: 'serve',
  help: SERVE_HELP,
  async run(args) {
    const { values } = parseOptions(args, {
      'app': { type: 'string' },
      'stack': { type: 'string', multiple: true },
      'port': { type: 'string' },
      'host': { type: 'string' },
      'credentials': { type: 'string' },
      'allow-unsigned': { type: 'boolean' },
      'api-key': { type: 'string', multiple: true },
      'env-vars': { type: 'string' },
      'write-outputs': { type: 'string' },
      'jwks': { type: 'string' },
      'quiet': { type: 'boolean' },
    });
    const port = values.port === undefined ? 3000 : parsePort(values.port);
    const host = values.host === undefined ? '127.0.0.1' : parseHost(values.host);
    const credentials = credentialsFrom(values.credentials, process.env);
    const appDir = values.app ?? 'cdk.out';
    const envVars = values['env-vars'] === undefined ? undefined : readEnvVarsFile(values['env-vars']);
    const apiKeyValues = (values['api-key'] ?? []).map(parseApiKeyValue);
    const app = withApiKeyValues(readLocalApp(appDir, values.stack ?? []), apiKeyValues);
    const print = (line: string) => process.stdout.write(`${line}\n`);
    const runtime = functionRuntime(app, envVars);
    for (const warning of [...app.warnings, ...runtime.warnings]) {
      process.stderr.write(`vendor-outputs serve: warning: ${warning}\n`);
    }
    const served = app.apis.filter((a) => a.stages.length > 0);
    if (served.length === 0) {
      throw new CliError(`no REST API with a stage in ${appDir}${values.stack ? ` (stacks: ${values.stack.join(', ')})` : ''}; nothing to serve`);
    }
    if (port !== 0 && port + served.length - 1 > 65535) {
      throw new UsageError(`--port ${port} leaves no room for ${served.length} APIs (each takes the next port, up to ${port + served.length - 1}); pass --port ${65536 - served.length} or lower, or 0 for free ports`);
    }
    const writeDir = values['write-outputs'];
    if (writeDir === '') {
      throw new UsageError('--write-outputs must name a directory');
    }
    const withOutputs = writeDir === undefined ? [] : stacksWithOutputs(app.stacks, app.assemblyDir);
    if (writeDir !== undefined && withOutputs.length !== 1) {
      throw new CliError(withOutputs.length === 0
        ? `--write-outputs: no stack in ${appDir} carries a vendor_outputs.json (was it synthesized with cdk-vendor-outputs?)`
        : `--write-outputs: several stacks carry a vendor_outputs.json (${withOutputs.map((s) => s.artifactId).join(', ')}); pick one with --stack`);
    }

    const tokenVerifier = await appTokenVerifier(app, values.jwks);
    const server = await LocalApiServer.start(app, {
      host,
      port,
      credentials,
      allowUnsigned: values['allow-unsigned'] === true,
      quiet: values.quiet === true,
      print,
      envVars,
      appFolder: runtime.appFolder,
      functionNotes: runtime.notes,
      tokenVerifier,
      outputsFile: writeDir === undefined ? undefined : path.resolve(writeDir, OUTPUTS_FILE_NAME),
    });
    const stopped = new Promise<void>((resolve) => {
      const stop = (signal: string) => {
        process.removeListener('SIGINT', onInt);
        process.removeListener('SIGTERM', onTerm);
        process.stderr.write(`vendor-outputs serve: ${signal}, stopping\n`);
        void server.close().then(resolve);
      };
      const onInt = () => stop('SIGINT');
      const onTerm = () => stop('SIGTERM');
      process.on('SIGINT', onInt);
      process.on('SIGTERM', onTerm);
    });

    if (!isLoopback(host)) {
      process.stderr.write(`vendor-outputs serve: warning: --host ${host} is reachable from the network: other machines can call the API, and through it its functions, which run with this shell's AWS credentials and environment\n`);
    }
    print(`Serving ${served.length} REST API(s) from ${appDir}:`);
    for (const endpoint of server.endpoints) {
      print(`${endpoint.api.name} (${endpoint.api.stackName}/${endpoint.api.logicalId}) at ${endpoint.urls.join(', ')}`);
    }
    for (const line of server.routeTable()) {
      print(line);
    }
    print(`Console (the API Gateway console's TEST, in a browser): ${consoleUrl(`http://${urlHost(host)}:${server.endpoints[0].port}`)}`);
    for (const line of apiKeyLines(served)) {
      print(line);
    }
    const iam = served.some((api) => hasIam(api.root));
    if (iam) {
      print(credentials
        ? `IAM-authorized methods accept requests signed with access key ${credentials.accessKeyId}${values['allow-unsigned'] ? ' and unsigned requests (as a guest)' : ''}`
        : `IAM-authorized methods refuse unsigned requests${values['allow-unsigned'] ? ' unless --allow-unsigned (on: guests are let in)' : '; pass --credentials KEY:SECRET to accept signed ones, --allow-unsigned to let guests in'}`);
    }
    if (tokenVerifier !== undefined) {
      print(`Cognito-authorized methods accept tokens from 'vendor-outputs token' (local signing key ${signingKeyFile(app.assemblyDir)})${values.jwks !== undefined ? ` and tokens signed by the keys of ${values.jwks}` : ''}`);
    }
    if (writeDir !== undefined) {
      const outputs = buildLocalOutputs(withOutputs[0], app.assemblyDir, server.endpoints.map((e) => ({
        apiId: e.api.apiId,
        origin: `http://${urlHost(e.host)}:${e.port}`,
      })));
      try {
        const file = writeLocalOutputs(outputs, writeDir);
        print(`Wrote ${file}${outputs.unresolved.length > 0 ? ` (${outputs.unresolved.length} value(s) known only after deploy left pending: ${outputs.unresolved.join(', ')})` : ''}`);
      } catch (error) {
        await server.close();
        throw error;
      }
    }
    print('Press Ctrl+C to stop.');
    await stopped;
    return 0;
  },
};

function hasIam(node: ResourceNode): boolean {
  if ([...node.methods.values()].some((m) => m.authorizationType === 'AWS_IAM')) {
    return true;
  }
  return [...node.literalChildren.values(), node.paramChild, node.greedyChild].some((c) => c !== undefined && hasIam(c));
}
