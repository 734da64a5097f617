/**
 * Integration `HTTP_PROXY`: the method request goes to the integration URI as it is (method, query
 * string, headers, body), with the URI's `{name}` placeholders and any other `RequestParameters`
 * filled in; the endpoint's response comes back as it is (status, headers, body), with the header
 * rules of ./http-proxy-headers.ts.
 *
 * Failures, as API Gateway answers them: no complete response within the integration timeout is
 * 504 `Endpoint request timed out` (INTEGRATION_TIMEOUT); an endpoint that cannot be reached
 * (address not resolved, connection refused or reset) is 500 `Internal server error`, logged as a
 * configuration error (API_CONFIGURATION_ERROR covers "an invalid endpoint address":
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/supported-gateway-response-types.html;
 * unreachable targets answer 500 the same way: https://repost.aws/knowledge-center/api-gateway-500-error-vpc).
 */
import { isUtf8 } from 'buffer';
import { forwardedRequestHeaders, passedBackResponseHeaders } from './http-proxy-headers';
import { REST_STREAM_IDLE_MS, REST_STREAM_MAX_DURATION_MS } from './lambda-proxy-stream';
import { isOutboundFailure, openOutbound, OutboundRequest, sendOutbound } from './outbound';
import { mapRequestParameters, MappedParameters } from './request-parameters';
import { REST_STREAM_BANDWIDTH, StreamedResponse } from '../../api-kind/streamed-response';
import type { HttpProxyIntegrationSpec } from '../../model/rest-api';
import { isBinaryType } from '../binary-media-type';
import { javaMap, maskedHeaders } from '../pipeline/execution-log';
import { API_CONFIGURATION_ERROR, GatewayError, INTEGRATION_TIMEOUT } from '../pipeline/gateway-errors';
import type { IntegrationResult } from '../pipeline/method-response';
import type { RoutedRequest } from '../pipeline/request';

export async function integrateHttpProxy(routed: RoutedRequest, integration: HttpProxyIntegrationSpec): Promise<IntegrationResult> {
  const { log } = routed;
  const mapped = mapRequestParameters(routed, integration.requestParameters);
  const url = endpointUrl(routed, integration, mapped);
  if (typeof url !== 'string') {
    return configurationError(routed, url.problem);
  }
  const request: OutboundRequest = {
    method: integration.httpMethod === 'ANY' ? routed.request.method.toUpperCase() : integration.httpMethod,
    url,
    headers: endpointHeaders(routed, mapped),
    body: routed.request.body,
  };
  log?.add(`Endpoint request URI: ${url}`);
  log?.add(`Endpoint request headers: ${maskedHeaders(request.headers)}`);
  log?.add(`Endpoint request body after transformations: ${shownBody(request.body, routed.headers.get('content-type'), routed)}`);
  log?.add(`Sending request to ${url}`);
  if (integration.streamed) {
    return relayStream(routed, integration, request);
  }
  const started = Date.now();
  const result = await sendOutbound(request, integration.timeoutMs);
  if (isOutboundFailure(result)) {
    if (result.failure === 'timeout') {
      routed.settings.note?.(routed.ids.requestId, `${url} did not answer within the integration timeout (${integration.timeoutMs} ms)`);
      log?.add('Execution failed due to a timeout error');
      return INTEGRATION_TIMEOUT;
    }
    return configurationError(routed, result.message);
  }
  log?.add(`Received response. Status: ${result.statusCode}, Integration latency: ${Date.now() - started} ms`);
  log?.add(`Endpoint response headers: ${javaMap(result.headers)}`);
  const contentType = result.headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  const binary = isBinary(result.body, contentType, routed);
  log?.add(`Endpoint response body before transformations: ${shownBody(result.body, contentType, routed)}`);
  return {
    statusCode: result.statusCode,
    headers: passedBackResponseHeaders(result.headers),
    body: binary ? result.body : result.body.toString('utf8'),
    kind: 'HTTP proxy response',
    producer: new URL(url).origin,
  };
}

/**
 * `ResponseTransferMode: STREAM`: the endpoint's status and headers once they come (within the
 * integration timeout: not checked against the service), then its body relayed as it comes, with
 * the streaming limits of "Stream the integration response for your proxy integrations" (15
 * minutes, a 5-minute idle timeout, 2 MB/s past the first 10 MB) and no payload quota; an endpoint that fails midway cuts the
 * client's connection.
 */
async function relayStream(routed: RoutedRequest, integration: HttpProxyIntegrationSpec, request: OutboundRequest): Promise<IntegrationResult> {
  const opened = await openOutbound(request, integration.timeoutMs);
  if ('failure' in opened) {
    if (opened.failure === 'timeout') {
      routed.settings.note?.(routed.ids.requestId, `${request.url} did not answer within the integration timeout (${integration.timeoutMs} ms)`);
      routed.log?.add('Execution failed due to a timeout error');
      return INTEGRATION_TIMEOUT;
    }
    return configurationError(routed, opened.message);
  }
  routed.log?.add(`Received response. Status: ${opened.statusCode} (streamed)`);
  const note = (why: string) => {
    routed.settings.note?.(routed.ids.requestId, `${new URL(request.url).origin}: ${why}; the connection was cut`);
    opened.stop();
  };
  const limits = {
    maxBytes: Number.MAX_SAFE_INTEGER, maxDurationMs: REST_STREAM_MAX_DURATION_MS, idleMs: REST_STREAM_IDLE_MS, bandwidth: REST_STREAM_BANDWIDTH,
  };
  const stream = new StreamedResponse(limits, note);
  const headers = passedBackResponseHeaders(opened.headers).filter(([name]) => !/^(content-length|transfer-encoding)$/i.test(name));
  stream.open(opened.statusCode, headers);
  opened.body.on('data', (chunk: Buffer) => stream.write(chunk));
  opened.body.on('end', () => stream.finish({ kind: 'ok', payload: undefined }));
  opened.body.on('aborted', () => stream.finish({ kind: 'crash', errorMessage: 'the endpoint closed the connection midway' }));
  opened.body.on('error', () => stream.finish({ kind: 'crash', errorMessage: 'the endpoint connection failed midway' }));
  return { statusCode: opened.statusCode, headers, body: '', kind: 'HTTP proxy response stream', producer: new URL(request.url).origin, stream };
}

