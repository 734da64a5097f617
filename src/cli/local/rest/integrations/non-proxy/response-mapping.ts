/**
 * The method response of a non-proxy integration: the integration response selected by its
 * `SelectionPattern` (a regular expression that must match the whole status code or Lambda
 * `errorMessage`, `.` stopping at a line end: "make sure that the error response does not contain
 * any newline (\n) character" for `.+`, says the API reference; the response without a pattern
 * is the default), its status, its
 * `ResponseParameters` and its response template (chosen by the request's `Accept`, else
 * `application/json`, else the first), with the template's `$context.responseOverride` applied.
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-integration-settings-integration-response.html
 */
import type { BackendResponse } from './backend';
import { mediaType } from './request-mapping';
import { stageVariablesOf, templateInputOf } from './template-input';
import { javaFullMatch } from '../../../common/linear-regex';
import { ownGet } from '../../../common/own-record';
import type { IntegrationResponseSpec, NonProxyIntegrationSpec } from '../../../model/rest-api';
import { isBinaryType } from '../../binary-media-type';
import { contextVariable } from '../../mapping/context-variable';
import { selectPath } from '../../mapping/json-path';
import { renderTemplate } from '../../mapping/render-template';
import type { MethodResponse } from '../../pipeline/method-response';
import { setHeader } from '../../pipeline/render-error';
import type { RoutedRequest } from '../../pipeline/request';

/** The integration response for what the backend answered; undefined when none matches and there is no default. */
export function selectIntegrationResponse(
  responses: readonly IntegrationResponseSpec[], input: string | undefined,
): IntegrationResponseSpec | undefined {
  if (input !== undefined) {
    const matched = responses.find((r) => r.selectionPattern !== undefined && javaFullMatch(r.selectionPattern, input));
    if (matched !== undefined) {
      return matched;
    }
  }
  return responses.find((r) => r.selectionPattern === undefined);
}

/** Rejects with the template's {@link TemplateError} when the response template cannot be evaluated. */
export async function mapIntegrationResponse(
  routed: RoutedRequest, integration: NonProxyIntegrationSpec, selected: IntegrationResponseSpec, backend: BackendResponse,
): Promise<MethodResponse> {
  const backendType = headerOf(backend.headers, 'content-type');
  const binary = isBinaryType(backendType, routed.settings.api.binaryMediaTypes);
  const templateType = chooseTemplate(selected.responseTemplates, routed.headers.get('accept'));
  const headers: Array<[string, string]> = [['Content-Type', templateType ?? 'application/json']];
  for (const [key, source] of Object.entries(selected.responseParameters)) {
    const target = /^method\.response\.header\.(.+)$/.exec(key);
    const value = target === null ? undefined : parameterValue(routed, backend, source);
    if (target !== null && value !== undefined) {
      setHeader(headers, target[1], value);
    }
  }
  let statusCode = selected.statusCode;
  let body: string | Buffer;
  if (selected.contentHandling === 'CONVERT_TO_BINARY') {
    body = binary ? backend.body : Buffer.from(backend.body.toString('utf8'), 'base64');
  } else if (templateType === undefined) {
    body = passthroughBody(routed, backend.body, binary, selected.contentHandling);
  } else {
    const payload = binary && selected.contentHandling === 'CONVERT_TO_TEXT' ? backend.body.toString('base64') : backend.body.toString('utf8');
    const output = await renderTemplate(selected.responseTemplates[templateType], templateInputOf(routed, payload));
    body = output.text;
    const override = output.context.responseOverride;
    const status = Number(override.status);
    if (override.status !== undefined && Number.isInteger(status)) {
      statusCode = status;
    }
    for (const [name, value] of Object.entries(override.header)) {
      if (value !== undefined && value !== null) {
        setHeader(headers, name, String(value));
      }
    }
  }
  return { statusCode, headers, body, kind: `${integration.type} integration response` };
}

/** Without a template the payload passes as it is: bytes only when the client accepts a binary media type. */
function passthroughBody(routed: RoutedRequest, body: Buffer, binary: boolean, handling: IntegrationResponseSpec['contentHandling']): string | Buffer {
  if (binary && handling === 'CONVERT_TO_TEXT') {
    return body.toString('base64');
  }
  return binary && isBinaryType(routed.headers.get('accept'), routed.settings.api.binaryMediaTypes) ? body : body.toString('utf8');
}

/** The response template's content type: the first of `Accept` that has one, else `application/json`, else the first. */
function chooseTemplate(templates: Readonly<Record<string, string>>, accept: string | undefined): string | undefined {
  const types = Object.keys(templates);
  if (types.length === 0) {
    return undefined;
  }
  for (const part of (accept ?? '').split(',')) {
    const wanted = mediaType(part);
    const found = types.find((t) => t.toLowerCase() === wanted);
    if (found !== undefined) {
      return found;
    }
  }
  return types.find((t) => t.toLowerCase() === 'application/json') ?? types[0];
}

/** A response parameter's value; undefined when its source has none. */
function parameterValue(routed: RoutedRequest, backend: BackendResponse, source: string): string | undefined {
  if (source.length >= 2 && source.startsWith("'") && source.endsWith("'")) {
    return source.slice(1, -1);
  }
  const header = /^integration\.response\.(header|multivalueheader)\.(.+)$/.exec(source);
  if (header !== null) {
    const values = backend.headers.filter(([n]) => n.toLowerCase() === header[2].toLowerCase()).map(([, v]) => v);
    return values.length === 0 ? undefined : header[1] === 'header' ? values[values.length - 1] : values.join(',');
  }
  if (source === 'integration.response.body') {
    return backend.body.toString('utf8');
  }
  if (source.startsWith('integration.response.body.')) {
    return jsonValue(backend.body.toString('utf8'), `$.${source.slice('integration.response.body.'.length)}`);
  }
  const request = /^method\.request\.(header|querystring|path)\.(.+)$/.exec(source);
  if (request !== null) {
    return request[1] === 'header' ? routed.headers.get(request[2])
      : ownGet(request[1] === 'querystring' ? routed.query.single : routed.route.pathParameters, request[2]);
  }
  if (source.startsWith('stageVariables.')) {
    return ownGet(stageVariablesOf(routed), source.slice('stageVariables.'.length));
  }
  if (source.startsWith('context.')) {
    const value = selectPath(contextVariable(templateInputOf(routed, '').context), `$.${source.slice('context.'.length)}`);
    return value === undefined || value === null ? undefined : String(value);
  }
  return undefined;
}

/** A JSONPath of a JSON body: a string as it is, anything else as JSON; undefined when the body is not JSON or has nothing there. */
function jsonValue(body: string, path: string): string | undefined {
  let document: unknown;
  try {
    document = JSON.parse(body);
  } catch {
    return undefined;
  }
  const value = selectPath(document, path);
  return value === undefined ? undefined : typeof value === 'string' ? value : JSON.stringify(value);
}

function headerOf(headers: ReadonlyArray<readonly [string, string]>, name: string): string | undefined {
  return headers.find(([n]) => n.toLowerCase() === name)?.[1];
}
