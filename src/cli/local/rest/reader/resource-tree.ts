/**
 * A REST API's resource tree as the router walks it: literal children by path part, one `{param}`
 * child and one greedy `{proxy+}` child per resource, each with a stable API Gateway-like id.
 */
import { createHash } from 'crypto';
import type { ResourceNode } from '../../model/rest-api';

/** The root resource `/`. */
export function rootResource(): ResourceNode {
  return node('/', '', 'root');
}

/** The child of `parent` for one path part (created once: a second call returns the same node). */
export function addChild(parent: ResourceNode, part: string): ResourceNode {
  const childPath = parent.path === '/' ? `/${part}` : `${parent.path}/${part}`;
  const greedy = /^\{(.+)\+\}$/.exec(part);
  const param = /^\{(.+)\}$/.exec(part);
  if (greedy) {
    parent.greedyChild ??= node(childPath, part, 'greedy', greedy[1]);
    return parent.greedyChild;
  }
  if (param) {
    parent.paramChild ??= node(childPath, part, 'param', param[1]);
    return parent.paramChild;
  }
  let child = parent.literalChildren.get(part);
  if (child === undefined) {
    child = node(childPath, part, 'literal');
    parent.literalChildren.set(part, child);
  }
  return child;
}

/** The resource at an OpenAPI path (`/items/{id}`), created with its parents. */
export function resourceAt(root: ResourceNode, resourcePath: string): ResourceNode {
  let at = root;
  for (const part of resourcePath.split('/').filter((segment) => segment !== '')) {
    at = addChild(at, part);
  }
  return at;
}

function node(pathValue: string, pathPart: string, kind: ResourceNode['kind'], paramName?: string): ResourceNode {
  // A resource id looks like API Gateway's (10 lowercase alphanumerics for the root, 6 otherwise), stable per path.
  const resourceId = createHash('sha256').update(pathValue).digest('hex').slice(0, kind === 'root' ? 10 : 6);
  return { path: pathValue, pathPart, kind, paramName, resourceId, literalChildren: new Map(), methods: new Map() };
}
