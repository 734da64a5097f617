/**
 * Step: a method with `ApiKeyRequired` needs an API key, read from the `x-api-key` header or, when
 * the API's key source is `AUTHORIZER`, from the Lambda authorizer's `usageIdentifierKey`. The key
 * must be an enabled key that one of the API's usage plans gives this stage; otherwise API Gateway
 * answers 403 `{"message":"Forbidden"}` (INVALID_API_KEY), whatever the reason.
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-api-key-source.html
 * The console's TEST skips this step.
 */
import { GatewayError, INVALID_API_KEY } from './gateway-errors';
import type { RoutedRequest } from './request';
import type { ApiKeySpec, UsageSpec } from '../../model/rest-api';

export function requireApiKey(routed: RoutedRequest): GatewayError | undefined {
  if (routed.settings.testInvoke || !routed.route.method.apiKeyRequired) {
    return undefined;
  }
  return checkApiKey(routed);
}

function checkApiKey(routed: RoutedRequest): GatewayError | undefined {
  const { settings, stage, log } = routed;
  const usage = settings.api.usage;
  const fromAuthorizer = usage?.keySource === 'AUTHORIZER';
  const value = fromAuthorizer ? routed.usageIdentifierKey : routed.headers.get('x-api-key');
  const apiStage = `${settings.api.apiId}/${stage}`;
  log?.add(`Verifying Usage Plan for request: ${routed.ids.requestId}. API Key: ${value === undefined ? '' : maskKey(value)} API Stage: ${apiStage}`);
  if (value === undefined || value === '') {
    return refuse(routed, fromAuthorizer ? 'the authorizer returned no usageIdentifierKey (the API key source is AUTHORIZER)' : 'the request has no x-api-key header');
  }
  const key = usage === undefined ? undefined : keysByValue(usage).get(value);
  if (key === undefined) {
    return refuse(routed, `API key ${maskKey(value)} is not a key of a usage plan of this API`);
  }
  if (!key.enabled) {
    return refuse(routed, `API key ${describeKey(key)} is disabled`);
  }
  const plan = usage!.plans.find((p) => p.keyIds.includes(key.logicalId) && Object.prototype.hasOwnProperty.call(p.stages, stage));
  if (plan === undefined) {
    return refuse(routed, `API key ${describeKey(key)} is not in a usage plan for stage ${stage}`);
  }
  log?.add(`Usage Plan check succeeded for API Key ${maskKey(value)} and API Stage ${apiStage}`);
  routed.apiKey = { key, plan };
  // requestContext.identity.apiKey and apiKeyId, as the gateway fills them for a method that requires a key.
  routed.identity = { ...routed.identity, apiKey: key.value, apiKeyId: key.logicalId };
  return undefined;
}

function refuse(routed: RoutedRequest, reason: string): GatewayError {
  const { method, resource } = routed.route;
  const text = `${method.httpMethod} ${resource.path} requires an API key: ${reason}`;
  routed.log?.add(`API Key not authorized: ${text}`);
  routed.settings.note?.(routed.ids.requestId, `${text}; answered 403`);
  return INVALID_API_KEY;
}

/** The keys of the API's usage plans by value (the first key wins when two share one). */
const indexes = new WeakMap<UsageSpec, Map<string, ApiKeySpec>>();

function keysByValue(usage: UsageSpec): Map<string, ApiKeySpec> {
  let index = indexes.get(usage);
  if (index === undefined) {
    index = new Map();
    for (const key of usage.keys) {
      if (!index.has(key.value)) {
        index.set(key.value, key);
      }
    }
    indexes.set(usage, index);
  }
  return index;
}

/** An API key as logs show it: all but its last 6 characters hidden, as the gateway's execution log does. */
export function maskKey(value: string): string {
  return value.length <= 6 ? '*'.repeat(value.length) : `${'*'.repeat(value.length - 6)}${value.slice(-6)}`;
}

export function describeKey(key: ApiKeySpec): string {
  return key.name === key.logicalId ? key.logicalId : `${key.name} (${key.logicalId})`;
}
