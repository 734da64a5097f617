/**
 * Lambda's concurrency rules: a function with reserved concurrency may run that many
 * environments at most and never takes from the rest; every other function shares what remains
 * of the account's concurrency. Here a running environment counts whether busy or idle: locally
 * an idle environment costs memory until it is retired.
 */

/** The account's unreserved concurrency, shared by the functions without reserved concurrency. */
export class AccountConcurrency {
  private used = 0;

  constructor(private currentLimit: number) {}

  get limit(): number {
    return this.currentLimit;
  }

  /** A reload changed the functions' reserved concurrency: environments above the new limit stay until they retire. */
  resize(limit: number): void {
    this.currentLimit = limit;
  }

  canAcquire(): boolean {
    return this.used < this.limit;
  }

  tryAcquire(): boolean {
    if (this.used >= this.limit) {
      return false;
    }
    this.used++;
    return true;
  }

  release(): void {
    this.used = Math.max(0, this.used - 1);
  }
}

/** How many environments one function may have: its reserved concurrency, or a share of the account's. */
export class FunctionConcurrency {
  private used = 0;

  constructor(private readonly account: AccountConcurrency, public readonly reserved: number | undefined) {}

  /** The most environments this function could ever have. */
  get limit(): number {
    return this.reserved ?? this.account.limit;
  }

  /** Whether one more environment fits. */
  canGrow(): boolean {
    return this.reserved !== undefined ? this.used < this.reserved : this.account.canAcquire();
  }

  tryAcquire(): boolean {
    if (this.reserved !== undefined) {
      if (this.used >= this.reserved) {
        return false;
      }
    } else if (!this.account.tryAcquire()) {
      return false;
    }
    this.used++;
    return true;
  }

  release(): void {
    if (this.used > 0) {
      this.used--;
      if (this.reserved === undefined) {
        this.account.release();
      }
    }
  }
}

/** `ReservedConcurrentExecutions` as a count, or undefined when the function has none (or it is not a number). */
export function reservedConcurrency(value: unknown): number | undefined {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}
