/**
 * Step: throttling and quotas, in the order API Gateway applies them: the usage plan's limits for
 * the key (the plan's method throttle, else the plan's throttle, then its quota), then the stage's
 * method throttling. Over a limit: 429 `{"message":"Too Many Requests"}` (THROTTLED); a used-up
 * quota: 429 `{"message":"Limit Exceeded"}` (QUOTA_EXCEEDED).
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-request-throttling.html
 * An API without usage plans or stage throttling returns at once. The console's TEST skips this step.
 */
import type { ApiKeySpec, UsagePlanSpec } from '../model';
import { ownGet } from '../own-record';
import { maskKey } from './api-key';
import type { GatewayError } from './gateway-errors';
import type { GatewaySettings, RoutedRequest } from './request';
import { TokenBucket } from './token-bucket';
import { KeyUsage, UsageMeter } from './usage-meter';

export const THROTTLED: GatewayError = { type: 'THROTTLED', status: 429, message: 'Too Many Requests', errorType: 'TooManyRequestsException' };
export const QUOTA_EXCEEDED: GatewayError = { type: 'QUOTA_EXCEEDED', status: 429, message: 'Limit Exceeded', errorType: 'LimitExceededException' };

/** One meter per gateway (one API), as the authorizer cache. */
const meters = new WeakMap<GatewaySettings, UsageMeter>();

export function throttle(routed: RoutedRequest): GatewayError | undefined {
  const usage = routed.settings.api.usage;
  if (usage === undefined || routed.settings.testInvoke) {
    return undefined;
  }
  let meter = meters.get(routed.settings);
  if (meter === undefined) {
    meter = new UsageMeter(usage);
    meters.set(routed.settings, meter);
  }
  const now = routed.receivedAt;
  if (routed.apiKey !== undefined) {
    const refused = checkPlan(routed, routed.apiKey.plan, routed.apiKey.key, meter.keyUsage(routed.apiKey.plan, routed.apiKey.key, now), now);
    if (refused !== undefined) {
      return refused;
    }
  }
  const { resource, method } = routed.route;
  const bucket = meter.stageBucket(routed.stage, resource.path, method, now);
  if (bucket !== null && !bucket.take(now)) {
    const { rateLimit, burstLimit } = bucket.limits;
    return refuse(routed, THROTTLED, `Method throttle limit exceeded for Stage ${routed.stage}, Resource ${resource.path}, HttpMethod ${method.httpMethod}. Limit: ${rateLimit.toFixed(2)} Burst: ${burstLimit}`);
  }
  return undefined;
}

function checkPlan(routed: RoutedRequest, plan: UsagePlanSpec, key: ApiKeySpec, counters: KeyUsage, now: number): GatewayError | undefined {
  const { resource, method } = routed.route;
  const apiStage = `${routed.settings.api.apiId}/${routed.stage}`;
  const ownLimits = ownGet(plan.stages[routed.stage], `${resource.path} ${method.httpMethod}`);
  let bucket = counters.planBucket;
  if (ownLimits !== undefined) {
    const id = `${routed.stage} ${resource.path} ${method.httpMethod}`;
    bucket = counters.methodBuckets.get(id);
    if (bucket === undefined) {
      bucket = new TokenBucket(ownLimits, now);
      counters.methodBuckets.set(id, bucket);
    }
  }
  if (bucket !== undefined && !bucket.take(now)) {
    const { rateLimit, burstLimit } = bucket.limits;
    return refuse(routed, THROTTLED, `API Key ${maskKey(key.value)} exceeded throttle limit for API Stage ${apiStage}: Key throttle limit exceeded for Usage Plan ID ${plan.logicalId}, RestApi ${routed.settings.api.apiId}, Stage ${routed.stage}, Resource ${resource.path}, HttpMethod ${method.httpMethod}. Limit: ${rateLimit.toFixed(2)} Burst: ${burstLimit}`);
  }
  if (counters.quota !== undefined && !counters.quota.take(now)) {
    const { limit, period } = counters.quota.quota;
    return refuse(routed, QUOTA_EXCEEDED, `API Key ${maskKey(key.value)} exceeded quota limit for API Stage ${apiStage}: Key quota exhausted for Usage Plan ID ${plan.logicalId}. Limit: ${limit} Period: ${period}`);
  }
  return undefined;
}

function refuse(routed: RoutedRequest, error: GatewayError, text: string): GatewayError {
  routed.log?.add(text);
  routed.settings.note?.(routed.ids.requestId, `${text}; answered 429`);
  return error;
}
