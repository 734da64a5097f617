/**
 * Stage method throttling of one API: a token bucket per stage and method that the stage's
 * `MethodSettings` throttle, made on the method's first request.
 */
import { TokenBucket } from './token-bucket';
import type { MethodSpec, StageThrottleSetting, UsageSpec } from '../../model/rest-api';

export class StageBuckets {
  private readonly buckets = new Map<string, Map<MethodSpec, TokenBucket | null>>();

  constructor(private readonly usage: UsageSpec) {}

  /** The stage's bucket for a method of `resourcePath`; null when the stage does not throttle it. */
  bucket(stage: string, resourcePath: string, method: MethodSpec, now: number): TokenBucket | null {
    let byMethod = this.buckets.get(stage);
    if (byMethod === undefined) {
      byMethod = new Map();
      this.buckets.set(stage, byMethod);
    }
    let bucket = byMethod.get(method);
    if (bucket === undefined) {
      const setting = stageThrottleOf(this.usage, stage, resourcePath, method.httpMethod);
      bucket = setting === undefined ? null : new TokenBucket(setting, now);
      byMethod.set(method, bucket);
    }
    return bucket;
  }
}

/**
 * The stage's throttling of a method: its own `MethodSettings` entry, else its resource's for every
 * method, else the stage-wide one; undefined when the stage does not throttle it (also for the route listing).
 */
export function stageThrottleOf(usage: UsageSpec, stage: string, resourcePath: string, httpMethod: string): StageThrottleSetting | undefined {
  const settings = Object.prototype.hasOwnProperty.call(usage.stageThrottles, stage) ? usage.stageThrottles[stage] : [];
  return settings.find((s) => s.resourcePath === resourcePath && s.httpMethod === httpMethod)
    ?? settings.find((s) => s.resourcePath === resourcePath && s.httpMethod === '*')
    ?? settings.find((s) => s.resourcePath === '/*' && s.httpMethod === '*');
}
