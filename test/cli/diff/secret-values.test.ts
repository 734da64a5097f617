import { isSecretKey, isSecretPointer, maskSecrets, SECRET_PLACEHOLDER } from '../../../src/cli/diff/secret-values';

describe('which values are secret', () => {
  test.each([
    'api_key', 'apiKey', 'API_KEY', 'api-key', 'apikey', 'ApiKey', 'client_secret', 'clientSecret', 'secret', 'secrets',
    'password', 'db_password', 'passwd', 'token', 'refresh_token', 'accessToken', 'tokens', 'private_key', 'privateKey',
    'secret_access_key', 'aws_secret_key', 'credentials', 'credential',
  ])('%s is secret', (name) => {
    expect(isSecretKey(name)).toBe(true);
  });

  test.each([
    'api_key_id', 'access_key_id', 'password_policy', 'user_pool_id', 'api_endpoint', 'api_name', 'bucket_name', 'url',
    'tokenizer', 'secretary', 'keys', 'api', 'min_length', 'require_symbols', 'response_type', 'passkey',
  ])('%s is not', (name) => {
    expect(isSecretKey(name)).toBe(false);
  });

  test('a value is secret when its key or a key above it is', () => {
    expect(isSecretPointer('/data/api_key')).toBe(true);
    expect(isSecretPointer('/custom/credentials/user')).toBe(true);
    expect(isSecretPointer('/custom/tokens/0')).toBe(true);
    expect(isSecretPointer('/auth/password_policy/min_length')).toBe(false);
    expect(isSecretPointer('/data/url')).toBe(false);
    expect(isSecretPointer('')).toBe(false);
  });
});

describe('maskSecrets', () => {
  test('replaces secrets inside a value, in objects and lists, and leaves the rest as it was', () => {
    const value = { url: 'u', api_key: 'k', list: [{ token: 't', name: 'n' }], nested: { clientSecret: { a: 1 } } };
    expect(maskSecrets(value, '/data')).toEqual({
      url: 'u', api_key: SECRET_PLACEHOLDER, list: [{ token: SECRET_PLACEHOLDER, name: 'n' }], nested: { clientSecret: SECRET_PLACEHOLDER },
    });
    expect(value.api_key).toBe('k');
  });

  test('a value at a secret pointer is masked whole', () => {
    expect(maskSecrets({ user: 'u' }, '/custom/credentials')).toBe(SECRET_PLACEHOLDER);
    expect(maskSecrets('x', '/custom/credentials/user')).toBe(SECRET_PLACEHOLDER);
    expect(maskSecrets('x', '/custom/user')).toBe('x');
  });
});
