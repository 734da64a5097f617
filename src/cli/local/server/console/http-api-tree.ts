/**
 * An HTTP API in the console's resource pane: its routes as a tree of paths (`/items`,
 * `/items/{id}`, `/{proxy+}`) with each route's method (`ANY`, or `$default` for the default
 * route, shown at the root), authorization and what answers it, as the listing names them.
 */
import type { ConsoleMethod, ConsoleResource } from './console-resource';
import { httpIntegrationTarget } from '../../http/route-listing';
import type { FunctionSpec } from '../../model/function-spec';
import type { HttpApiSpec, HttpRouteSpec, RouteSegment } from '../../model/http-api';

/** A path of the tree while it is built. */
interface PathNode {
  readonly path: string;
  readonly pathPart: string;
  readonly methods: ConsoleMethod[];
  readonly children: Map<string, PathNode>;
}

/** The root resource of an HTTP API's routes. */
export function httpRouteTree(api: HttpApiSpec, functions: ReadonlyMap<string, FunctionSpec>, env: NodeJS.ProcessEnv): ConsoleResource {
  const root: PathNode = { path: '/', pathPart: '', methods: [], children: new Map() };
  for (const route of api.routes) {
    nodeOf(root, route.segments).methods.push(routeMethod(route, functions, env));
  }
  return finished(root);
}

function nodeOf(root: PathNode, segments: readonly RouteSegment[]): PathNode {
  let node = root;
  for (const segment of segments) {
    const pathPart = segmentText(segment);
    let child = node.children.get(pathPart);
    if (child === undefined) {
      child = { path: `${node.path === '/' ? '' : node.path}/${pathPart}`, pathPart, methods: [], children: new Map() };
      node.children.set(pathPart, child);
    }
    node = child;
  }
  return node;
}

function segmentText(segment: RouteSegment): string {
  switch (segment.kind) {
    case 'literal': return segment.text;
    case 'param': return `{${segment.name}}`;
    case 'greedy': return `{${segment.name}+}`;
  }
}

function routeMethod(route: HttpRouteSpec, functions: ReadonlyMap<string, FunctionSpec>, env: NodeJS.ProcessEnv): ConsoleMethod {
  let notRunnable: string | undefined;
  const label = (key: string): string => {
    const fn = functions.get(key);
    notRunnable = fn?.code.kind === 'unsupported' ? fn.code.reason : notRunnable;
    return fn?.constructPath ?? (fn === undefined ? key : `${fn.stackName}/${fn.logicalId}`);
  };
  return {
    httpMethod: route.method ?? '$default',
    authorizationType: route.authorizationType,
    apiKeyRequired: false,
    integration: httpIntegrationTarget(route.integration, label, env),
    ...(notRunnable === undefined ? {} : { notRunnable }),
  };
}

/** Literal paths first (sorted), then `{param}`, then `{proxy+}`, as routes are matched. */
function finished(node: PathNode): ConsoleResource {
  const rank = (part: string) => (part.endsWith('+}') ? 2 : part.startsWith('{') ? 1 : 0);
  const children = [...node.children.values()].sort((a, b) => rank(a.pathPart) - rank(b.pathPart) || a.pathPart.localeCompare(b.pathPart));
  return { path: node.path, pathPart: node.pathPart, methods: node.methods, children: children.map(finished) };
}
