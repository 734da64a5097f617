/**
 * The catalogue of gateway errors: every gateway response type of a REST API with its status and
 * default message, every error the local gateway answers built from one of them, and one way to
 * tell an error from any other outcome of a step.
 */
import * as catalogue from '../../../../../src/cli/local/rest/pipeline/gateway-errors';
import { GATEWAY_RESPONSE_TYPES, gatewayError, isGatewayError } from '../../../../../src/cli/local/rest/pipeline/gateway-errors';

const namedErrors = Object.entries(catalogue)
  .filter(([, value]) => typeof value === 'object' && value !== null && value !== GATEWAY_RESPONSE_TYPES) as Array<[string, catalogue.GatewayError]>;

test('the catalogue lists every gateway response type of a REST API', () => {
  expect(Object.keys(GATEWAY_RESPONSE_TYPES).sort()).toEqual([
    'ACCESS_DENIED', 'API_CONFIGURATION_ERROR', 'AUTHORIZER_CONFIGURATION_ERROR', 'AUTHORIZER_FAILURE', 'BAD_REQUEST_BODY',
    'BAD_REQUEST_PARAMETERS', 'DEFAULT_4XX', 'DEFAULT_5XX', 'EXPIRED_TOKEN', 'INTEGRATION_FAILURE', 'INTEGRATION_TIMEOUT',
    'INVALID_API_KEY', 'INVALID_SIGNATURE', 'MISSING_AUTHENTICATION_TOKEN', 'QUOTA_EXCEEDED', 'REQUEST_TOO_LARGE',
    'RESOURCE_NOT_FOUND', 'THROTTLED', 'UNAUTHORIZED', 'UNSUPPORTED_MEDIA_TYPE', 'WAF_FILTERED',
  ]);
  expect(GATEWAY_RESPONSE_TYPES.MISSING_AUTHENTICATION_TOKEN).toEqual({ status: 403, message: 'Missing Authentication Token', errorType: 'MissingAuthenticationTokenException' });
  expect(GATEWAY_RESPONSE_TYPES.THROTTLED.status).toBe(429);
});

test('each named error has a type of the catalogue and is recognised as a gateway error', () => {
  expect(namedErrors.map(([name]) => name)).toEqual(expect.arrayContaining(['MISSING_AUTHENTICATION_TOKEN', 'UNKNOWN_STAGE', 'EXPLICIT_DENY', 'THROTTLED', 'INTEGRATION_TIMEOUT']));
  for (const [name, error] of namedErrors) {
    expect([name, Object.keys(GATEWAY_RESPONSE_TYPES)]).toEqual([name, expect.arrayContaining([error.type])]);
    expect([name, isGatewayError(error)]).toEqual([name, true]);
  }
  expect(isGatewayError(catalogue.missingRequestParameters(['q']))).toBe(true);
  expect(isGatewayError(catalogue.notJson('Unexpected token'))).toBe(true);
});

test('an error takes its status, message and error type from its type unless it says otherwise', () => {
  expect(gatewayError('INTEGRATION_TIMEOUT')).toEqual({ type: 'INTEGRATION_TIMEOUT', status: 504, message: 'Endpoint request timed out' });
  expect(catalogue.INTEGRATION_FAILURE_502).toEqual({ type: 'DEFAULT_5XX', status: 502, message: 'Internal server error', errorType: 'InternalServerErrorException' });
  expect(catalogue.EXPLICIT_DENY).toEqual({
    type: 'ACCESS_DENIED', status: 403, message: 'User is not authorized to access this resource with an explicit deny', messageKey: 'Message', errorType: 'AccessDeniedException',
  });
  expect(catalogue.AUTHORIZER_CONFIGURATION_ERROR).toEqual({ type: 'AUTHORIZER_CONFIGURATION_ERROR', status: 500, message: null, errorType: 'AuthorizerConfigurationException' });
  expect(catalogue.missingRequestParameters(['q', 'h'])).toEqual({
    type: 'BAD_REQUEST_PARAMETERS',
    status: 400,
    message: 'Missing required request parameters: [q, h]',
    errorType: 'BadRequestException',
    body: '{"message": "Missing required request parameters: [q, h]"}',
  });
});

test.each([
  ['a method response', { statusCode: 200, headers: [], body: '', kind: 'Lambda proxy response' }],
  ['a backend response', { statusCode: 200, headers: [], body: Buffer.alloc(0), selectionInput: '200' }],
  ['an authorizer result', { principalId: 'user', policyDocument: {}, context: {} }],
  ['a type outside the catalogue', { type: 'UNKNOWN', status: 403, message: 'Forbidden' }],
  ['a type without a status', { type: 'THROTTLED' }],
])('%s is not a gateway error', (_, outcome) => {
  expect(isGatewayError(outcome)).toBe(false);
});
