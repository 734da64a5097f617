/**
 * A usage plan's quota for one key: at most `limit` requests per UTC day, week (from Sunday) or
 * month; in the initial period (the one the server started in) `offset` fewer, as CloudFormation's
 * QuotaSettings documents `Offset`.
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-properties-apigateway-usageplan-quotasettings.html
 */
import type { QuotaSpec } from '../../model/rest-api';

export class QuotaCounter {
  private readonly initialPeriod: number;
  private period: number;
  private used = 0;

  constructor(public readonly quota: QuotaSpec, now: number) {
    this.initialPeriod = periodStart(quota.period, now);
    this.period = this.initialPeriod;
  }

  /** Counts one request at `now` (ms); false when the period's quota is used up (the request is refused). */
  take(now: number): boolean {
    const period = periodStart(this.quota.period, now);
    if (period !== this.period) {
      this.period = period;
      this.used = 0;
    }
    const allowed = period === this.initialPeriod ? Math.max(0, this.quota.limit - this.quota.offset) : this.quota.limit;
    if (this.used >= allowed) {
      return false;
    }
    this.used++;
    return true;
  }
}

/** The start (epoch ms) of the UTC day, week (Sunday) or month that holds `epochMs`. */
export function periodStart(period: QuotaSpec['period'], epochMs: number): number {
  const d = new Date(epochMs);
  switch (period) {
    case 'DAY':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
    case 'WEEK':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - d.getUTCDay());
    case 'MONTH':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  }
}
