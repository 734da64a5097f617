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

describe('selection patterns run in linear time on the function\'s error text', () => {
  test.each([
    ['(a|aa)*b', 'a'.repeat(100_000), 200],
    ['(.*Error.*)+x', `${'Error '.repeat(20_000)}`, 200],
    ['(.*a){10}', 'a'.repeat(100_000), 400],
  ])('%j against a long error message selects at once', (selectionPattern, input, status) => {
    const responses: IntegrationResponseSpec[] = [
      { statusCode: 400, selectionPattern, responseParameters: {}, responseTemplates: {} },
      { statusCode: 200, responseParameters: {}, responseTemplates: {} },
    ];
    const started = process.hrtime.bigint();
    expect(selectIntegrationResponse(responses, input)?.statusCode).toBe(status);
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(1000);
  });

  test('`.` stops at a line end, as the API reference warns for `.+` (was: matched across lines)', () => {
    const badOnly: IntegrationResponseSpec[] = [{ statusCode: 400, selectionPattern: 'Bad.*', responseParameters: {}, responseTemplates: {} }];
    expect(selectIntegrationResponse(badOnly, 'Bad\ninput')).toBeUndefined();
    expect(selectIntegrationResponse([{ ...badOnly[0], selectionPattern: 'Bad(.|\n)*' }], 'Bad\ninput')?.statusCode).toBe(400);
    expect(selectIntegrationResponse([{ ...badOnly[0], selectionPattern: '(?s)Bad.*' }], 'Bad\ninput')?.statusCode).toBe(400);
  });
});
