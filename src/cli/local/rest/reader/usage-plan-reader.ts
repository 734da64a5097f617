/**
 * Reads what decides API keys and throttling for one REST API of a template: the usage plans that
 * name one of its stages (`AWS::ApiGateway::UsagePlan`), their keys (`AWS::ApiGateway::UsagePlanKey`
 * -> `AWS::ApiGateway::ApiKey`), the API's `ApiKeySourceType` and its stages' `MethodSettings`
 * throttling.
 */
import { createHash } from 'crypto';
import { ownSet } from '../../common/own-record';
import { ApiKeySpec, QuotaSpec, StageThrottleSetting, ThrottleLimits, UsagePlanSpec, UsageSpec } from '../../model/rest-api';
import { IntrinsicEnvironment, tryEvaluateString } from '../../template/intrinsics';
import { referencedId } from '../../template/template-references';

/**
 * The account-level limits per Region that apply where nothing lower is set (10,000 requests per
 * second, a burst of 5,000): https://docs.aws.amazon.com/apigateway/latest/developerguide/limits.html
 */
export const ACCOUNT_THROTTLE: ThrottleLimits = { rateLimit: 10_000, burstLimit: 5_000 };

/** What the reader needs to know about the stack. */
export interface UsageStack {
  readonly stackName: string;
  readonly constructPaths: ReadonlyMap<string, string>;
}

/** The API's usage plans, keys and stage throttling; undefined when it has neither plans nor throttling. */
export function readUsage(
  stack: UsageStack, resources: Record<string, any>, apiId: string, environment: IntrinsicEnvironment, warnings: string[],
): UsageSpec | undefined {
  const plans = readPlans(stack, resources, apiId, environment, warnings);
  const stageThrottles = readStageThrottles(resources, apiId, environment);
  if (plans.length === 0 && Object.keys(stageThrottles).length === 0) {
    return undefined;
  }
  const keyIds = new Set(plans.flatMap((plan) => plan.keyIds));
  const keys = [...keyIds].map((id) => readKey(stack, id, resources[id], environment));
  for (const key of keys) {
    if (key.valueSource === 'template' && (key.value.length < 20 || key.value.length > 128)) {
      warnings.push(`${stack.stackName}/${key.logicalId}: API key ${key.name} has a Value of ${key.value.length} characters; API Gateway takes 20 to 128, so the deploy will fail (it works locally)`);
    }
  }
  // The property, or for an API defined by an OpenAPI document in its Body, the document's extension.
  const props = resources[apiId]?.Properties;
  const source = props?.ApiKeySourceType ?? props?.Body?.['x-amazon-apigateway-api-key-source'];
  return { keySource: source === 'AUTHORIZER' ? 'AUTHORIZER' : 'HEADER', keys, plans, stageThrottles };
}

/**
 * The local value of a key whose template has no literal `Value` (API Gateway generates one at
 * deploy): derived from the stack and the key's logical id, so it is the same at every start
 * without a file to keep, and 40 characters like a generated key.
 */
export function localKeyValue(stackName: string, logicalId: string): string {
  return createHash('sha256').update(`vendor-outputs local API key\0${stackName}\0${logicalId}`).digest('hex').slice(0, 40);
}

function readPlans(
  stack: UsageStack, resources: Record<string, any>, apiId: string, environment: IntrinsicEnvironment, warnings: string[],
): UsagePlanSpec[] {
  const plans: UsagePlanSpec[] = [];
  for (const [planId, resource] of Object.entries<any>(resources)) {
    if (resource?.Type !== 'AWS::ApiGateway::UsagePlan') {
      continue;
    }
    const p = resource.Properties ?? {};
    const stages: Record<string, Record<string, ThrottleLimits>> = {};
    for (const apiStage of Array.isArray(p.ApiStages) ? p.ApiStages : []) {
      if (referencedId(apiStage?.ApiId) !== apiId) {
        continue;
      }
      const stage = tryEvaluateString(apiStage.Stage, environment);
      if (stage === undefined) {
        warnings.push(`${stack.stackName}/${planId}: a stage of usage plan ${planId} cannot be resolved locally; its keys are refused there`);
        continue;
      }
      const methods: Record<string, ThrottleLimits> = {};
      for (const [target, limits] of Object.entries<any>(apiStage.Throttle ?? {})) {
        const method = methodThrottleKey(target);
        const read = throttleOf(limits?.RateLimit, limits?.BurstLimit);
        if (method !== undefined && read !== undefined) {
          ownSet(methods, method, read);
        }
      }
      ownSet(stages, stage, methods);
    }
    if (Object.keys(stages).length === 0) {
      continue;
    }
    plans.push({
      logicalId: planId,
      name: tryEvaluateString(p.UsagePlanName, environment) ?? planId,
      keyIds: planKeyIds(stack, resources, planId, warnings),
      stages,
      throttle: throttleOf(p.Throttle?.RateLimit, p.Throttle?.BurstLimit),
      quota: quotaOf(p.Quota),
    });
  }
  return plans;
}

/** `/items/GET` (a usage plan's method throttle key) as `/items GET`; the root is `//GET`. */
function methodThrottleKey(target: string): string | undefined {
  const slash = target.lastIndexOf('/');
  if (slash < 0) {
    return undefined;
  }
  const resourcePath = target.slice(0, slash) || '/';
  return `${resourcePath} ${target.slice(slash + 1).toUpperCase()}`;
}

