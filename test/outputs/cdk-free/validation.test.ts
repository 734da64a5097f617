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

describe('API entries in custom (objects with api_kind)', () => {
  const entry = { api_name: 'chat', api_endpoint: 'https://h1.execute-api.eu-west-1.amazonaws.com/', api_kind: 'http', vendor_region: 'eu-west-1' };
  const required = 'is required but missing (an object of custom with api_kind is an API entry, which has api_name, api_endpoint, api_kind, vendor_region)';

  test('complete entries, flat or keyed, with other keys beside them, are valid; so is a pending value in place of the endpoint', () => {
    expect(validateDocument({ version: '1', custom: { ...entry, api_kind: 'rest', api_id: 'x', api_stage: 'dev', note: 1, chat: entry } })).toEqual([]);
    expect(validateDocument({ version: '1', custom: { chat: { ...entry, api_endpoint: "<pending: Outputs.X[0] after deploy; run 'vendor-outputs generate'>" } } })).toEqual([]);
  });

  test('objects without api_kind stay free-form, at any depth; api_kind deeper than a value of custom is plain data', () => {
    expect(validateDocument({ version: '1', custom: { api_name: 5, orders: { api_endpoint: null }, deep: { x: { api_kind: 'anything' } }, list: [{ api_kind: 1 }] } })).toEqual([]);
  });

  test.each([
    ['a keyed entry missing keys', { chat: { api_kind: 'http' } }, [
      { pointer: '/custom/chat/api_name', message: required },
      { pointer: '/custom/chat/api_endpoint', message: required },
      { pointer: '/custom/chat/vendor_region', message: required },
    ]],
    ['a flat entry missing its region', { api_kind: 'rest', api_name: 'items', api_endpoint: 'https://x/' }, [
      { pointer: '/custom/vendor_region', message: required },
    ]],
    ['an unknown kind', { chat: { ...entry, api_kind: 'graphql' } }, [{ pointer: '/custom/chat/api_kind', message: 'must be one of: rest, http, websocket, function_url (got "graphql")' }]],
    ['an empty name', { chat: { ...entry, api_name: '' } }, [{ pointer: '/custom/chat/api_name', message: 'must have at least 1 character (got "")' }]],
    ['a number as the endpoint', { chat: { ...entry, api_endpoint: 5 } }, [{ pointer: '/custom/chat/api_endpoint', message: 'must be a string (got 5)' }]],
    ['a number as the stage', { chat: { ...entry, api_stage: 1 } }, [{ pointer: '/custom/chat/api_stage', message: 'must be a string (got 1)' }]],
  ])('%s is reported at its pointer, once', (_, custom, violations) => {
    expect(validateDocument({ version: '1', custom })).toEqual(violations);
  });
});
