/**
 * Gateway errors rendered: the default, the API's gateway responses, an unknown stage.
 */
import { UNKNOWN_STAGE } from '../../../../../src/cli/local/rest/pipeline/gateway-errors';
import { renderError } from '../../../../../src/cli/local/rest/pipeline/render-error';

describe('gateway errors', () => {
  const ids = { requestId: 'r-1', apigwId: 'g-1=', traceId: 'Root=1-0-0', integrationTraceId: 'Root=1-0-0' };
  const error = { type: 'MISSING_AUTHENTICATION_TOKEN' as const, status: 403, message: 'Missing Authentication Token', errorType: 'MissingAuthenticationTokenException' };
  const api = (gatewayResponses: any[]) => ({ gatewayResponses } as any);

  test('the default rendering', async () => {
    expect(await renderError(api([]), ids, error)).toEqual({
      statusCode: 403,
      headers: [['Content-Type', 'application/json'], ['x-amzn-RequestId', 'r-1'], ['x-amzn-ErrorType', 'MissingAuthenticationTokenException'], ['x-amz-apigw-id', 'g-1=']],
      body: '{"message":"Missing Authentication Token"}',
      requestId: 'r-1',
    });
  });

  test('the API\'s gateway response for the type wins over DEFAULT_4XX; its headers replace same-named ones', async () => {
    const rendered = await renderError(api([
      { responseType: 'DEFAULT_4XX', statusCode: 400, headers: { 'X-Default': 'd' } },
      { responseType: 'MISSING_AUTHENTICATION_TOKEN', statusCode: 404, headers: { 'content-type': 'text/plain', 'Access-Control-Allow-Origin': '*' } },
    ]), ids, error);
    expect(rendered.statusCode).toBe(404);
    expect(rendered.headers).toContainEqual(['Content-Type', 'text/plain']);
    expect(rendered.headers).toContainEqual(['Access-Control-Allow-Origin', '*']);
    expect(rendered.headers).not.toContainEqual(['X-Default', 'd']);
  });

  test('an unknown stage names no deployment: no gateway response of the API applies to its 403 Forbidden', async () => {
    const rendered = await renderError(api([
      { responseType: 'DEFAULT_4XX', statusCode: 400, headers: { 'Access-Control-Allow-Origin': '*' } },
      { responseType: 'UNKNOWN_STAGE', statusCode: 404, headers: {} },
    ]), ids, UNKNOWN_STAGE);
    expect(rendered).toEqual({
      statusCode: 403,
      headers: [['Content-Type', 'application/json'], ['x-amzn-RequestId', 'r-1'], ['x-amzn-ErrorType', 'ForbiddenException'], ['x-amz-apigw-id', 'g-1=']],
      body: '{"message":"Forbidden"}',
      requestId: 'r-1',
    });
  });
});
