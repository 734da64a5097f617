/**
 * An `AWS_PROXY` integration with an `IntegrationSubtype` (`HttpSqsIntegration`,
 * `HttpStepFunctionsIntegration`, or a `CfnIntegration` for EventBridge, Kinesis, AppConfig): its
 * `RequestParameters` read as text (a `Ref` to the queue resolved as the template determines it).
 * A subtype this list does not know, a parameter the subtype does not take, or a required one
 * missing is refused (CloudFormation refuses it too), with a start-up warning saying why.
 */
import { httpIntegrationTimeoutMs } from './integration-timeout';
import type { HttpIntegrationSpec } from '../../model/http-api';
import type { StackTemplate } from '../../template/stack-template';
import { awsSubtype } from '../integrations/aws-subtypes';

/** Why the integration is not served (for the caller's warning), or the integration. */
export function readAwsServiceIntegration(stack: StackTemplate, props: any): HttpIntegrationSpec | { readonly unserved: string } {
  const name = String(props.IntegrationSubtype);
  const subtype = awsSubtype(name);
  if (subtype === undefined) {
    return { unserved: `AWS service integration ${name} (not an integration subtype of HTTP APIs)` };
  }
  const texts = stack.values.texts(props.RequestParameters);
  const problem = texts.problems[0];
  if (problem !== undefined) {
    return { unserved: `AWS service integration ${name} whose ${problem.key} is not known locally (${problem.problem})` };
  }
  const parameters = texts.values;
  const unknown = Object.keys(parameters).find((key) => !subtype.required.includes(key) && !subtype.optional.includes(key));
  if (unknown !== undefined) {
    return { unserved: `AWS service integration ${name} with the parameter ${unknown}, which ${name} does not take` };
  }
  const missing = subtype.required.filter((key) => !Object.prototype.hasOwnProperty.call(parameters, key));
  if (missing.length > 0) {
    return { unserved: `AWS service integration ${name} without its required ${missing.join(', ')}` };
  }
  const region = parameters.Region;
  return {
    type: 'AWS_SERVICE',
    subtype: name,
    parameters,
    region: region !== undefined && !region.startsWith('$') ? region : stack.artifact.region,
    timeoutMs: httpIntegrationTimeoutMs(props.TimeoutInMillis),
  };
}
