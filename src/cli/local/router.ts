/**
 * Request routing as API Gateway does it for REST APIs: at each path segment a literal resource
 * wins over `{param}`, which wins over the greedy `{proxy+}`; a greedy resource needs at least one
 * segment (it never matches its parent's own path); an explicit method wins over `ANY`.
 */
import { MethodSpec, ResourceNode } from './model';

/** A matched resource and method. */
export interface RouteMatch {
  readonly resource: ResourceNode;
  readonly method: MethodSpec;
  /** Path parameters, decoded; empty when the resource has none. */
  readonly pathParameters: Record<string, string>;
}

/** Splits a path below the stage (`/`, `/items`, `/items/a/b`) into decoded segments. */
export function pathSegments(pathBelowStage: string): string[] {
  if (pathBelowStage === '' || pathBelowStage === '/') {
    return [];
  }
  return pathBelowStage.slice(1).split('/').map(safeDecode);
}

/** Finds the resource and method for a request, or undefined (API Gateway: 403 Missing Authentication Token). */
export function route(root: ResourceNode, httpMethod: string, segments: readonly string[]): RouteMatch | undefined {
  const found = matchResource(root, segments, 0, Object.create(null));
  if (found === undefined) {
    return undefined;
  }
  const method = found.resource.methods.get(httpMethod.toUpperCase()) ?? found.resource.methods.get('ANY');
  return method === undefined ? undefined : { resource: found.resource, method, pathParameters: found.params };
}

function matchResource(
  node: ResourceNode, segments: readonly string[], index: number, params: Record<string, string>,
): { resource: ResourceNode; params: Record<string, string> } | undefined {
  if (index === segments.length) {
    return node.methods.size > 0 ? { resource: node, params } : undefined;
  }
  const segment = segments[index];
  const literal = node.literalChildren.get(segment);
  if (literal !== undefined) {
    const found = matchResource(literal, segments, index + 1, params);
    if (found !== undefined) {
      return found;
    }
  }
  if (node.paramChild !== undefined && segment !== '') {
    const found = matchResource(node.paramChild, segments, index + 1, withParam(params, node.paramChild.paramName!, segment));
    if (found !== undefined) {
      return found;
    }
  }
  const greedy = node.greedyChild;
  if (greedy !== undefined && greedy.methods.size > 0) {
    return { resource: greedy, params: withParam(params, greedy.paramName!, segments.slice(index).join('/')) };
  }
  return undefined;
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

/** Percent-decodes a path segment or query part; text that is not valid encoding stays as it is. */
export function safeDecode(text: string): string {
  if (!text.includes('%')) {
    return text;
  }
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
