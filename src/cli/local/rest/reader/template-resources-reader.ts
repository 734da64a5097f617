/** A REST API's `AWS::ApiGateway::Resource` tree and `AWS::ApiGateway::Method`s, from the template. */
import { addChild } from './resource-tree';
import type { MethodSpec, ResourceNode } from '../../model/rest-api';
import type { StackTemplate } from '../../template/stack-template';
import { referencedId } from '../../template/template-references';

/** Reads a method's Properties into its spec (see rest-api-reader.ts). */
export type MethodReader = (methodId: string, properties: any) => MethodSpec;

/** Adds the template's resources and methods of the API `apiId` under `root`. */
export function readTemplateResources(stack: StackTemplate, apiId: string, root: ResourceNode, readMethod: MethodReader): void {
  const nodes = resourceNodes(stack, apiId, root);
  for (const [methodId, method] of stack.ofType('AWS::ApiGateway::Method')) {
    const p = method.Properties ?? {};
    if (referencedId(p.RestApiId) !== apiId) {
      continue;
    }
    const resourceRef = referencedId(p.ResourceId);
    const target = resourceRef === apiId ? root : resourceRef !== undefined ? nodes.get(resourceRef) : undefined;
    if (target === undefined) {
      stack.warnings.push(`${stack.artifact.stackName}/${methodId}: method's resource is not in the template; not served`);
      continue;
    }
    const spec = readMethod(methodId, p);
    target.methods.set(spec.httpMethod, spec);
  }
}

/** The API's resources by logical id (the root as `<api>-root`). */
function resourceNodes(stack: StackTemplate, apiId: string, root: ResourceNode): Map<string, ResourceNode> {
  const nodes = new Map<string, ResourceNode>([[`${apiId}-root`, root]]);
  // Resources may appear before their parents: resolve parents until nothing changes.
  const pending = stack.ofType('AWS::ApiGateway::Resource').filter(([, r]) => referencedId(r.Properties?.RestApiId) === apiId);
  let progress = true;
  while (pending.length > 0 && progress) {
    progress = false;
    for (let i = 0; i < pending.length; i++) {
      const [id, resource] = pending[i];
      const parentId = referencedId(resource.Properties?.ParentId);
      const parent = parentId === apiId ? root : parentId !== undefined ? nodes.get(parentId) : undefined;
      if (parent === undefined) {
        continue;
      }
      nodes.set(id, addChild(parent, String(resource.Properties?.PathPart ?? '')));
      pending.splice(i--, 1);
      progress = true;
    }
  }
  for (const [id] of pending) {
    stack.warnings.push(`${stack.artifact.stackName}/${id}: resource's parent is not in the template; not served`);
  }
  return nodes;
}
