/**
 * `AWS` service integration (DynamoDB, SQS, SNS, ...): the mapped body, signed with the
 * environment's credentials, goes to the endpoint the user names with `AWS_ENDPOINT_URL` /
 * `AWS_ENDPOINT_URL_<SERVICE>` (../aws-service-request.ts); the service's status code selects the
 * integration response. Without an endpoint: 500, with a note that names the variable to set.
 */
import { awsServiceRequest } from '../aws-service-request';
import type { Backend } from './backend';
import { endpointHeaders, endpointUri } from './endpoint-uri';
import { configurationError, sendToEndpoint } from './send-to-endpoint';
import { stageVariablesOf } from './template-input';

export const awsBackend: Backend<'aws'> = async (routed, integration, request) => {
  const uri = endpointUri(integration.backend.uri, stageVariablesOf(routed), request.parameters);
  if (typeof uri !== 'string') {
    return configurationError(routed, integration, uri.problem);
  }
  const outbound = await awsServiceRequest({
    uri,
    httpMethod: integration.httpMethod === undefined || integration.httpMethod === 'ANY' ? routed.request.method.toUpperCase() : integration.httpMethod,
    body: request.body,
    // The service protocol's content type is set by the request builder unless a header mapping sets one.
    headers: endpointHeaders(undefined, request.parameters),
    region: integration.backend.region,
    env: process.env,
  });
  if ('missingEndpoint' in outbound) {
    return configurationError(routed, integration, outbound.message);
  }
  return sendToEndpoint(routed, integration, outbound);
};
