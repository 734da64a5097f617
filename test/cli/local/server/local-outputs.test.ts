/**
 * The local outputs file: URLs of served APIs localized, and the expression of a pending slot.
 */
import { localizeUrl, pendingExpression } from '../../../../src/cli/local/server/local-outputs';

describe('local outputs', () => {
  const apis = [{ apiId: 'Api1234', origin: 'http://127.0.0.1:3000' }];
  test.each([
    ['https://Api1234.execute-api.eu-west-1.amazonaws.com/prod/', 'http://127.0.0.1:3000/prod/'],
    ['https://Api1234.execute-api.cn-north-1.amazonaws.com.cn/prod/items', 'http://127.0.0.1:3000/prod/items'],
    ['https://Api1234.execute-api.eu-west-1.amazonaws.com', 'http://127.0.0.1:3000/'],
    ['https://Other99.execute-api.eu-west-1.amazonaws.com/prod/', 'https://Other99.execute-api.eu-west-1.amazonaws.com/prod/'],
    ['eu-west-1', 'eu-west-1'],
  ])('%s → %s', (value, local) => {
    expect(localizeUrl(value, apis)).toBe(local);
  });

  test('the expression of a pending slot is the Fn::Base64 argument at its index', () => {
    const template = { Outputs: { O: { Value: { 'Fn::Join': [',', [{ 'Fn::Base64': { Ref: 'A' } }, { 'Fn::Base64': { Ref: 'B' } }]] } } } };
    expect(pendingExpression(template, { pointer: '/x', output: 'O', index: 1 })).toEqual({ Ref: 'B' });
    expect(pendingExpression({ Outputs: { O: { Value: { 'Fn::Base64': { Ref: 'A' } } } } }, { pointer: '/x', output: 'O', index: 0 })).toEqual({ Ref: 'A' });
    expect(pendingExpression(template, { pointer: '/x', output: 'Missing', index: 0 })).toBeUndefined();
  });
});
