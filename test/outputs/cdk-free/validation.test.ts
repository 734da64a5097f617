/**
 * The validation messages of a document cost what they show, however large the document.
 */
import { validateDocument } from '../../../src/outputs/cdk-free/validation';

describe('validateDocument messages cost what they show', () => {
  test('an object with 16,000 unknown keys: one message per key, none printing the parent', () => {
    const auth: Record<string, string> = { vendor_region: 'r', user_pool_id: 'p', user_pool_client_id: 'c' };
    for (let i = 0; i < 16000; i++) {
      auth[`unknown_${i}`] = 'v'.repeat(50);
    }
    const violations = validateDocument({ version: '1', auth });
    expect(violations).toHaveLength(16000);
    expect(violations[15999]).toEqual({ pointer: '/auth/unknown_15999', message: expect.stringMatching(/^is not allowed here; allowed keys: vendor_region, /) });
    expect(violations.every((v) => v.message.length < 300)).toBe(true);
  });
});
