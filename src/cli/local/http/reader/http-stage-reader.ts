/**
 * The stages of a stack's HTTP APIs (`AWS::ApiGatewayV2::Stage`), each with its stage variables.
 * `AutoDeploy` needs nothing locally: every synth is served as it is.
 */
import { readStageThrottle } from './stage-throttle-reader';
import { ownSet } from '../../common/own-record';
import type { HttpStageThrottle } from '../../model/http-mapping';
import type { StackTemplate } from '../../template/stack-template';
import { referencedId } from '../../template/template-references';

/** The stages of one stack's HTTP APIs. */
export interface HttpStages {
  /** Stage names of the API, in template order. */
  namesOf(apiId: string): string[];
  /** Stage name → stage variables of the API. */
  variablesOf(apiId: string): Record<string, Record<string, string>>;
  /** Stage name → route throttling of the API's stages that throttle. */
  throttlesOf(apiId: string): Record<string, HttpStageThrottle>;
}

export function readHttpStages(stack: StackTemplate): HttpStages {
  const names = new Map<string, string[]>();
  const variables = new Map<string, Record<string, Record<string, string>>>();
  const throttles = new Map<string, Record<string, HttpStageThrottle>>();
  for (const [, stage] of stack.ofType('AWS::ApiGatewayV2::Stage')) {
    const apiId = referencedId(stage.Properties?.ApiId);
    const name = stage.Properties?.StageName;
    if (apiId === undefined || typeof name !== 'string') {
      continue;
    }
    const list = names.get(apiId) ?? [];
    if (!list.includes(name)) {
      list.push(name);
    }
    names.set(apiId, list);
    const vars: Record<string, string> = {};
    for (const [k, v] of Object.entries(stage.Properties?.StageVariables ?? {})) {
      ownSet(vars, k, typeof v === 'string' ? v : JSON.stringify(v));
    }
    const byStage = variables.get(apiId) ?? {};
    ownSet(byStage, name, vars);
    variables.set(apiId, byStage);
    const throttle = readStageThrottle(stage.Properties);
    if (throttle !== undefined) {
      ownSet(throttles.get(apiId) ?? throttles.set(apiId, {}).get(apiId)!, name, throttle);
    }
  }
  return {
    namesOf: (apiId) => names.get(apiId) ?? [],
    variablesOf: (apiId) => variables.get(apiId) ?? {},
    throttlesOf: (apiId) => throttles.get(apiId) ?? {},
  };
}
