/**
 * `vendor-outputs serve`: the local API on a cloud assembly already synthesized. The options are
 * the local-API options (local-api-options.ts) plus `--app` and `--write-outputs`; the server, its
 * warnings and its listing come from the local-API service (local/local-api.ts).
 */
import * as path from 'path';
import { Command, parseOptions, UsageError } from './command';
import { LocalApiError } from './local/common/local-api-error';
import { LocalApi, startLocalApi } from './local/local-api';
import { readPreparedApp } from './local/local-app-setup';
import { StackSpec } from './local/model/local-app';
import { consoleUrl } from './local/server/console/console-path';
import { buildLocalOutputs, stacksWithOutputs, writeLocalOutputs } from './local/server/local-outputs';
import { urlHost } from './local/server/server';
import { DeployedValues, referencesOfStack } from './local/template/deployed-values';
import { helpRows, HelpRow, LOCAL_API_HELP, LOCAL_API_OPTIONS, parseLocalApiOptions } from './local-api-options';
import { withDeployedValues } from './local-deployed-values';
import { OUTPUTS_FILE_NAME } from '../outputs/cdk-free/file-names';

/** `--write-outputs DIR`: serve's own option (the sandbox always writes its file). */
export const WRITE_OUTPUTS_HELP: HelpRow = { flag: '--write-outputs DIR', lines: ['Also write DIR/vendor_outputs.json with the REST endpoints pointing here'] };

export const SERVE_HELP = [
  'Usage: vendor-outputs serve [--app DIR] [--stack NAME]... [--port N] [--host ADDR]',
  '                            [--credentials KEY:SECRET] [--allow-unsigned] [--env-vars FILE] [--write-outputs DIR]',
  '                            [--api-key NAME=VALUE]...',
  '                            [--jwks FILE] [--from-stack NAME | --outputs-file FILE] [--node runtime|host] [--quiet]',
  '',
  'Serves every REST API (AWS::ApiGateway::RestApi) of the synthesized app on a local port, reached at',
  'http://HOST:PORT/<stage>/..., running the Lambda functions behind its proxy integrations from their',
  'code assets in worker threads. No cloud account and no Docker. Several APIs take consecutive ports.',
  "Every port also serves the console's TEST page at http://HOST:PORT/@console/ (resource tree, TEST,",
  'the --write-outputs file with its validation).',
  '',
  'Options:',
  ...helpRows([
    { flag: '--app DIR', lines: ['Cloud assembly directory (default: cdk.out)'] },
    LOCAL_API_HELP.stack,
    LOCAL_API_HELP.port,
    LOCAL_API_HELP.host,
    LOCAL_API_HELP.credentials,
    LOCAL_API_HELP['allow-unsigned'],
    LOCAL_API_HELP['api-key'],
    LOCAL_API_HELP['env-vars'],
    WRITE_OUTPUTS_HELP,
    LOCAL_API_HELP.jwks,
    LOCAL_API_HELP['from-stack'],
    LOCAL_API_HELP['outputs-file'],
    LOCAL_API_HELP.node,
    LOCAL_API_HELP.quiet,
  ]),
  '',
  'Stops on Ctrl+C (SIGINT) or SIGTERM.',
  '',
  'Example:',
  '  npx cdk synth && vendor-outputs serve --write-outputs ../frontend/src',
  '  curl -i "http://127.0.0.1:3000/dev/items?limit=5"',
].join('\n');

