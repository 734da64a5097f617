/**
 * The page's TEST button: the form's fields (JSON) checked and turned into the same TEST that
 * `vendor-outputs test-invoke` runs (../../rest/test-invoke-run.ts, ../../http/test-invoke-http.ts).
 */
import { isPlainObject } from '../../../../outputs/cdk-free/json-data';
import { runHttpTestInvoke } from '../../http/test-invoke-http';
import type { Invoker } from '../../lambda/invoker';
import type { FunctionSpec } from '../../model/function-spec';
import { isRestApi } from '../../model/rest-api';
import type { Endpoint } from '../endpoint';
import { consoleApiId } from './api-tree';
import { parseHeaderLine, runTestInvoke, TestInvokeRequest, TestInvokeResult, testInvokeTarget } from '../../rest/test-invoke-run';

/** What the page sends: the form as it was filled in. */
export interface ConsoleTestForm {
  /** The API's id from the resource pane (`<stack name>/<logical id>`). */
  readonly api: string;
  readonly method: string;
  /** Path without the stage (`/items`, `/items/42`). */
  readonly path: string;
  /** Query string without `?` (`limit=3&x=1`). */
  readonly query: string;
  /** One `Name:Value` per line. */
  readonly headers: string;
  readonly body: string;
}

/** A form the TEST cannot run: answered 400 with this message. */
export class ConsoleFormError extends Error {}

const FIELDS = ['api', 'method', 'path', 'query', 'headers', 'body'] as const;

/** Checks the page's JSON: every field a string, the method a name, the path absolute. */
export function parseTestForm(text: string): ConsoleTestForm {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ConsoleFormError(`the request body is not JSON: ${(error as Error).message}`);
  }
  if (!isPlainObject(parsed)) {
    throw new ConsoleFormError(`the request body must be a JSON object with the fields ${FIELDS.join(', ')}`);
  }
  const form = parsed;
  for (const field of FIELDS) {
    const value = Object.prototype.hasOwnProperty.call(form, field) ? form[field] : '';
    if (typeof value !== 'string') {
      throw new ConsoleFormError(`/${field} must be a string (got ${value === null ? 'null' : typeof value})`);
    }
  }
  const fields = form as Record<(typeof FIELDS)[number], string | undefined>;
  const method = fields.method ?? '';
  if (!/^[A-Za-z]+$/.test(method)) {
    throw new ConsoleFormError(`/method must be an HTTP method name such as GET (got '${method}')`);
  }
  const path = fields.path ?? '';
  if (!path.startsWith('/')) {
    throw new ConsoleFormError(`/path must start with '/' (got '${path}')`);
  }
  return { api: fields.api ?? '', method, path, query: fields.query ?? '', headers: fields.headers ?? '', body: fields.body ?? '' };
}

/** `Name:Value` lines (blank lines skipped); a line without a name before a colon is refused with its number. */
export function formHeaders(text: string): Array<[string, string]> {
  const headers: Array<[string, string]> = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '') {
      return;
    }
    const header = parseHeaderLine(line);
    if (header === undefined) {
      throw new ConsoleFormError(`/headers line ${i + 1} must be Name:Value (got '${line}')`);
    }
    headers.push(header);
  });
  return headers;
}

/** The TEST request of a form. */
export function testRequest(form: ConsoleTestForm): TestInvokeRequest {
  const query = form.query.startsWith('?') ? form.query.slice(1) : form.query;
  return {
    method: form.method,
    target: testInvokeTarget(form.path, [query]),
    rawHeaders: formHeaders(form.headers),
    body: form.body,
  };
}

/** Runs the form's TEST on the API it names, among the APIs served now. */
export async function runConsoleTest(
  form: ConsoleTestForm,
  endpoints: readonly Endpoint[],
  invoker: Invoker,
  functions: ReadonlyMap<string, FunctionSpec>,
): Promise<TestInvokeResult> {
  const endpoint = endpoints.find((e) => consoleApiId(e) === form.api);
  if (endpoint === undefined) {
    throw new ConsoleFormError(`/api: no served API '${form.api}' (served: ${endpoints.map(consoleApiId).join(', ') || 'none'}); reload the page`);
  }
  if (endpoint.api.kind === 'WEBSOCKET') {
    throw new ConsoleFormError(`/api: '${form.api}' is a WebSocket API; the console tests REST and HTTP APIs`);
  }
  const request = testRequest(form);
  if (endpoint.api.kind === 'FUNCTION_URL') {
    throw new ConsoleFormError(`/api: '${form.api}' is a function URL; send the request to its URL (${endpoint.urls[0]})`);
  }
  if (!isRestApi(endpoint.api)) {
    return runHttpTestInvoke(endpoint.api, { invoker, functions }, request);
  }
  return runTestInvoke({ api: endpoint.api, invoker, functions }, request);
}
