import { CliError, Command, ParsedOptions, parseOptions, UsageError } from './command';
import { appInventoryLines } from './local/app-inventory';
import { appTokenVerifier } from './local/app-user-pools';
import { LocalApiError } from './local/common/local-api-error';
import { routeRequestParts, runHttpTestInvoke } from './local/http/test-invoke-http';
import { readEnvVarsFile } from './local/lambda/env-vars';
import { appInvoker, readPreparedApp } from './local/local-app-setup';
import type { HttpApiSpec } from './local/model/http-api';
import type { LocalApp } from './local/model/local-app';
import { ApiSpec, isRestApi, RestApiSpec } from './local/model/rest-api';
import { readLocalApp } from './local/read-local-app';
import { methodStandInNotes } from './local/rest/route-listing';
import { pathSegments, route } from './local/rest/router';
import { parseHeaderLine, runTestInvoke, TestInvokeRequest, TestInvokeResult, testInvokeTarget } from './local/rest/test-invoke-run';
import { unservedApis, unservedLines } from './local/server/unserved-listing';
import { APP_OPTIONS, deployedSourceOf, parseNodeChoice } from './local-api-options';
import { readDeployedValues } from './local-deployed-values';

export type { TestInvokeResult } from './local/rest/test-invoke-run';

export const TEST_INVOKE_HELP = [
  'Usage: vendor-outputs test-invoke --method METHOD --path PATH [--query K=V]... [--header K:V]... [--body TEXT]',
  '                                  [--app DIR] [--stack NAME] [--api NAME] [--env-vars FILE] [--json]',
  '                                  [--route "METHOD /path"] [--stage NAME]',
  '                                  [--authorize] [--jwks FILE] [--from-stack NAME | --outputs-file FILE]',
  '                                  [--node runtime|host]',
  '',
  "Sends one request through the local REST API machinery without a server, as the API Gateway console's",
  'TEST does, and prints the request path, status, latency, response body, response headers and the',
  'execution log (Authorization and X-Amz-Security-Token values masked). As in the console, the stage is',
  "'test-invoke-stage' and the method's authorization is not checked, unless --authorize.",
  '',
  'An HTTP API (API Gateway v2), which has no console TEST, gets the request as `serve` handles it: its',
  'stage ($default, else its first, or --stage), route, throttling, parameter mapping and integration;',
  'the log names the route taken and why the gateway refused, if it did.',
  '',
  'Options:',
  '  --method METHOD   HTTP method (GET, POST, ...)',
  '  --path PATH       Resource path without the stage, e.g. /items or /items/42 (may carry ?query)',
  '  --query K=V       Query string parameter (repeatable; K=V&K2=V2 also works)',
  '  --header K:V      Request header (repeatable)',
  '  --body TEXT       Request body, e.g. \'{"name":"pen"}\'',
  '  --app DIR         Cloud assembly directory (default: cdk.out)',
  '  --stack NAME      Only this stack (artifact id or stack name)',
  '  --api NAME        The REST or HTTP API (name or logical id) when the app has several',
  '  --route KEY       HTTP APIs: the route key, e.g. "GET /items" (gives --method, and --path when the',
  '                    route has no path variables)',
  '  --stage NAME      HTTP APIs: the stage (default: $default, else the first)',
  '  --env-vars FILE   Function environment variables over the template\'s, in the SAM CLI\'s JSON shape',
  '  --json            Print one JSON object {request, status, latency, body, headers, multiValueHeaders, log}',
  '  --authorize       Run the method\'s Lambda or Cognito authorizer on the identity headers given with',
  '                    --header and log each step, as a request to a deployed stage would (IAM methods',
  '                    refuse: test-invoke holds no key pair)',
  '  --jwks FILE       With --authorize: Cognito authorizers also accept tokens signed by these keys',
  '  --from-stack NAME',
  '                    Values the template names but does not spell out (a table\'s generated name)',
  '                    from this deployed stack (AWS SDK: its resources\' physical ids and outputs)',
  '  --outputs-file FILE',
  '                    The same from the JSON of `cdk deploy --outputs-file FILE` (no AWS call)',
  '  --node runtime|host  runtime (default): the function runs on the Node.js major its runtime names,',
  '                    fetched once from the npm registry into the cache; host: on this Node.js',
  '',
  'Exit status: 0 when the request ran (whatever its HTTP status), 1 when it could not run, 2 on usage errors.',
  '',
  'Example:',
  '  vendor-outputs test-invoke --method GET --path /items --query limit=5',
].join('\n');

