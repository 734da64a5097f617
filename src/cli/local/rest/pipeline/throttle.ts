/**
 * Step: throttling and quotas, in the order API Gateway applies them: the usage plan's limits for
 * the key (the plan's throttle for this method if it sets one, and the plan's throttle, then its
 * quota), then the stage's method throttling. Over a limit: 429 `{"message":"Too Many Requests"}`
 * (THROTTLED); a used-up quota: 429 `{"message":"Limit Exceeded"}` (QUOTA_EXCEEDED).
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-request-throttling.html
 * An API without usage plans or stage throttling returns at once. The console's TEST skips this step.
 */
import { maskKey } from './api-key';
import { GatewayError, QUOTA_EXCEEDED, THROTTLED } from './gateway-errors';
import { KeyCounters } from './key-counters';
import type { GatewaySettings, RoutedRequest } from './request';
import { StageBuckets } from './stage-buckets';
import type { TokenBucket } from './token-bucket';
import { ownGet } from '../../common/own-record';
import type { UsageSpec } from '../../model/rest-api';

/** Per gateway (one API): its stage buckets, and its key counters when the server shares none. */
const state = new WeakMap<GatewaySettings, { readonly stages: StageBuckets; readonly keys: KeyCounters }>();

export function throttle(routed: RoutedRequest): GatewayError | undefined {
  const usage = routed.settings.api.usage;
  if (usage === undefined || routed.settings.testInvoke) {
    return undefined;
  }
  const { stages, keys } = stateOf(routed.settings, usage);
  const now = routed.receivedAt;
  if (routed.apiKey !== undefined) {
    const refused = checkPlan(routed, keys, now);
    if (refused !== undefined) {
      return refused;
    }
  }
  const { resource, method } = routed.route;
  const bucket = stages.bucket(routed.stage, resource.path, method, now);
  if (bucket !== null && !bucket.take(now)) {
    return refuse(routed, THROTTLED, `Method throttle limit exceeded for Stage ${routed.stage}, Resource ${resource.path}, HttpMethod ${method.httpMethod}. ${limitsText(bucket)}`);
  }
  return undefined;
}

function stateOf(settings: GatewaySettings, usage: UsageSpec): { readonly stages: StageBuckets; readonly keys: KeyCounters } {
  let found = state.get(settings);
  if (found === undefined) {
    found = { stages: new StageBuckets(usage), keys: settings.keyCounters ?? new KeyCounters() };
    state.set(settings, found);
  }
  return found;
}

function checkPlan(routed: RoutedRequest, keys: KeyCounters, now: number): GatewayError | undefined {
  const { key, plan } = routed.apiKey!;
  const { resource, method } = routed.route;
  const apiId = routed.settings.api.apiId;
  const counters = keys.of(plan, key, now);
  const ownLimits = ownGet(plan.stages[routed.stage], `${resource.path} ${method.httpMethod}`);
  const methodBucket = ownLimits === undefined ? undefined : keys.methodBucket(counters, `${apiId} ${routed.stage} ${resource.path} ${method.httpMethod}`, ownLimits, now);
  // A method the plan throttles on its own is also held to the plan's throttle (both are the key's).
  for (const bucket of [methodBucket, counters.planBucket]) {
    if (bucket !== undefined && !bucket.take(now)) {
      return refuse(routed, THROTTLED, `API Key ${maskKey(key.value)} exceeded throttle limit for API Stage ${apiId}/${routed.stage}: Key throttle limit exceeded for Usage Plan ID ${plan.logicalId}, RestApi ${apiId}, Stage ${routed.stage}, Resource ${resource.path}, HttpMethod ${method.httpMethod}. ${limitsText(bucket)}`);
    }
  }
  if (counters.quota !== undefined && !counters.quota.take(now)) {
    const { limit, period } = counters.quota.quota;
    return refuse(routed, QUOTA_EXCEEDED, `API Key ${maskKey(key.value)} exceeded quota limit for API Stage ${apiId}/${routed.stage}: Key quota exhausted for Usage Plan ID ${plan.logicalId}. Limit: ${limit} Period: ${period}`);
  }
  return undefined;
}

/** `Limit: 5.00 Burst: 10`, as the gateway's log shows a bucket. */
function limitsText(bucket: TokenBucket): string {
  return `Limit: ${bucket.limits.rateLimit.toFixed(2)} Burst: ${bucket.limits.burstLimit}`;
}

function refuse(routed: RoutedRequest, error: GatewayError, text: string): GatewayError {
  routed.log?.add(text);
  routed.settings.note?.(routed.ids.requestId, `${text}; answered 429`);
  return error;
}
