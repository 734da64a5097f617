/**
 * Reads a cloud assembly (`cdk.out`) into the local app model: its stacks and their templates,
 * the APIs of every registered API kind (api-kinds.ts: REST APIs, read by
 * rest/reader/rest-api-reader.ts; HTTP APIs, by http/reader/http-api-reader.ts), the Lambda
 * functions those APIs run, with their code assets, and what the assembly has that is not
 * served. Nothing here knows an API kind or any construct.
 */
import { API_KINDS, apiKindOf } from './api-kinds';
import { assemblyValues } from './template/assembly-values';
import type { DeployedValues } from './template/deployed-values';
import { readFunction } from './template/function-reader';
import type { LocalValues } from './template/local-values';
import { DEFAULT_REGION, StackArtifact, StackTemplate } from './template/stack-template';
import { unservedParts } from './template/unserved-parts';
import { AssemblyStack, readCloudAssembly, readTemplate } from '../assembly/cloud-assembly';
import { readConstructPaths } from '../assembly/construct-paths';
import { readFileAssets } from '../assembly/file-assets';
import { LocalApiError } from './common/local-api-error';
import type { FunctionSpec } from './model/function-spec';
import type { LocalApp, StackSpec } from './model/local-app';
import type { ApiSpec } from './model/rest-api';
import type { UnservedPart } from './model/unserved-part';

export { MAX_INTEGRATION_TIMEOUT_MS } from './rest/reader/integration-timeout';
export { integrationFunctionId, referencedId } from './template/template-references';
export { DEFAULT_REGION } from './template/stack-template';
export type { StackArtifact } from './template/stack-template';

/**
 * Reads the assembly in `assemblyDir`; `stackNames` (artifact ids, stack names or display names)
 * narrows it; `deployed` (`--outputs-file`, `--from-stack`) answers the references it knows.
 */
export function readLocalApp(assemblyDir: string, stackNames: string[] = [], deployed?: DeployedValues): LocalApp {
  const assembly = readCloudAssembly(assemblyDir);
  const chosen = chosenStacks(assembly.stacks, stackNames, assemblyDir);
  const objectKeys = readFileAssets(assembly);
  const all = assembly.stacks.map((stack) => ({ artifact: localArtifact(stack), template: readTemplate(stack), chosen: chosen.includes(stack) }));
  const valuesOf = assemblyValues(all, deployed);
  const stacks: StackSpec[] = [];
  const apis: ApiSpec[] = [];
  const functions = new Map<string, FunctionSpec>();
  const warnings: string[] = [];
  const unserved: UnservedPart[] = [];
  for (const stack of chosen) {
    const { artifact, template } = all[assembly.stacks.indexOf(stack)];
    const { artifactId, stackName, displayName, region, templateFile } = artifact;
    stacks.push({ artifactId, stackName, displayName, region, templateFile, template });
    const stackTemplate = stackTemplateOf(artifact, template, valuesOf(artifactId), objectKeys, functions, warnings);
    const stackApis = API_KINDS.flatMap((kind) => kind.readApis(stackTemplate));
    apis.push(...stackApis);
    unserved.push(...unservedParts(stackTemplate, {
      servedKinds: new Set(API_KINDS.map((kind) => kind.kind)),
      apiStages: new Map(stackApis.map((api) => [api.logicalId, api.stages.length])),
      runs: (functionId) => functions.has(`${artifact.artifactId}/${functionId}`),
    }));
    unserved.push(...stackApis.flatMap((api) => apiKindOf(api).unservedParts?.(api) ?? []));
  }
  return { assemblyDir: assembly.dir, stacks, apis, functions, warnings, unserved };
}

/** The stacks `stackNames` name (every stack when none is named); an unknown name is an error naming the stacks. */
function chosenStacks(all: readonly AssemblyStack[], stackNames: readonly string[], assemblyDir: string): readonly AssemblyStack[] {
  if (stackNames.length === 0) {
    return all;
  }
  const named: AssemblyStack[] = [];
  for (const name of stackNames) {
    const found = all.filter((a) => a.artifactId === name || a.stackName === name || a.displayName === name);
    if (found.length === 0) {
      throw new LocalApiError(`no stack '${name}' in ${assemblyDir}; stacks: ${all.map((a) => a.artifactId).join(', ') || '(none)'}`);
    }
    named.push(...found);
  }
  return named;
}

function localArtifact(stack: AssemblyStack): StackArtifact {
  const constructPaths = new Map<string, string>();
  for (const [logicalId, constructPath] of readConstructPaths(stack)) {
    constructPaths.set(logicalId, constructPath.replace(/\/Resource$/, ''));
  }
  return { ...stack, region: stack.region ?? DEFAULT_REGION, constructPaths };
}

/** The stack as the API kinds read it. */
function stackTemplateOf(
  artifact: StackArtifact, template: Record<string, any>, values: LocalValues, objectKeys: Map<string, string>,
  functions: Map<string, FunctionSpec>, warnings: string[],
): StackTemplate {
  const resources: Record<string, any> = template.Resources ?? {};
  return {
    artifact,
    template,
    resources,
    environment: values.known,
    values,
    warnings,
    ofType: (type) => Object.entries(resources).filter(([, r]) => r?.Type === type),
    registerFunction: (fnId) => {
      const key = `${artifact.artifactId}/${fnId}`;
      if (!functions.has(key)) {
        functions.set(key, readFunction(artifact, fnId, resources[fnId], objectKeys, values));
      }
      return key;
    },
  };
}
