/**
 * The intrinsic values a stack's template determines on its own, for every reader: `Ref` of a REST
 * API (its logical id, the local API id), of a stage (its name) and of a parameter with a default;
 * `Fn::GetAtt` of a REST API's root resource and of a function's ARN; the pseudo parameters.
 */
import { functionNameOf } from './function-reader';
import { IntrinsicEnvironment, pseudoParameters } from './intrinsics';
import type { StackArtifact } from './stack-template';

export function stackEnvironment(artifact: StackArtifact, template: Record<string, any>): IntrinsicEnvironment {
  const resources: Record<string, any> = template.Resources ?? {};
  return {
    pseudo: pseudoParameters(artifact.region, artifact.stackName),
    ref: (id) => {
      const type = resources[id]?.Type;
      if (type === 'AWS::ApiGateway::RestApi') {
        return id;
      }
      if (type === 'AWS::ApiGateway::Stage') {
        return resources[id].Properties?.StageName;
      }
      if (template.Parameters?.[id]?.Default !== undefined) {
        return String(template.Parameters[id].Default);
      }
      return undefined;
    },
    getAtt: (id, attribute) => {
      if (resources[id]?.Type === 'AWS::ApiGateway::RestApi' && attribute === 'RootResourceId') {
        return `${id}-root`;
      }
      if (resources[id]?.Type === 'AWS::Lambda::Function' && attribute === 'Arn') {
        return `arn:aws:lambda:${artifact.region}:123456789012:function:${functionNameOf(artifact, id, resources[id])}`;
      }
      return undefined;
    },
  };
}
