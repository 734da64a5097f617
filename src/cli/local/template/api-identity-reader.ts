/**
 * The identity of an API resource of a stack (api-identity.ts), from its logical id, its `Name`
 * and the stages its kind's reader found.
 */
import type { StackTemplate } from './stack-template';
import type { ApiIdentity } from '../model/api-identity';

export function readApiIdentity(
  stack: StackTemplate,
  logicalId: string,
  props: Readonly<Record<string, unknown>>,
  stages: Pick<ApiIdentity, 'stages' | 'stageVariables'>,
): ApiIdentity {
  const { artifact } = stack;
  return {
    logicalId,
    constructPath: artifact.constructPaths.get(logicalId),
    apiId: logicalId,
    name: typeof props.Name === 'string' ? props.Name : logicalId,
    stackName: artifact.stackName,
    region: artifact.region,
    stages: stages.stages,
    stageVariables: stages.stageVariables,
  };
}
