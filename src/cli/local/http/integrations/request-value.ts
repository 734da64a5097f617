/**
 * The value a `RequestParameters` entry of an AWS service integration takes for one request, as
 * "Transforming API requests and responses for HTTP APIs" describes the sources: a static value,
 * or one of `$request.header.<name>`, `$request.querystring.<name>`, `$request.path.<name>`,
 * `$request.path`, `$request.body.<JSONPath>` (AWS service integrations only), `$request.body`,
 * `$context.<variable>`, `$stageVariables.<name>`. Header and query values are read as the 2.0
 * event reads them (repeats joined with commas). Undefined: the request has nothing there, and the
 * parameter is left out of the call.
 *
 * Only whole-value expressions are evaluated (a value that mixes text and an expression is sent as
 * written): not checked against the service.
 */
import { ownGet } from '../../common/own-record';
import { payloadV2Event } from '../payload-v2-event';
import type { RoutedHttpRequest } from '../routed-request';

/** Reads many parameters of one request (the event is built once). */
export type RequestValues = (expression: string) => string | undefined;

export function requestValues(routed: RoutedHttpRequest): RequestValues {
  const event = payloadV2Event(routed) as any;
  const context = contextVariables(event.requestContext);
  let body: { parsed: unknown } | undefined;
  const parsedBody = () => (body ??= { parsed: parseJson(routed.request.body.toString('utf8')) }).parsed;
  return (expression) => {
    const source = /^\$(request\.header|request\.querystring|request\.path|request\.body|context|stageVariables)(?:\.(.+))?$/s.exec(expression);
    if (source === null) {
      return expression;
    }
    const [, where, name] = source;
    switch (where) {
      case 'request.header':
        return name === undefined ? undefined : ownGet(event.headers ?? {}, name.toLowerCase());
      case 'request.querystring':
        return name === undefined ? undefined : ownGet(event.queryStringParameters ?? {}, name);
      case 'request.path':
        return name === undefined ? routed.rawPath : ownGet(event.pathParameters ?? {}, name);
      case 'request.body':
        return name === undefined ? bodyText(routed) : asText(jsonPath(parsedBody(), name));
      case 'context':
        return name === undefined ? undefined : ownGet(context, name);
      default:
        return name === undefined ? undefined : ownGet(event.stageVariables ?? {}, name);
    }
  };
}

/** `$context.<name>` of HTTP APIs, from the 2.0 event's request context. */
function contextVariables(rc: any): Record<string, string> {
  return {
    'accountId': rc.accountId,
    'apiId': rc.apiId,
    'domainName': rc.domainName,
    'domainPrefix': rc.domainPrefix,
    'httpMethod': rc.http.method,
    'identity.sourceIp': rc.http.sourceIp,
    'identity.userAgent': rc.http.userAgent,
    'path': rc.http.path,
    'protocol': rc.http.protocol,
    'requestId': rc.requestId,
    'requestTime': rc.time,
    'requestTimeEpoch': String(rc.timeEpoch),
    'routeKey': rc.routeKey,
    'stage': rc.stage,
  };
}

function bodyText(routed: RoutedHttpRequest): string | undefined {
  return routed.request.body.length === 0 ? undefined : routed.request.body.toString('utf8');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** `a.b[0].c` (dots and `[index]`, a leading `$.` allowed) in parsed JSON. */
function jsonPath(value: unknown, path: string): unknown {
  const steps = path.replace(/^\$\.?/, '').match(/[^.[\]]+|\[\d+\]/g) ?? [];
  let current: any = value;
  for (const step of steps) {
    if (current === null || typeof current !== 'object') {
      return undefined;
    }
    const key = step.startsWith('[') ? Number(step.slice(1, -1)) : step;
    current = Object.prototype.hasOwnProperty.call(current, key) ? current[key] : undefined;
  }
  return current;
}

/** A string as it is; anything else as its JSON (an object mapped to `MessageBody` is sent as JSON text). */
function asText(value: unknown): string | undefined {
  if (value === undefined || value === null) {
    return undefined;
  }
  return typeof value === 'string' ? value : JSON.stringify(value);
}