/** The integration URI with stage variables and path parameters filled in, plus the query string. */
function endpointUrl(routed: RoutedRequest, integration: HttpProxyIntegrationSpec, mapped: MappedParameters): string | { problem: string } {
  const variables = Object.prototype.hasOwnProperty.call(routed.settings.api.stageVariables, routed.stage)
    ? routed.settings.api.stageVariables[routed.stage] : {};
  let missing: string | undefined;
  const withVariables = integration.uri.replace(/\$\{stageVariables\.([A-Za-z0-9_]+)\}/g, (_, name: string) => {
    const value = Object.prototype.hasOwnProperty.call(variables, name) ? variables[name] : undefined;
    missing ??= value === undefined ? `stage variable ${name} is not set on stage ${routed.stage}` : undefined;
    return value ?? '';
  });
  const withPath = withVariables.replace(/\{([^{}]+)\}/g, (_, name: string) => {
    const value = mapped.path.get(name);
    missing ??= value === undefined ? `no value for the path parameter {${name}} of the integration URI (integration.request.path.${name})` : undefined;
    return pathSafe(value ?? '');
  });
  if (missing !== undefined) {
    return { problem: missing };
  }
  const query = queryString(routed, mapped);
  if (query === '') {
    return withPath;
  }
  return `${withPath}${withPath.includes('?') ? '&' : '?'}${query}`;
}

/**
 * A value as a path part. Request parameters reach the backend decoded and encoded again, `%`
 * included ("REST APIs URL-decode URL-encoded request parameters before passing them to backend
 * integrations ... URL-encode the percent character", API Gateway important notes for REST APIs):
 * each segment is encoded, the slashes of a greedy value kept.
 */
function pathSafe(value: string): string {
  return value.split('/').map(encodeSegment).join('/');
}

function encodeSegment(segment: string): string {
  try {
    return encodeURIComponent(segment);
  } catch {
    // A lone surrogate: U+FFFD, as a decoder would make it.
    return encodeURIComponent(segment.replace(/[\uD800-\uDFFF]/g, '\uFFFD'));
  }
}

/** The request's query parameters (decoded and encoded again), those of `RequestParameters` replacing same-named ones. */
function queryString(routed: RoutedRequest, mapped: MappedParameters): string {
  const parts: string[] = [];
  const encode = (name: string, value: string) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`;
  for (const [name, values] of Object.entries(routed.query.multi)) {
    if (!mapped.querystring.has(name)) {
      parts.push(...values.map((value) => encode(name, value)));
    }
  }
  for (const [name, values] of mapped.querystring) {
    parts.push(...values.map((value) => encode(name, value)));
  }
  return parts.join('&');
}

function endpointHeaders(routed: RoutedRequest, mapped: MappedParameters): Array<[string, string]> {
  const { settings, ids, request } = routed;
  const headers = forwardedRequestHeaders(request.rawHeaders, {
    iam: routed.route.method.authorizationType === 'AWS_IAM',
    forward: settings.testInvoke ? undefined : { traceId: ids.integrationTraceId, sourceIp: request.sourceIp, port: request.port ?? 80 },
  });
  if (mapped.header.size === 0) {
    return headers;
  }
  const replaced = new Set([...mapped.header.keys()].map((name) => name.toLowerCase()));
  const kept = headers.filter(([name]) => !replaced.has(name.toLowerCase()));
  for (const [name, values] of mapped.header) {
    kept.push(...values.map((value): [string, string] => [name, value]));
  }
  return kept;
}

/** Bytes of a binary media type of the API, or not UTF-8 text. */
function isBinary(body: Buffer, contentType: string | undefined, routed: RoutedRequest): boolean {
  return isBinaryType(contentType, routed.settings.api.binaryMediaTypes) || !isUtf8(body);
}

/** A body as the execution log shows it. */
function shownBody(body: Buffer, contentType: string | undefined, routed: RoutedRequest): string {
  return isBinary(body, contentType, routed) ? `[Binary Data] (${body.length} bytes)` : body.toString('utf8');
}

function configurationError(routed: RoutedRequest, problem: string): GatewayError {
  const { method } = routed.route;
  routed.settings.note?.(routed.ids.requestId, `${method.httpMethod} ${routed.route.resource.path}: HTTP_PROXY integration: ${problem}`);
  routed.log?.add(`Execution failed due to configuration error: ${problem}`);
  return API_CONFIGURATION_ERROR;
}
