/**
 * What one API's throttling and quotas have counted so far: a token bucket per stage method that
 * the stage throttles, and per usage plan and key a bucket (the plan's, or its method's) and a
 * quota counter. Buckets are made on a method's or key's first request.
 */
import type { ApiKeySpec, MethodSpec, StageThrottleSetting, UsagePlanSpec, UsageSpec } from '../model';
import { QuotaCounter } from './quota-counter';
import { TokenBucket } from './token-bucket';

/** One key's counters in one usage plan. */
export interface KeyUsage {
  /** The plan's `Throttle` bucket (shared by the plan's methods without their own). */
  readonly planBucket?: TokenBucket;
  /** `<stage> <resource path> <method>` → the bucket of a method the plan throttles on its own. */
  readonly methodBuckets: Map<string, TokenBucket>;
  readonly quota?: QuotaCounter;
}

export class UsageMeter {
  private readonly stageBuckets = new Map<string, Map<MethodSpec, TokenBucket | null>>();
  private readonly keys = new Map<UsagePlanSpec, Map<ApiKeySpec, KeyUsage>>();

  constructor(private readonly usage: UsageSpec) {}

  /** The stage's bucket for a method of `resourcePath`; null when the stage does not throttle it. */
  stageBucket(stage: string, resourcePath: string, method: MethodSpec, now: number): TokenBucket | null {
    let byMethod = this.stageBuckets.get(stage);
    if (byMethod === undefined) {
      byMethod = new Map();
      this.stageBuckets.set(stage, byMethod);
    }
    let bucket = byMethod.get(method);
    if (bucket === undefined) {
      const setting = stageThrottleOf(this.usage, stage, resourcePath, method.httpMethod);
      bucket = setting === undefined ? null : new TokenBucket(setting, now);
      byMethod.set(method, bucket);
    }
    return bucket;
  }

  /** The counters of a key in a plan. */
  keyUsage(plan: UsagePlanSpec, key: ApiKeySpec, now: number): KeyUsage {
    let byKey = this.keys.get(plan);
    if (byKey === undefined) {
      byKey = new Map();
      this.keys.set(plan, byKey);
    }
    let usage = byKey.get(key);
    if (usage === undefined) {
      usage = {
        planBucket: plan.throttle === undefined ? undefined : new TokenBucket(plan.throttle, now),
        methodBuckets: new Map(),
        quota: plan.quota === undefined ? undefined : new QuotaCounter(plan.quota, now),
      };
      byKey.set(key, usage);
    }
    return usage;
  }
}

/**
 * The stage's throttling of a method: its own `MethodSettings` entry, else its resource's for every
 * method, else the stage-wide one; undefined when the stage does not throttle it (also for the route listing).
 */
export function stageThrottleOf(usage: UsageSpec, stage: string, resourcePath: string, httpMethod: string): StageThrottleSetting | undefined {
  const settings = ownList(usage.stageThrottles, stage);
  return settings.find((s) => s.resourcePath === resourcePath && s.httpMethod === httpMethod)
    ?? settings.find((s) => s.resourcePath === resourcePath && s.httpMethod === '*')
    ?? settings.find((s) => s.resourcePath === '/*' && s.httpMethod === '*');
}

function ownList<T>(record: Readonly<Record<string, readonly T[]>>, key: string): readonly T[] {
  return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : [];
}
