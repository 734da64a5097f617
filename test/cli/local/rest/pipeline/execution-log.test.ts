/**
 * What the execution log masks.
 */
import { mask, maskedEvent } from '../../../../../src/cli/local/rest/pipeline/execution-log';

test.each([
  ['abc', '***'],
  ['12345678', '********'],
  ['123456789', '*****6789'],
])('mask(%s) = %s', (value, masked) => {
  expect(mask(value)).toBe(masked);
});

test('the event in the execution log masks Authorization and X-Amz-Security-Token values only', () => {
  const event = {
    headers: { 'authorization': 'AWS4-HMAC-SHA256 secret-1234', 'X-Amz-Security-Token': 'token-value-abcd', 'x-other': 'visible' },
    multiValueHeaders: { Authorization: ['AWS4-HMAC-SHA256 secret-1234'] },
    body: '{"authorization":"in the body stays"}',
  };
  const shown = JSON.parse(maskedEvent(event));
  expect(shown.headers).toEqual({ 'authorization': `${'*'.repeat(24)}1234`, 'X-Amz-Security-Token': `${'*'.repeat(12)}abcd`, 'x-other': 'visible' });
  expect(shown.multiValueHeaders.Authorization).toEqual([`${'*'.repeat(24)}1234`]);
  expect(shown.body).toBe(event.body);
});