/** The keys `AWS::ApiGateway::UsagePlanKey` resources put in a plan (keys outside the template are announced). */
function planKeyIds(stack: UsageStack, resources: Record<string, any>, planId: string, warnings: string[]): string[] {
  const ids: string[] = [];
  for (const [id, resource] of Object.entries<any>(resources)) {
    const p = resource?.Properties ?? {};
    if (resource?.Type !== 'AWS::ApiGateway::UsagePlanKey' || referencedId(p.UsagePlanId) !== planId) {
      continue;
    }
    const keyId = referencedId(p.KeyId);
    if (keyId === undefined || resources[keyId]?.Type !== 'AWS::ApiGateway::ApiKey') {
      warnings.push(`${stack.stackName}/${id}: the API key it adds to usage plan ${planId} is not in the template, so no local request can use it`);
    } else if (!ids.includes(keyId)) {
      ids.push(keyId);
    }
  }
  return ids;
}

function readKey(stack: UsageStack, logicalId: string, resource: any, environment: IntrinsicEnvironment): ApiKeySpec {
  const p = resource?.Properties ?? {};
  const literal = p.Value === undefined ? undefined : tryEvaluateString(p.Value, environment);
  return {
    logicalId,
    stackName: stack.stackName,
    constructPath: stack.constructPaths.get(logicalId),
    name: tryEvaluateString(p.Name, environment) ?? logicalId,
    enabled: !(p.Enabled === false || p.Enabled === 'false'),
    value: literal ?? localKeyValue(stack.stackName, logicalId),
    valueSource: literal !== undefined ? 'template' : 'local',
  };
}

/** Limits with the unset one at the account's; undefined when neither is set. */
function throttleOf(rate: unknown, burst: unknown, fallback: ThrottleLimits = ACCOUNT_THROTTLE): ThrottleLimits | undefined {
  const rateLimit = limitNumber(rate);
  const burstLimit = limitNumber(burst);
  if (rateLimit === undefined && burstLimit === undefined) {
    return undefined;
  }
  return { rateLimit: rateLimit ?? fallback.rateLimit, burstLimit: burstLimit ?? fallback.burstLimit };
}

function limitNumber(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

function quotaOf(quota: any): QuotaSpec | undefined {
  const limit = limitNumber(quota?.Limit);
  const period = String(quota?.Period ?? '').toUpperCase();
  if (limit === undefined || (period !== 'DAY' && period !== 'WEEK' && period !== 'MONTH')) {
    return undefined;
  }
  return { limit: Math.floor(limit), period, offset: Math.floor(limitNumber(quota?.Offset) ?? 0) };
}

/**
 * Stage name → the throttling of its `MethodSettings` (and a Deployment's `StageDescription`). The
 * stage-wide entry (`/*` and `*`) fills what a method's entry leaves unset; the account's fills the rest.
 */
function readStageThrottles(
  resources: Record<string, any>, apiId: string, environment: IntrinsicEnvironment,
): Record<string, StageThrottleSetting[]> {
  const out: Record<string, StageThrottleSetting[]> = {};
  for (const resource of Object.values<any>(resources)) {
    const p = resource?.Properties ?? {};
    let name: unknown;
    let description: any;
    if (resource?.Type === 'AWS::ApiGateway::Stage' && referencedId(p.RestApiId) === apiId) {
      name = p.StageName;
      description = p;
    } else if (resource?.Type === 'AWS::ApiGateway::Deployment' && referencedId(p.RestApiId) === apiId && p.StageDescription !== undefined) {
      name = p.StageName;
      description = p.StageDescription;
    }
    const stage = name === undefined ? undefined : tryEvaluateString(name, environment);
    if (stage === undefined) {
      continue;
    }
    const settings = stageSettings(description);
    if (settings.length > 0) {
      ownSet(out, stage, settings);
    }
  }
  return out;
}

interface RawSetting {
  readonly resourcePath: string;
  readonly httpMethod: string;
  readonly rate: unknown;
  readonly burst: unknown;
}

function stageSettings(description: any): StageThrottleSetting[] {
  const raw: RawSetting[] = [];
  if (description.ThrottlingRateLimit !== undefined || description.ThrottlingBurstLimit !== undefined) {
    raw.push({ resourcePath: '/*', httpMethod: '*', rate: description.ThrottlingRateLimit, burst: description.ThrottlingBurstLimit });
  }
  for (const s of Array.isArray(description.MethodSettings) ? description.MethodSettings : []) {
    if (s?.ThrottlingRateLimit === undefined && s?.ThrottlingBurstLimit === undefined) {
      continue;
    }
    raw.push({
      resourcePath: decodeResourcePath(String(s.ResourcePath ?? '/*')),
      httpMethod: String(s.HttpMethod ?? '*').toUpperCase(),
      rate: s.ThrottlingRateLimit,
      burst: s.ThrottlingBurstLimit,
    });
  }
  // The last stage-wide entry wins, as a later setting of the same path replaces an earlier one.
  const wide = raw.filter((s) => s.resourcePath === '/*' && s.httpMethod === '*').pop();
  const stageDefault = wide === undefined ? ACCOUNT_THROTTLE : throttleOf(wide.rate, wide.burst) ?? ACCOUNT_THROTTLE;
  const out: StageThrottleSetting[] = [];
  for (const s of raw) {
    const limits = s === wide ? stageDefault : throttleOf(s.rate, s.burst, stageDefault);
    if (limits !== undefined && (s === wide || s.resourcePath !== '/*' || s.httpMethod !== '*')) {
      out.push({ resourcePath: s.resourcePath, httpMethod: s.httpMethod, ...limits });
    }
  }
  return out;
}

/** `MethodSettings` paths escape `/` as `~1` and `~` as `~0` (JSON Pointer style): `/~1items` is `/items`. */
function decodeResourcePath(path: string): string {
  if (path === '/*') {
    return path;
  }
  const decoded = path.replace(/^\//, '').replace(/~1/g, '/').replace(/~0/g, '~');
  return decoded.startsWith('/') ? decoded : `/${decoded}`;
}
