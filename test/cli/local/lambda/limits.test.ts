/**
 * The account's concurrency limit, read from the environment (the server-level behaviour is in
 * serve-lambda.test.ts).
 */
import { LocalApiError } from '../../../../src/cli/local/common/local-api-error';
import { accountConcurrency, DEFAULT_ACCOUNT_CONCURRENCY, MAX_CONCURRENCY_ENV } from '../../../../src/cli/local/lambda/limits';
import { thrownBy } from '../../../support/thrown-by';

describe('accountConcurrency', () => {
  test('1000 (Lambda\'s default quota) without the variable, or when it is empty', () => {
    expect(accountConcurrency({})).toBe(DEFAULT_ACCOUNT_CONCURRENCY);
    expect(accountConcurrency({ [MAX_CONCURRENCY_ENV]: ' ' })).toBe(1000);
  });

  test.each([['1', 1], ['5000', 5000]])('%s gives %i', (raw, value) => {
    expect(accountConcurrency({ [MAX_CONCURRENCY_ENV]: raw })).toBe(value);
  });

  test.each(['0', '-1', '2.5', 'ten', '1e400'])('%s is a usage error naming the variable', (raw) => {
    const read = () => accountConcurrency({ [MAX_CONCURRENCY_ENV]: raw });
    expect(read).toThrow(LocalApiError);
    expect(thrownBy(read)).toMatchObject({ kind: 'usage' });
    expect(read).toThrow(`VENDOR_OUTPUTS_MAX_CONCURRENCY must be a positive whole number of concurrent executions (got '${raw}')`);
  });
});
