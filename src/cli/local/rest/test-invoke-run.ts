/**
 * The console's TEST: one request through an API's pipeline without a stage (the stage is
 * `test-invoke-stage`), timed, with its execution log. `vendor-outputs test-invoke` and the console
 * page served by `serve` both run it, so both show the same values.
 */
import { ExecutionLog, GatewayResponse, GatewaySettings, LocalGateway } from './gateway';
import type { StreamedBody } from '../api-kind/api-kind';
import { headerMaps } from '../api-kind/header-maps';

/** What the console's TEST shows. */
export interface TestInvokeResult {
  readonly request: string;
  readonly status: number;
  readonly latency: number;
  readonly body: string;
  readonly headers: Record<string, string>;
  readonly multiValueHeaders: Record<string, string[]>;
  readonly log: string;
}

/** The request of a TEST: a path without the stage, with its query. */
export interface TestInvokeRequest {
  readonly method: string;
  /** `/items?limit=5`. */
  readonly target: string;
  readonly rawHeaders: ReadonlyArray<[string, string]>;
  readonly body: string;
}

/** What the console's TEST calls the caller's address. */
const TEST_INVOKE_SOURCE_IP = 'test-invoke-source-ip';

/** `/items` plus query parts (`a=1`, `b=2&c=3`, a query already in the path) → `/items?a=1&b=2&c=3`. */
export function testInvokeTarget(pathWithQuery: string, queryParts: readonly string[]): string {
  const question = pathWithQuery.indexOf('?');
  const pathOnly = question < 0 ? pathWithQuery : pathWithQuery.slice(0, question);
  const inlineQuery = question < 0 ? '' : pathWithQuery.slice(question + 1);
  const query = [inlineQuery, ...queryParts].filter((q) => q !== '').join('&');
  return query === '' ? pathOnly : `${pathOnly}?${query}`;
}

/** `Name:Value` → `[name, value]` trimmed; undefined when there is no name before a colon. */
export function parseHeaderLine(text: string): [string, string] | undefined {
  const colon = text.indexOf(':');
  if (colon <= 0 || text.slice(0, colon).trim() === '') {
    return undefined;
  }
  return [text.slice(0, colon).trim(), text.slice(colon + 1).trim()];
}

/** Runs the TEST with the gateway settings of the API (authorization skipped unless `testInvokeAuthorize`). */
export async function runTestInvoke(settings: Omit<GatewaySettings, 'testInvoke'>, request: TestInvokeRequest): Promise<TestInvokeResult> {
  const gateway = new LocalGateway({ ...settings, testInvoke: true });
  const log = new ExecutionLog();
  const started = Date.now();
  const response = await gateway.handle({
    method: request.method.toUpperCase(),
    target: request.target,
    rawHeaders: [...request.rawHeaders],
    body: Buffer.from(request.body, 'utf8'),
    sourceIp: TEST_INVOKE_SOURCE_IP,
  }, log);
  // A streamed method's body is gathered: the TEST shows it whole, as the console shows a buffered one.
  const gathered = response.stream === undefined ? response : { ...response, body: await gatherStream(response.stream) };
  return toResult(request.target, gathered, Date.now() - started, log);
}

/** A streamed body's bytes once it ended (or was cut). */
function gatherStream(stream: StreamedBody): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    stream.pipe({ write: (chunk) => chunks.push(chunk), end: () => resolve(Buffer.concat(chunks)), abort: () => resolve(Buffer.concat(chunks)) });
  });
}

function toResult(target: string, response: GatewayResponse, latency: number, log: ExecutionLog): TestInvokeResult {
  const { headers, multiValueHeaders } = headerMaps(response.headers);
  return {
    request: target,
    status: response.statusCode,
    latency,
    body: typeof response.body === 'string' ? response.body : response.body.toString('utf8'),
    headers,
    multiValueHeaders,
    log: [`Execution log for request ${response.requestId}`, ...log.lines].join('\n'),
  };
}
