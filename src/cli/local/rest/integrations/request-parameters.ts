/**
 * An integration's `RequestParameters` (`integration.request.<where>.<name>` → source), evaluated
 * against the method request as API Gateway does for proxy integrations: the sources are
 * `method.request.{path|querystring|multivaluequerystring|header|multivalueheader}.<name>`,
 * `context.<variable>`, `stageVariables.<name>` and quoted literals (`'value'`).
 * A source with no value leaves its target out.
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/request-response-data-mappings.html
 */
import { isPlainObject } from '../../../../outputs/cdk-free/json-data';
import { ownGet } from '../../common/own-record';
import type { RoutedRequest } from '../pipeline/request';

/** Where a mapped value goes. */
export type ParameterTarget = 'path' | 'querystring' | 'header';

/** The mapped values by target, in the order of the template's `RequestParameters`. */
export interface MappedParameters {
  readonly path: ReadonlyMap<string, string>;
  readonly querystring: ReadonlyMap<string, readonly string[]>;
  readonly header: ReadonlyMap<string, readonly string[]>;
}

const TARGET = /^integration\.request\.(path|querystring|multivaluequerystring|header|multivalueheader)\.(.+)$/;

/** Whether a `RequestParameters` key is a target API Gateway knows. */
export function isParameterTarget(key: string): boolean {
  return TARGET.test(key);
}

export function mapRequestParameters(routed: RoutedRequest, parameters: Readonly<Record<string, string>>): MappedParameters {
  const path = new Map<string, string>();
  const querystring = new Map<string, string[]>();
  const header = new Map<string, string[]>();
  for (const [key, source] of Object.entries(parameters)) {
    const target = TARGET.exec(key);
    const values = target === null ? undefined : sourceValues(routed, source);
    if (target === null || values === undefined || values.length === 0) {
      continue;
    }
    const [, where, name] = target;
    if (where === 'path') {
      path.set(name, values[values.length - 1]);
    } else if (where === 'querystring' || where === 'multivaluequerystring') {
      querystring.set(name, where === 'querystring' ? [values[values.length - 1]] : values);
    } else {
      header.set(name, where === 'header' ? [values[values.length - 1]] : values);
    }
  }
  return { path, querystring, header };
}

/** The value(s) of a source expression (`method.request.*`, `context.*`, `stageVariables.*`, `'literal'`), or undefined when the request has none. */
export function sourceValues(routed: RoutedRequest, source: string): string[] | undefined {
  if (source.length >= 2 && source.startsWith("'") && source.endsWith("'")) {
    return [source.slice(1, -1)];
  }
  const methodRequest = /^method\.request\.(path|querystring|multivaluequerystring|header|multivalueheader)\.(.+)$/.exec(source);
  if (methodRequest !== null) {
    return methodRequestValues(routed, methodRequest[1], methodRequest[2]);
  }
  if (source.startsWith('stageVariables.')) {
    const variables = ownGet(routed.settings.api.stageVariables, routed.stage);
    const value = variables === undefined ? undefined : ownGet(variables, source.slice('stageVariables.'.length));
    return value === undefined ? undefined : [value];
  }
  if (source.startsWith('context.')) {
    const value = contextValue(routed, source.slice('context.'.length));
    return value === undefined ? undefined : [value];
  }
  return undefined;
}

function methodRequestValues(routed: RoutedRequest, where: string, name: string): string[] | undefined {
  switch (where) {
    case 'path': {
      const value = ownGet(routed.route.pathParameters, name);
      return value === undefined ? undefined : [value];
    }
    case 'querystring': {
      const value = ownGet(routed.query.single, name);
      return value === undefined ? undefined : [value];
    }
    case 'multivaluequerystring':
      return ownGet(routed.query.multi, name);
    case 'header': {
      const value = routed.headers.get(name);
      return value === undefined ? undefined : [value];
    }
    default: {
      const value = ownGet(routed.headers.toRecord(), name.toLowerCase());
      return value === undefined ? undefined : Array.isArray(value) ? value : [value as string];
    }
  }
}

/** `context.<variable>`: the variables a parameter mapping can read. */
function contextValue(routed: RoutedRequest, variable: string): string | undefined {
  const { ids, route, settings } = routed;
  if (variable.startsWith('authorizer.')) {
    return authorizerValue(routed.authorizer, variable.slice('authorizer.'.length));
  }
  if (variable.startsWith('identity.')) {
    const field = variable.slice('identity.'.length);
    if (field === 'sourceIp') {
      return routed.request.sourceIp;
    }
    if (field === 'userAgent') {
      return routed.headers.get('user-agent');
    }
    const value = routed.identity === null ? undefined : ownGet(routed.identity, field);
    return value ?? undefined;
  }
  const simple: Record<string, string> = {
    accountId: '123456789012',
    apiId: settings.api.apiId,
    domainName: routed.headers.get('host') ?? 'localhost',
    extendedRequestId: ids.apigwId,
    httpMethod: routed.request.method.toUpperCase(),
    path: `/${routed.stage}${routed.pathBelowStage === '' ? '/' : routed.pathBelowStage}`,
    requestId: ids.requestId,
    requestTimeEpoch: String(routed.receivedAt),
    resourceId: route.resource.resourceId,
    resourcePath: route.resource.path,
    stage: routed.stage,
  };
  return ownGet(simple, variable);
}

/** `context.authorizer.<key>`, or `context.authorizer.claims.<claim>` of a Cognito authorizer. */
function authorizerValue(authorizer: RoutedRequest['authorizer'], key: string): string | undefined {
  if (authorizer === undefined) {
    return undefined;
  }
  const claims = ownGet(authorizer as Record<string, unknown>, 'claims');
  if (key.startsWith('claims.') && isPlainObject(claims)) {
    const claim = ownGet(claims, key.slice('claims.'.length));
    return claim === undefined ? undefined : String(claim);
  }
  const value = ownGet(authorizer as Record<string, unknown>, key);
  return value === undefined || (value !== null && typeof value === 'object') ? undefined : String(value);
}
