/**
 * `--api-key NAME=VALUE`: the values taken and the usage errors.
 */
import { LocalApiError } from '../../../../src/cli/local/common/local-api-error';
import { parseApiKeyValue } from '../../../../src/cli/local/rest/api-key-values';
import { thrownBy } from '../../../support/thrown-by';

describe('--api-key NAME=VALUE', () => {
  test.each([
    ['k=' + 'a'.repeat(20), 20],
    ['k=' + 'a'.repeat(128), 128],
    ['path/to/Key=with=equals-0123456789', 22],
  ])('%s is taken', (text, length) => {
    const parsed = parseApiKeyValue(text);
    expect(parsed.value).toHaveLength(length);
    expect(text).toBe(`${parsed.name}=${parsed.value}`);
  });

  test.each([
    ['k=' + 'a'.repeat(19), /^--api-key k: the value must be 20 to 128 printable characters without spaces, as API Gateway requires \(got 19 characters\)$/],
    ['k=' + 'a'.repeat(129), /\(got 129 characters\)$/],
    ['k=has a space 0123456789abcdef', /the value must be 20 to 128 printable characters without spaces/],
    ['=' + 'a'.repeat(20), /^--api-key must be NAME=VALUE, NAME being the key's Name, logical id or construct path \(got '=a+'\)$/],
    ['no-equals', /^--api-key must be NAME=VALUE/],
  ])('%s is a usage error', (text, message) => {
    expect(() => parseApiKeyValue(text)).toThrow(LocalApiError);
    expect(thrownBy(() => parseApiKeyValue(text))).toMatchObject({ kind: 'usage' });
    expect(() => parseApiKeyValue(text)).toThrow(message);
  });
});
