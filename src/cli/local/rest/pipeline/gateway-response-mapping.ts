/**
 * The request-dependent parts of an `AWS::ApiGateway::GatewayResponse`: header values mapped from
 * the request (`method.request.header.origin`, `context.requestId`, `stageVariables.x`) and the
 * response template, evaluated with `$context.error.*` as API Gateway evaluates it.
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-gatewayResponse-definition.html
 */
import type { GatewayError } from './gateway-errors';
import type { ReceivedRequest, RoutedRequest } from './request';
import { ownGet, ownSet } from '../../common/own-record';
import type { GatewayResponseSpec } from '../../model/rest-api';
import { templateInputOf } from '../integrations/non-proxy/template-input';
import { sourceValues } from '../integrations/request-parameters';
import type { ContextInput, GatewayErrorContext } from '../mapping/context-variable';
import type { RequestParameters } from '../mapping/input-variable';
import { renderTemplate, TemplateInput, TemplateOutput } from '../mapping/render-template';

/** What the gateway response's mappings give for this request. */
export interface MappedGatewayResponse {
  readonly headers: ReadonlyArray<readonly [string, string]>;
  /** The rendered template and its content type; undefined when the response has no template or it failed. */
  readonly body?: { readonly text: string; readonly contentType: string };
}

/** At once when the response has no template or a static one; else a promise (the template is evaluated off the server's thread). */
export function mapGatewayResponse(
  spec: GatewayResponseSpec, error: GatewayError, request: ReceivedRequest | RoutedRequest,
): MappedGatewayResponse | Promise<MappedGatewayResponse> {
  const routed = 'route' in request ? request : undefined;
  const headers: Array<[string, string]> = [];
  for (const [name, expression] of Object.entries(spec.mappedHeaders)) {
    const values = routed !== undefined ? sourceValues(routed, expression) : receivedValues(request, expression);
    if (values !== undefined && values.length > 0) {
      headers.push([name, values[values.length - 1]]);
    }
  }
  const contentType = Object.prototype.hasOwnProperty.call(spec.templates, 'application/json') ? 'application/json' : Object.keys(spec.templates)[0];
  if (contentType === undefined) {
    return { headers };
  }
  const errorContext: GatewayErrorContext = {
    message: error.message,
    messageString: JSON.stringify(error.message),
    responseType: error.type,
    validationErrorString: error.validationErrorString ?? '',
  };
  const base = routed !== undefined ? templateInputOf(routed, '') : receivedTemplateInput(request);
  const failed = (e: unknown): MappedGatewayResponse => {
    request.settings.note?.(request.ids.requestId, `gateway response ${spec.responseType}: its template failed (${(e as Error).message}); the default body was sent`);
    return { headers };
  };
  try {
    const output = renderTemplate(spec.templates[contentType], { ...base, context: { ...base.context, error: errorContext } });
    const mapped = ({ text }: TemplateOutput): MappedGatewayResponse => ({ headers, body: { text, contentType } });
    return output instanceof Promise ? output.then(mapped, failed) : mapped(output);
  } catch (e) {
    return failed(e);
  }
}

/** A mapping's value before routing (no resource, no stage): only the request's headers and query string, and literals. */
function receivedValues(request: ReceivedRequest, expression: string): string[] | undefined {
  if (expression.length >= 2 && expression.startsWith("'") && expression.endsWith("'")) {
    return [expression.slice(1, -1)];
  }
  const m = /^method\.request\.(header|querystring)\.(.+)$/.exec(expression);
  const value = m === null ? undefined : m[1] === 'header' ? request.headers.get(m[2]) : ownGet(request.query.single, m[2]);
  return value === undefined ? undefined : [value];
}

/** `$context` and `$input` before routing: the request's own values, no resource and no stage. */
function receivedTemplateInput(request: ReceivedRequest): TemplateInput {
  const header: Record<string, string> = {};
  for (const [name, value] of request.request.rawHeaders) {
    ownSet(header, name, value);
  }
  const parameters: RequestParameters = { path: {}, querystring: request.query.single, header };
  const context: ContextInput = {
    apiId: request.settings.api.apiId,
    accountId: '123456789012',
    requestId: request.ids.requestId,
    extendedRequestId: request.ids.apigwId,
    httpMethod: request.request.method.toUpperCase(),
    resourcePath: '',
    resourceId: '',
    stage: '',
    path: request.rawPath,
    requestTimeEpoch: request.receivedAt,
    domainName: request.headers.get('host') ?? '127.0.0.1',
    sourceIp: request.request.sourceIp,
    userAgent: request.headers.get('user-agent') ?? null,
    identity: null,
  };
  return { body: '', parameters, context, stageVariables: {} };
}
