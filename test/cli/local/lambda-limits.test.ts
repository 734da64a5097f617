/**
 * Lambda's concurrency rules and the local defaults, on their own (the server-level behaviour is
 * in serve-lambda.test.ts).
 */
import { LocalApiError } from '../../../src/cli/local/common/local-api-error';
import { AccountConcurrency, FunctionConcurrency, reservedConcurrency } from '../../../src/cli/local/lambda/concurrency';
import { accountConcurrency, DEFAULT_ACCOUNT_CONCURRENCY, MAX_CONCURRENCY_ENV } from '../../../src/cli/local/lambda/limits';

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

describe('reservedConcurrency', () => {
  test.each([
    [0, 0], [3, 3], ['7', 7], [undefined, undefined], [-1, undefined], [1.5, undefined], ['', undefined], [{ Ref: 'P' }, undefined],
  ])('%p → %p', (value, expected) => {
    expect(reservedConcurrency(value)).toBe(expected);
  });
});

describe('FunctionConcurrency', () => {
  test('a reserved function takes up to its reservation, never from the account', () => {
    const account = new AccountConcurrency(1);
    const reserved = new FunctionConcurrency(account, 2);
    expect([reserved.tryAcquire(), reserved.tryAcquire(), reserved.tryAcquire()]).toEqual([true, true, false]);
    expect(reserved.canGrow()).toBe(false);
    expect(account.canAcquire()).toBe(true);
    reserved.release();
    expect(reserved.canGrow()).toBe(true);
  });

  test('unreserved functions share the account; a release frees a slot for another function', () => {
    const account = new AccountConcurrency(2);
    const a = new FunctionConcurrency(account, undefined);
    const b = new FunctionConcurrency(account, undefined);
    expect([a.tryAcquire(), b.tryAcquire(), a.tryAcquire(), b.canGrow()]).toEqual([true, true, false, false]);
    a.release();
    expect(b.tryAcquire()).toBe(true);
  });

  test('reserved 0 never runs', () => {
    const closed = new FunctionConcurrency(new AccountConcurrency(10), 0);
    expect([closed.canGrow(), closed.tryAcquire()]).toEqual([false, false]);
  });

  test('releasing more than acquired changes nothing', () => {
    const account = new AccountConcurrency(1);
    const a = new FunctionConcurrency(account, undefined);
    a.release();
    expect(a.tryAcquire()).toBe(true);
    expect(a.tryAcquire()).toBe(false);
  });
});

/** What `run` throws (it must throw). */
function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}
