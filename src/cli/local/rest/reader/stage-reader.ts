/**
 * The stages of a stack's REST APIs: `AWS::ApiGateway::Stage`s, and the `StageName` a
 * `Deployment` creates, each with its stage variables.
 */
import { ownSet } from '../../common/own-record';
import type { StackTemplate } from '../../template/stack-template';
import { referencedId } from '../../template/template-references';

/** The stages of one stack's REST APIs. */
export interface RestStages {
  /** Stage names of the API, in template order. */
  namesOf(apiId: string): string[];
  /** Stage name → stage variables of the API. */
  variablesOf(apiId: string): Record<string, Record<string, string>>;
}

export function readStages(stack: StackTemplate): RestStages {
  const names = new Map<string, string[]>();
  const variables = new Map<string, Record<string, Record<string, string>>>();
  const add = (apiId: string | undefined, name: unknown, stageVariables: unknown) => {
    if (apiId === undefined || typeof name !== 'string') {
      return;
    }
    const list = names.get(apiId) ?? [];
    if (!list.includes(name)) {
      list.push(name);
    }
    names.set(apiId, list);
    // Names from the template are own keys, `__proto__` included (see own-record.ts).
    const vars: Record<string, string> = {};
    for (const [k, v] of Object.entries(stageVariables ?? {})) {
      ownSet(vars, k, typeof v === 'string' ? v : JSON.stringify(v));
    }
    const byStage = variables.get(apiId) ?? {};
    ownSet(byStage, name, vars);
    variables.set(apiId, byStage);
  };
  for (const [, stage] of stack.ofType('AWS::ApiGateway::Stage')) {
    add(referencedId(stage.Properties?.RestApiId), stage.Properties?.StageName, stage.Properties?.Variables);
  }
  for (const [, deployment] of stack.ofType('AWS::ApiGateway::Deployment')) {
    add(referencedId(deployment.Properties?.RestApiId), deployment.Properties?.StageName, deployment.Properties?.StageDescription?.Variables);
  }
  return {
    namesOf: (apiId) => names.get(apiId) ?? [],
    variablesOf: (apiId) => variables.get(apiId) ?? {},
  };
}
