/**
 * A REST API's template with the given `AWS::ApiGateway::Model`s, and the intrinsic environment its
 * references resolve in, for the request validation tests.
 */
import { pseudoParameters } from '../../../../../src/cli/local/template/intrinsics';

export const environment = { pseudo: pseudoParameters('us-east-1', 'Stack'), ref: (id: string) => (id === 'Api' ? 'Api' : undefined), getAtt: () => undefined };

/** The resources of a template: the REST API `Api` and a model of it per entry of `models`. */
export function template(models: Record<string, unknown>): Record<string, any> {
  const resources: Record<string, any> = { Api: { Type: 'AWS::ApiGateway::RestApi', Properties: { Name: 'api' } } };
  for (const [id, properties] of Object.entries(models)) {
    resources[id] = { Type: 'AWS::ApiGateway::Model', Properties: { RestApiId: { Ref: 'Api' }, ContentType: 'application/json', ...(properties as object) } };
  }
  return resources;
}
