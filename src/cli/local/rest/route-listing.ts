/**
 * The start-up listing of one stage's methods: for each, what answers it and what the gateway checks
 * before (authorization, API key, throttling, request validation), so that a user sees at a glance
 * which method behaves as deployed and which is not served, and why.
 */
import type { FunctionLabel, RouteRow } from '../api-kind/api-kind';
import type { RestApiSpec, MethodSpec, ResourceNode } from '../model/rest-api';
import { describeStandIn } from '../model/stand-in';
import { authorizerKind } from './authorizers/kinds';
import { integrationKind } from './integrations/kinds';
import { stageThrottleOf } from './pipeline/stage-buckets';
import { listMethods } from './router';

/** The rows of `api`'s methods at `stageUrl` (`http://127.0.0.1:3000/prod/`). */
export function routeRows(api: RestApiSpec, stage: string, stageUrl: string, functionLabel: FunctionLabel, env: NodeJS.ProcessEnv): RouteRow[] {
  const base = stageUrl.replace(/\/$/, '');
  return listMethods(api.root).map(({ resource, method }) => ({
    method: method.httpMethod,
    url: `${base}${resource.path === '/' ? '/' : resource.path}`,
    target: integrationKind(method.integration.type).listingTarget(method.integration, { functionLabel, env }),
    checks: methodChecks(api, stage, resource, method),
  }));
}

function methodChecks(api: RestApiSpec, stage: string, resource: ResourceNode, method: MethodSpec): string[] {
  const checks = [authorizerKind(method.authorizationType).describe(method)];
  if (method.apiKeyRequired) {
    const planned = (api.usage?.plans ?? []).some((plan) => Object.prototype.hasOwnProperty.call(plan.stages, stage));
    checks.push(planned ? 'API key' : `API key, but no usage plan covers stage ${stage}: 403`);
  }
  const throttle = api.usage === undefined ? undefined : stageThrottleOf(api.usage, stage, resource.path, method.httpMethod);
  if (throttle !== undefined) {
    checks.push(`throttle ${throttle.rateLimit} rps, burst ${throttle.burstLimit}`);
  }
  const validation = method.requestValidation;
  if (validation !== undefined) {
    const what = [validation.validateBody ? 'body' : '', validation.validateParameters ? 'params' : ''].filter((x) => x !== '');
    const unusable = [...validation.bodyModels.values()].filter((m) => m.problem !== undefined).map((m) => `model ${m.name} unusable`);
    checks.push([`validator ${validation.validatorName}: ${what.join(', ') || 'nothing'}`, ...unusable].join(', '));
  }
  checks.push(...methodStandInNotes(method));
  return checks;
}

/** The values the method's integration uses that nobody passed, and how to pass them. */
export function methodStandInNotes(method: MethodSpec): string[] {
  const standIns = 'standIns' in method.integration ? method.integration.standIns ?? [] : [];
  return standIns.map((standIn) => `${describeStandIn(standIn)} (pass --outputs-file FILE or --from-stack NAME)`);
}
