/**
 * Integration `MOCK`: the request template picks an integration response (see ../../mock.ts).
 */
import { runMock } from '../../mock';
import type { IntegrationSpec } from '../../model';
import { API_CONFIGURATION_ERROR, setHeader } from '../gateway-errors';
import type { IntegrationResult } from '../integrate';
import type { RoutedRequest } from '../request';

export function integrateMock(routed: RoutedRequest, integration: Extract<IntegrationSpec, { type: 'MOCK' }>): IntegrationResult {
  const result = runMock(integration.requestTemplates, integration.integrationResponses, {
    header: (name) => routed.headers.get(name),
    query: routed.query.single,
    pathParameters: routed.route.pathParameters,
    contentType: routed.headers.get('content-type'),
  });
  if (result === undefined) {
    routed.log?.add('Execution failed due to configuration error: No match for output mapping and no default output mapping was specified for integration response');
    return API_CONFIGURATION_ERROR;
  }
  const headers: Array<[string, string]> = [['Content-Type', 'application/json']];
  for (const [name, value] of result.headers) {
    setHeader(headers, name, value);
  }
  return { statusCode: result.statusCode, headers, body: result.body, kind: 'MOCK integration response' };
}
