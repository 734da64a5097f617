/**
 * The integration response a non-proxy integration selects by SelectionPattern.
 */
import type { IntegrationResponseSpec } from '../../../../../../src/cli/local/model/rest-api';
import { selectIntegrationResponse } from '../../../../../../src/cli/local/rest/integrations/non-proxy/response-mapping';

describe('integration response selection', () => {
  const responses: IntegrationResponseSpec[] = [
    { statusCode: 400, selectionPattern: 'Bad.*', responseParameters: {}, responseTemplates: {} },
    { statusCode: 404, selectionPattern: '4\\d\\d', responseParameters: {}, responseTemplates: {} },
    { statusCode: 200, responseParameters: {}, responseTemplates: {} },
  ];

  test.each([
    ['Bad input: x', 400],
    ['404', 404],
    ['a Bad input', 200],
    ['4044', 200],
    [undefined, 200],
  ])('%j selects %d (the whole text must match; otherwise the default)', (input, status) => {
    expect(selectIntegrationResponse(responses, input)?.statusCode).toBe(status);
  });

  test('no match and no default: nothing', () => {
    expect(selectIntegrationResponse(responses.slice(0, 2), '500')).toBeUndefined();
  });

  test('an invalid pattern matches nothing', () => {
    expect(selectIntegrationResponse([{ statusCode: 400, selectionPattern: '(', responseParameters: {}, responseTemplates: {} }], '(')).toBeUndefined();
  });
});