function pickApi(app: LocalApp, name: string | undefined): ApiSpec {
  // test-invoke runs REST and HTTP APIs.
  const apis = app.apis.filter((a) => isRestApi(a) || a.kind === 'HTTP');
  if (name !== undefined) {
    const found = apis.filter((a) => a.name === name || a.logicalId === name);
    if (found.length !== 1) {
      throw new CliError(found.length === 0
        ? withUnserved(`no REST or HTTP API '${name}'; APIs: ${apis.map((a) => `${a.name} (${a.logicalId})`).join(', ') || '(none)'}`, app)
        : `several ${kindsOf(found)} are named '${name}'; pass the logical id: ${found.map((a) => a.logicalId).join(', ')}`);
    }
    return found[0];
  }
  if (apis.length === 1) {
    return apis[0];
  }
  throw new CliError(apis.length === 0
    ? withUnserved('no REST or HTTP API in the cloud assembly', app)
    : `the app has ${apis.length} ${kindsOf(apis)}; pick one with --api: ${apis.map((a) => `${a.name} (${a.logicalId})`).join(', ')}`);
}

/** `REST APIs`, `HTTP APIs`, or `APIs` for a mix. */
function kindsOf(apis: readonly ApiSpec[]): string {
  const rest = apis.filter(isRestApi).length;
  return rest === apis.length ? 'REST APIs' : rest === 0 ? 'HTTP APIs' : 'APIs';
}

/** A refusal followed by the APIs the app has that test-invoke cannot run, with why. */
function withUnserved(message: string, app: LocalApp): string {
  return [message, ...unservedLines(unservedApis(app.unserved))].join('\n');
}

/** `--help`'s list: the APIs of the app `--app` names (cdk.out by default), served or not. */
function helpDetails(args: readonly string[]): string[] {
  const appDir = appOption(args) ?? 'cdk.out';
  let lines: string[];
  try {
    lines = appInventoryLines(readLocalApp(appDir));
  } catch (error) {
    lines = [`  (${error instanceof LocalApiError ? error.message : String(error)}; run 'npx cdk synth' first, or pass --app DIR)`];
  }
  return ['', `APIs and functions of the app in ${appDir}:`, ...lines];
}

/** The value of `--app DIR` or `--app=DIR` among the arguments, if given. */
function appOption(args: readonly string[]): string | undefined {
  const i = args.indexOf('--app');
  if (i >= 0 && i + 1 < args.length) {
    return args[i + 1];
  }
  return args.find((a) => a.startsWith('--app='))?.slice('--app='.length);
}

function formatText(result: TestInvokeResult): string {
  return [
    `Request: ${result.request}`,
    `Status: ${result.status}`,
    `Latency: ${result.latency} ms`,
    'Response body:',
    result.body,
    'Response headers:',
    `{${Object.entries(result.headers).map(([k, v]) => `${k}=${v}`).join(', ')}}`,
    'Logs:',
    result.log,
  ].join('\n');
}

const TEST_INVOKE_OPTIONS = {
  method: { type: 'string' },
  path: { type: 'string' },
  query: { type: 'string', multiple: true },
  header: { type: 'string', multiple: true },
  body: { type: 'string' },
  app: { type: 'string' },
  ...APP_OPTIONS,
  api: { type: 'string' },
  route: { type: 'string' },
  stage: { type: 'string' },
  json: { type: 'boolean' },
  authorize: { type: 'boolean' },
} as const;

type TestInvokeValues = ParsedOptions<typeof TEST_INVOKE_OPTIONS>;

/** The request the options describe; a missing or malformed part is a usage error. */
function requestOf(values: TestInvokeValues): TestInvokeRequest {
  const method = values.method;
  const pathArg = values.path;
  if (method === undefined || !/^[A-Za-z]+$/.test(method)) {
    throw new UsageError(method === undefined ? '--method is required (GET, POST, ...)' : `--method must be an HTTP method name (got '${method}')`);
  }
  if (pathArg === undefined || !pathArg.startsWith('/')) {
    throw new UsageError(pathArg === undefined ? '--path is required, e.g. --path /items' : `--path must start with '/' (got '${pathArg}')`);
  }
  const rawHeaders = headersOf(values.header ?? []);
  const queryParts = values.query ?? [];
  for (const q of queryParts) {
    if (!q.includes('=') || q.startsWith('=')) {
      throw new UsageError(`--query must be NAME=VALUE (got '${q}')`);
    }
  }
  return { method, target: testInvokeTarget(pathArg, queryParts), rawHeaders, body: values.body ?? '' };
}