export const command: Command = {
  name: 'serve',
  help: SERVE_HELP,
  async run(args) {
    const { values } = parseOptions(args, {
      'app': { type: 'string' },
      ...LOCAL_API_OPTIONS,
      'write-outputs': { type: 'string' },
    });
    const settings = await withDeployedValues(parseLocalApiOptions(values, process.env));
    const appDir = values.app ?? 'cdk.out';
    const prepared = readPreparedApp(appDir, { ...settings, progress: (line) => process.stderr.write(`vendor-outputs serve: ${line}\n`) });
    const writeDir = values['write-outputs'];
    let outputsStack: StackSpec | undefined;
    const api = await startLocalApi({
      settings,
      prepared,
      print,
      warn: (message) => process.stderr.write(`vendor-outputs serve: warning: ${message}\n`),
      requireApi: true,
      source: appDir,
      beforeListen: (app) => { outputsStack = writeOutputsStack(writeDir, app.stacks, app.assemblyDir, appDir); },
      outputsFile: writeDir === undefined ? undefined : path.resolve(writeDir, OUTPUTS_FILE_NAME),
    });
    const stopped = stopSignal(api);
    bannerLines(api, appDir).forEach(print);
    if (writeDir !== undefined) {
      await writeOutputs(api, outputsStack!, writeDir, settings.deployed);
    }
    print('Press Ctrl+C to stop.');
    await stopped;
    return 0;
  },
};

function print(line: string): void {
  process.stdout.write(`${line}\n`);
}

/** `--write-outputs`: the one stack that carries a vendor_outputs.json (checked before anything listens). */
function writeOutputsStack(writeDir: string | undefined, stacks: readonly StackSpec[], assemblyDir: string, appDir: string): StackSpec | undefined {
  if (writeDir === undefined) {
    return undefined;
  }
  if (writeDir === '') {
    throw new UsageError('--write-outputs must name a directory');
  }
  const withOutputs = stacksWithOutputs(stacks, assemblyDir);
  if (withOutputs.length !== 1) {
    throw new LocalApiError(withOutputs.length === 0
      ? `--write-outputs: no stack in ${appDir} carries a vendor_outputs.json (was it synthesized with cdk-vendor-outputs?)`
      : `--write-outputs: several stacks carry a vendor_outputs.json (${withOutputs.map((s) => s.artifactId).join(', ')}); pick one with --stack`);
  }
  return withOutputs[0];
}

/** What is served, where, and who gets in. */
function bannerLines(api: LocalApi, appDir: string): string[] {
  const { endpoints } = api.server;
  return [
    `Serving ${api.servedSummary()} from ${appDir}:`,
    ...endpoints.map((endpoint) => `${endpoint.api.name} (${endpoint.api.stackName}/${endpoint.api.logicalId}) at ${endpoint.urls.join(', ')}`),
    ...api.routeLines(),
    ...api.unservedLines(),
    `Console (the API Gateway console's TEST, in a browser): ${consoleUrl(`http://${urlHost(endpoints[0].host)}:${endpoints[0].port}`)}`,
    ...api.accessLines(),
  ];
}

/** Writes the frontend's file with the endpoints of this server; a failure stops the server. */
async function writeOutputs(api: LocalApi, stack: StackSpec, writeDir: string, deployed: DeployedValues | undefined): Promise<void> {
  const outputs = buildLocalOutputs(stack, api.app.assemblyDir, api.server.endpoints.map((e) => ({
    apiId: e.api.apiId,
    origin: `http://${urlHost(e.host)}:${e.port}`,
  })), referencesOfStack(deployed, stack, api.app.stacks.length));
  try {
    const file = writeLocalOutputs(outputs, writeDir);
    print(`Wrote ${file}${outputs.unresolved.length > 0 ? ` (${outputs.unresolved.length} value(s) known only after deploy left pending: ${outputs.unresolved.join(', ')})` : ''}`);
  } catch (error) {
    await api.close();
    throw error;
  }
}

/** Resolves once SIGINT or SIGTERM stopped the server. */
function stopSignal(api: LocalApi): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      process.removeListener('SIGINT', onInt);
      process.removeListener('SIGTERM', onTerm);
      process.stderr.write(`vendor-outputs serve: ${signal}, stopping\n`);
      void api.close().then(resolve);
    };
    const onInt = () => stop('SIGINT');
    const onTerm = () => stop('SIGTERM');
    process.on('SIGINT', onInt);
    process.on('SIGTERM', onTerm);
  });
}
