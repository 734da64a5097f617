/**
 * The `AWS::Lambda::Url` resources of a stack: `TargetFunctionArn` (a function of the template, by
 * `Fn::GetAtt`/`Ref`, or an alias of one), `Qualifier`, `AuthType`, `InvokeMode` and `Cors`. A URL
 * whose function is not in the template is not served (a start-up warning says so).
 */
import { createHash } from 'crypto';
import { readCors } from '../http/reader/cors-reader';
import type { FunctionUrlSpec } from '../model/function-url';
import { readApiIdentity } from '../template/api-identity-reader';
import type { StackTemplate } from '../template/stack-template';
import { integrationFunctionId, referencedId } from '../template/template-references';

export function readFunctionUrls(stack: StackTemplate): FunctionUrlSpec[] {
  const urls: FunctionUrlSpec[] = [];
  for (const [logicalId, resource] of stack.ofType('AWS::Lambda::Url')) {
    const url = readFunctionUrl(stack, logicalId, resource?.Properties ?? {});
    if (url !== undefined) {
      urls.push(url);
    }
  }
  return urls;
}

function readFunctionUrl(stack: StackTemplate, logicalId: string, props: Record<string, any>): FunctionUrlSpec | undefined {
  const where = stack.artifact.constructPaths.get(logicalId) ?? `${stack.artifact.stackName}/${logicalId}`;
  const fnId = targetFunctionId(props.TargetFunctionArn, stack.resources);
  if (fnId === undefined) {
    stack.warnings.push(`${where}: function URL of a function outside the template is not served locally`);
    return undefined;
  }
  const identity = readApiIdentity(stack, logicalId, { Name: where }, { stages: ['$default'], stageVariables: {} });
  const qualifier = typeof props.Qualifier === 'string' ? props.Qualifier : undefined;
  // `Cors` has the fields of an HTTP API's `CorsConfiguration`, read the same way.
  const cors = readCors(props.Cors);
  return {
    ...identity,
    kind: 'FUNCTION_URL',
    functionKey: stack.registerFunction(fnId),
    ...(qualifier !== undefined ? { qualifier } : {}),
    authType: String(props.AuthType ?? 'NONE').toUpperCase() === 'AWS_IAM' ? 'AWS_IAM' : 'NONE',
    invokeMode: String(props.InvokeMode ?? 'BUFFERED').toUpperCase() === 'RESPONSE_STREAM' ? 'RESPONSE_STREAM' : 'BUFFERED',
    ...(cors !== undefined ? { cors } : {}),
    urlId: urlIdOf(stack.artifact.stackName, logicalId),
  };
}

/** The function a `TargetFunctionArn` names: its ARN or name, or an alias (`AWS::Lambda::Alias`) or version of it. */
function targetFunctionId(target: unknown, resources: Record<string, any>): string | undefined {
  const direct = integrationFunctionId(target, resources);
  if (direct !== undefined) {
    return direct;
  }
  const id = referencedId(target);
  if (id !== undefined && resources[id]?.Type === 'AWS::Lambda::Function') {
    return id;
  }
  const viaAlias = id === undefined ? undefined : resources[id]?.Properties?.FunctionName;
  return viaAlias === undefined ? undefined : targetFunctionId(viaAlias, resources);
}

/** A stable 32-character id in the form Lambda gives URLs (lower-case letters and digits). */
function urlIdOf(stackName: string, logicalId: string): string {
  return createHash('sha256').update(`${stackName}/${logicalId}`).digest('hex').slice(0, 32);
}