/** `--method` and `--path` when given: they win over what `--route` gives. */
function definedOf(values: TestInvokeValues): { method?: string; path?: string } {
  return { ...(values.method === undefined ? {} : { method: values.method }), ...(values.path === undefined ? {} : { path: values.path }) };
}

/** `--header NAME:VALUE`s, in order. */
function headersOf(lines: readonly string[]): Array<[string, string]> {
  return lines.map((h) => {
    const header = parseHeaderLine(h);
    if (header === undefined) {
      throw new UsageError(`--header must be NAME:VALUE (got '${h}')`);
    }
    return header;
  });
}

/** The stand-ins the invoked method's integration uses (none when no method matches: the TEST answers that). */
function standInWarnings(api: RestApiSpec, request: TestInvokeRequest): string[] {
  const below = request.target.split('?')[0];
  const match = route(api.root, request.method, pathSegments(below === '' ? '/' : below));
  return match === undefined ? [] : methodStandInNotes(match.method).map((note) => `${match.method.httpMethod} ${match.resource.path}: ${note}`);
}

/** Runs the TEST on the chosen API of the app; prints the function's log lines (stderr), then the result (stdout). */
async function testInvoke(values: TestInvokeValues, given: TestInvokeRequest | undefined): Promise<void> {
  const setup = {
    apiKeys: [],
    envVars: values['env-vars'] === undefined ? undefined : readEnvVarsFile(values['env-vars']),
    hostRuntimes: parseNodeChoice(values.node) === 'host',
    progress: (line: string) => process.stderr.write(`vendor-outputs test-invoke: ${line}\n`),
  };
  const source = deployedSourceOf(values['from-stack'], values['outputs-file'], values.stack);
  const deployed = source === undefined ? undefined : await readDeployedValues(source);
  const prepared = readPreparedApp(values.app ?? 'cdk.out', { ...setup, stacks: values.stack ?? [], deployed });
  const { app } = prepared;
  const api = pickApi(app, values.api);
  if (!isRestApi(api) && values.authorize === true) {
    throw new UsageError('--authorize runs REST authorizers; an HTTP API\'s request goes through its routes as `serve` handles it');
  }
  if (isRestApi(api) && (values.route !== undefined || values.stage !== undefined)) {
    throw new UsageError(`--route and --stage are for HTTP APIs; ${api.name} is a REST API (use --method and --path)`);
  }
  const request = given ?? requestOf({ ...values, ...routeRequestParts(api as HttpApiSpec, values.route!), ...definedOf(values) });
  // The app's own warnings (what is not emulated) concern a server; the TEST shows the runtime's.
  for (const warning of [...prepared.runtime.warnings, ...(isRestApi(api) ? standInWarnings(api, request) : [])]) {
    process.stderr.write(`vendor-outputs test-invoke: warning: ${warning}\n`);
  }
  const functionLines: string[] = [];
  const invoker = appInvoker(prepared, setup, (requestId, level, text) => functionLines.push(`${requestId} ${level} ${text}`));
  try {
    const authorizing = values.authorize === true;
    const tokenVerifier = authorizing ? await appTokenVerifier(app, values.jwks) : undefined;
    const result = isRestApi(api)
      ? await runTestInvoke({ api, invoker, functions: app.functions, testInvokeAuthorize: authorizing, tokenVerifier }, request)
      : await runHttpTestInvoke(api as HttpApiSpec, { invoker, functions: app.functions }, request, values.stage);
    for (const line of functionLines) {
      process.stderr.write(`${line}\n`);
    }
    process.stdout.write(values.json ? `${JSON.stringify(result, null, 2)}\n` : `${formatText(result)}\n`);
  } finally {
    await invoker.close();
  }
}

export const command: Command = {
  name: 'test-invoke',
  help: TEST_INVOKE_HELP,
  helpDetails,
  async run(args) {
    const { values } = parseOptions(args, TEST_INVOKE_OPTIONS);
    // With --route the method and path may come from the route, known once the app is read.
    const request = values.route === undefined ? requestOf(values) : undefined;
    if (values.jwks !== undefined && values.authorize !== true) {
      throw new UsageError('--jwks only matters with --authorize (the TEST does not check authorization otherwise)');
    }
    await testInvoke(values, request);
    return 0;
  },
};
