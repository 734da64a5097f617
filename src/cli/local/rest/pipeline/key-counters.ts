/**
 * What the usage plans have counted per key: per plan and key a bucket for the plan's `Throttle`,
 * one per method the plan throttles on its own, and a quota counter. A plan's limits are the key's
 * across every API and stage of the plan, so one `KeyCounters` serves all the APIs of a server.
 */
import { QuotaCounter } from './quota-counter';
import { TokenBucket } from './token-bucket';
import type { ApiKeySpec, ThrottleLimits, UsagePlanSpec } from '../../model/rest-api';

/** One key's counters in one usage plan. */
export interface KeyUsage {
  /** The plan's `Throttle` bucket (every method of the plan). */
  readonly planBucket?: TokenBucket;
  /** `<api> <stage> <resource path> <method>` → the bucket of a method the plan also throttles on its own. */
  readonly methodBuckets: Map<string, TokenBucket>;
  readonly quota?: QuotaCounter;
}

export class KeyCounters {
  private readonly usages = new Map<string, KeyUsage>();

  /** The counters of a key in a plan (a plan and its keys are named by stack and logical id: the same in every API). */
  of(plan: UsagePlanSpec, key: ApiKeySpec, now: number): KeyUsage {
    const id = `${key.stackName}/${plan.logicalId}/${key.logicalId}`;
    let usage = this.usages.get(id);
    if (usage === undefined) {
      usage = {
        planBucket: plan.throttle === undefined ? undefined : new TokenBucket(plan.throttle, now),
        methodBuckets: new Map(),
        quota: plan.quota === undefined ? undefined : new QuotaCounter(plan.quota, now),
      };
      this.usages.set(id, usage);
    }
    return usage;
  }

  /** The bucket of a method the plan throttles on its own. */
  methodBucket(usage: KeyUsage, id: string, limits: ThrottleLimits, now: number): TokenBucket {
    let bucket = usage.methodBuckets.get(id);
    if (bucket === undefined) {
      bucket = new TokenBucket(limits, now);
      usage.methodBuckets.set(id, bucket);
    }
    return bucket;
  }
}
