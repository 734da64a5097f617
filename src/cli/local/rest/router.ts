/**
 * Request routing as API Gateway does it for REST APIs. A request goes to the most specific
 * resource that has its method (or `ANY`): at each path segment a literal resource is tried before
 * `{param}`, which is tried before the greedy `{proxy+}`, and a resource whose path matches but
 * lacks the method lets the search go on to the next candidate (measured on API Gateway: with
 * `/users/me` PATCH and `/users/{id}` GET, `GET /users/me` reaches `{id}`; `POST /jobs` reaches a
 * root `{proxy+}` ANY beside `/jobs` GET). A greedy resource needs at least one segment (it never
 * matches its parent's own path); an explicit method wins over `ANY` on the same resource.
 *
 * Empty segments (`//`, a trailing `/`) do not count for matching. A Lambda proxy event carries the
 * parameter values as sent, still percent-encoded; a greedy value keeps inner `//` and loses the
 * trailing `/` (recorded: `/prod/a//b/` gives `proxy` = `a//b`, `/prod/a%2Bb` gives `a%2Bb`).
 *
 * The gateway has seven methods: DELETE, GET, HEAD, OPTIONS, PATCH, POST and PUT
 * (`AWS::ApiGateway::Method` allows only those and `ANY`, which stands for each of them). Any
 * other method (`PROPFIND`, `TRACE`, `CONNECT`) is a method no resource has: 403 Missing
 * Authentication Token, on every path, the function never runs.
 *
 * Matching takes time linear in the number of path segments: each resource is tried at one
 * segment only (its depth in the tree), so a path of many segments cannot make it backtrack.
 */
import { safeDecode } from '../common/percent-decoding';
import { MethodSpec, ResourceNode } from '../model/rest-api';

/** A matched resource and method. */
export interface RouteMatch {
  readonly resource: ResourceNode;
  readonly method: MethodSpec;
  /**
   * Path parameters percent-decoded, as the gateway gives them to mappings and non-proxy backends
   * (it decodes request parameters before passing them on); empty when the resource has none.
   */
  readonly pathParameters: Record<string, string>;
  /** Path parameters as sent, still percent-encoded: what a Lambda proxy event carries. */
  readonly rawPathParameters: Record<string, string>;
}

/** The path below the stage (`/`, `/items`, `//items/a/`) split at `/`, empty segments included. */
export function pathSegments(pathBelowStage: string): string[] {
  return pathBelowStage.split('/');
}

/** The methods API Gateway has; `ANY` stands for each of them and for no other. */
export const GATEWAY_METHODS: ReadonlySet<string> = new Set(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT']);

/** Finds the resource and method for a request, or undefined (API Gateway: 403 Missing Authentication Token). */
export function route(root: ResourceNode, httpMethod: string, segments: readonly string[]): RouteMatch | undefined {
  const upper = httpMethod.toUpperCase();
  if (!GATEWAY_METHODS.has(upper)) {
    return undefined;
  }
  const found = matchResource(root, upper, segments, 0, Object.create(null));
  if (found === undefined) {
    return undefined;
  }
  const method = found.resource.methods.get(upper) ?? found.resource.methods.get('ANY')!;
  return { resource: found.resource, method, pathParameters: decoded(found.params), rawPathParameters: found.params };
}

/** The parameters decoded; the same object when none has a `%`. */
function decoded(params: Record<string, string>): Record<string, string> {
  let out: Record<string, string> | undefined;
  for (const name in params) {
    if (params[name].includes('%')) {
      out ??= Object.assign(Object.create(null), params);
      out![name] = safeDecode(params[name]);
    }
  }
  return out ?? params;
}

function hasMethod(node: ResourceNode, httpMethod: string): boolean {
  return node.methods.has(httpMethod) || node.methods.has('ANY');
}

function matchResource(
  node: ResourceNode, httpMethod: string, segments: readonly string[], from: number, params: Record<string, string>,
): { resource: ResourceNode; params: Record<string, string> } | undefined {
  let index = from;
  while (index < segments.length && segments[index] === '') {
    index++;
  }
  if (index === segments.length) {
    return hasMethod(node, httpMethod) ? { resource: node, params } : undefined;
  }
  const segment = segments[index];
  const literal = node.literalChildren.get(segment) ?? (segment.includes('%') ? node.literalChildren.get(safeDecode(segment)) : undefined);
  if (literal !== undefined) {
    const found = matchResource(literal, httpMethod, segments, index + 1, params);
    if (found !== undefined) {
      return found;
    }
  }
  if (node.paramChild !== undefined) {
    const found = matchResource(node.paramChild, httpMethod, segments, index + 1, withParam(params, node.paramChild.paramName!, segment));
    if (found !== undefined) {
      return found;
    }
  }
  const greedy = node.greedyChild;
  if (greedy !== undefined && hasMethod(greedy, httpMethod)) {
    return { resource: greedy, params: withParam(params, greedy.paramName!, greedyValue(segments, index)) };
  }
  return undefined;
}

/** The rest of the path from `index` (a non-empty segment), inner empty segments kept, trailing ones dropped. */
function greedyValue(segments: readonly string[], index: number): string {
  let end = segments.length;
  while (segments[end - 1] === '') {
    end--;
  }
  return end === index + 1 ? segments[index] : segments.slice(index, end).join('/');
}

/** A copy of the parameters with one more, without a prototype. */
function withParam(params: Record<string, string>, name: string, value: string): Record<string, string> {
  const out: Record<string, string> = Object.assign(Object.create(null), params);
  out[name] = value;
  return out;
}

/** Every (path, method) of a tree, depth first, for the start-up listing. */
export function listMethods(root: ResourceNode): Array<{ resource: ResourceNode; method: MethodSpec }> {
  const out: Array<{ resource: ResourceNode; method: MethodSpec }> = [];
  const visit = (node: ResourceNode) => {
    for (const method of [...node.methods.values()].sort((a, b) => methodOrder(a.httpMethod) - methodOrder(b.httpMethod))) {
      out.push({ resource: node, method });
    }
    for (const child of [...node.literalChildren.values()].sort((a, b) => a.pathPart.localeCompare(b.pathPart))) {
      visit(child);
    }
    if (node.paramChild) {
      visit(node.paramChild);
    }
    if (node.greedyChild) {
      visit(node.greedyChild);
    }
  };
  visit(root);
  return out;
}

const ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'ANY', 'OPTIONS'];
function methodOrder(method: string): number {
  const i = ORDER.indexOf(method);
  return i < 0 ? ORDER.length : i;
}

