/**
 * The console's resource pane: each served API with its resource tree and methods, as JSON for
 * the page. Only what the template says (paths, methods, authorization, what answers); never an
 * environment variable or a file.
 */
import type { ConsoleMethod, ConsoleResource } from './console-resource';
import { httpRouteTree } from './http-api-tree';
import { webSocketRouteTree } from './websocket-api-tree';
import type { FunctionSpec } from '../../model/function-spec';
import { ApiSpec, isRestApi, MethodSpec, ResourceNode } from '../../model/rest-api';

export type { ConsoleMethod, ConsoleResource } from './console-resource';
import { integrationKind } from '../../rest/integrations/kinds';
import { listMethods } from '../../rest/router';

/** A served API as the console sees it (the server's endpoints are these). */
export interface ServedApi {
  readonly api: ApiSpec;
  /** `http://HOST:PORT/<stage>/` of each stage. */
  readonly urls: readonly string[];
}

export interface ConsoleApi {
  /** `<stack name>/<logical id>`: what the page sends back to name the API. */
  readonly id: string;
  /** `REST`, `HTTP` (an HTTP API's tree is its routes' paths) or `WEBSOCKET` (its routes under `/`). */
  readonly kind: string;
  readonly name: string;
  readonly stackName: string;
  readonly constructPath?: string;
  readonly stages: readonly string[];
  /** `http://HOST:PORT/<stage>/` of each stage. */
  readonly urls: readonly string[];
  readonly root: ConsoleResource;
}

/** The id by which the page names an API. */
export function consoleApiId(endpoint: ServedApi): string {
  return `${endpoint.api.stackName}/${endpoint.api.logicalId}`;
}

/** Every served API, in the order of the server's ports (function URLs are not in the console yet). */
export function apiTree(
  endpoints: readonly ServedApi[],
  functions: ReadonlyMap<string, FunctionSpec>,
  env: NodeJS.ProcessEnv = process.env,
): ConsoleApi[] {
  return endpoints.filter(({ api }) => api.kind !== 'FUNCTION_URL').map(({ api, urls }) => ({
    id: consoleApiId({ api, urls }),
    kind: isRestApi(api) ? 'REST' : api.kind,
    name: api.name,
    stackName: api.stackName,
    constructPath: api.constructPath,
    stages: api.stages,
    urls,
    root: rootOf(api, functions, env),
  }));
}

/** The API's tree: REST resources, HTTP route paths, WebSocket routes under `/`. */
function rootOf(api: ApiSpec, functions: ReadonlyMap<string, FunctionSpec>, env: NodeJS.ProcessEnv): ConsoleResource {
  if (isRestApi(api)) {
    return resource(api.root, methodsByResource(api.root), functions);
  }
  switch (api.kind) {
    case 'HTTP': return httpRouteTree(api, functions, env);
    case 'WEBSOCKET': return webSocketRouteTree(api, functions);
    default: throw new Error(`the console has no route tree for ${api.kind} APIs`);
  }
}

/** Each resource's methods, in the order of the route listing. */
function methodsByResource(root: ResourceNode): Map<ResourceNode, MethodSpec[]> {
  const grouped = new Map<ResourceNode, MethodSpec[]>();
  for (const { resource: node, method: spec } of listMethods(root)) {
    const list = grouped.get(node) ?? [];
    list.push(spec);
    grouped.set(node, list);
  }
  return grouped;
}

function resource(node: ResourceNode, methods: Map<ResourceNode, MethodSpec[]>, functions: ReadonlyMap<string, FunctionSpec>): ConsoleResource {
  const children = [...node.literalChildren.values()].sort((a, b) => a.pathPart.localeCompare(b.pathPart));
  for (const child of [node.paramChild, node.greedyChild]) {
    if (child !== undefined) {
      children.push(child);
    }
  }
  return {
    path: node.path,
    pathPart: node.pathPart,
    methods: (methods.get(node) ?? []).map((m) => method(m, functions)),
    children: children.map((c) => resource(c, methods, functions)),
  };
}

function method(spec: MethodSpec, functions: ReadonlyMap<string, FunctionSpec>): ConsoleMethod {
  // The integration kind names the function it runs through this callback: that is where we learn it.
  let notRunnable: string | undefined;
  const named = (key: string): string => {
    const code = functions.get(key)?.code;
    notRunnable = code?.kind === 'unsupported' ? code.reason : notRunnable;
    return functionName(key, functions);
  };
  return {
    httpMethod: spec.httpMethod,
    authorizationType: spec.authorizationType,
    apiKeyRequired: spec.apiKeyRequired,
    integration: integrationKind(spec.integration.type).consoleLabel(spec.integration, { functionName: named }),
    ...(notRunnable === undefined ? {} : { notRunnable }),
  };
}

function functionName(key: string, functions: ReadonlyMap<string, FunctionSpec>): string {
  const fn = functions.get(key);
  return fn?.constructPath ?? (fn === undefined ? key : `${fn.stackName}/${fn.logicalId}`);
}
