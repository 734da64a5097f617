/**
 * Lambda's concurrency rules on their own: reserved concurrency, a function's slots within the
 * account's (the server-level behaviour is in serve-lambda.test.ts).
 */
import { AccountConcurrency, FunctionConcurrency, reservedConcurrency } from '../../../../src/cli/local/lambda/concurrency';

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
