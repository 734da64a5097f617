/**
 * Reads a cloud assembly (`cdk.out`): its stacks' templates, every `AWS::ApiGateway::RestApi` with
 * its resources, methods, integrations, stages and gateway responses (from the template's resources,
 * or from the OpenAPI document in its `Body`: openapi-reader.ts), and the Lambda functions
 * behind its `AWS_PROXY` integrations with their code assets. Nothing here knows any construct:
 * any REST API in a template is read the same way.
 */
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { IntrinsicEnvironment, pseudoParameters, tryEvaluateString } from './intrinsics';
import { integrationFunctionId, referencedId } from './template-references';
import { AssemblyStack, readCloudAssembly, readTemplate } from '../../assembly/cloud-assembly';
import { readConstructPaths } from '../../assembly/construct-paths';
import { readFileAssets } from '../../assembly/file-assets';
import { LocalApiError } from '../local-api-error';
import { ownSet, stringEntries, stringList } from '../common/own-record';
import {
  ApiSpec, FunctionCode, FunctionSpec, GatewayResponseSpec, LocalApp, MethodSpec,
  ResourceNode, StackSpec,
} from '../model/local-app';
import { readAuthorizer, readAuthorizers } from '../rest/reader/authorizer-reader';
import { IntegrationReadContext, readIntegration } from '../rest/reader/integration-reader';
import { readOpenApiBody } from '../rest/reader/openapi-reader';
import { readUsage } from '../rest/reader/usage-plan-reader';
import { readRequestValidation } from '../rest/reader/validator-reader';

export { MAX_INTEGRATION_TIMEOUT_MS } from '../rest/reader/integration-timeout';
export { integrationFunctionId, referencedId } from './template-references';

/** Region used when a stack is environment-agnostic. */
export const DEFAULT_REGION = 'us-east-1';

/** A stack of the assembly with what the local tools add to it. */
export interface StackArtifact extends AssemblyStack {
  /** The stack's region, or {@link DEFAULT_REGION} when environment-agnostic. */
  readonly region: string;
  /** Logical id → construct path (without a final `/Resource`). */
  readonly constructPaths: Map<string, string>;
}

/** Reads the assembly in `assemblyDir`; `stackNames` (artifact ids, stack names or display names) narrows it. */
export function readLocalApp(assemblyDir: string, stackNames: string[] = []): LocalApp {
  const assembly = readCloudAssembly(assemblyDir);
  let chosen: readonly AssemblyStack[] = assembly.stacks;
  if (stackNames.length > 0) {
    const named: AssemblyStack[] = [];
    for (const name of stackNames) {
      const found = assembly.stacks.filter((a) => a.artifactId === name || a.stackName === name || a.displayName === name);
      if (found.length === 0) {
        throw new LocalApiError(`no stack '${name}' in ${assemblyDir}; stacks: ${assembly.stacks.map((a) => a.artifactId).join(', ') || '(none)'}`);
      }
      named.push(...found);
    }
    chosen = named;
  }
  const objectKeys = readFileAssets(assembly);
  const stacks: StackSpec[] = [];
  const apis: ApiSpec[] = [];
  const functions = new Map<string, FunctionSpec>();
  const warnings: string[] = [];
  for (const stack of chosen) {
    const artifact = localArtifact(stack);
    const template = readTemplate(stack);
    const { artifactId, stackName, displayName, region, templateFile } = artifact;
    stacks.push({ artifactId, stackName, displayName, region, templateFile, template });
    readStackApis(artifact, template, objectKeys, apis, functions, warnings);
  }
  return { assemblyDir: assembly.dir, stacks, apis, functions, warnings };
}

function localArtifact(stack: AssemblyStack): StackArtifact {
  const constructPaths = new Map<string, string>();
  for (const [logicalId, constructPath] of readConstructPaths(stack)) {
    constructPaths.set(logicalId, constructPath.replace(/\/Resource$/, ''));
  }
  return { ...stack, region: stack.region ?? DEFAULT_REGION, constructPaths };
}

function readStackApis(
  artifact: StackArtifact, template: any, objectKeys: Map<string, string>,
  apis: ApiSpec[], functions: Map<string, FunctionSpec>, warnings: string[],
): void {
  const resources: Record<string, any> = template.Resources ?? {};
  const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r?.Type === type);

  const stageNames = new Map<string, string>();
  const stagesByApi = new Map<string, string[]>();
  const stageVariables = new Map<string, Record<string, Record<string, string>>>();
  const addStage = (apiId: string | undefined, name: unknown, variables: unknown) => {
    if (apiId === undefined || typeof name !== 'string') {
      return;
    }
    const list = stagesByApi.get(apiId) ?? [];
    if (!list.includes(name)) {
      list.push(name);
    }
    stagesByApi.set(apiId, list);
    // Names from the template are own keys, `__proto__` included (see own-record.ts).
    const vars: Record<string, string> = {};
    for (const [k, v] of Object.entries(variables ?? {})) {
      ownSet(vars, k, typeof v === 'string' ? v : JSON.stringify(v));
    }
    const byStage = stageVariables.get(apiId) ?? {};
    ownSet(byStage, name, vars);
    stageVariables.set(apiId, byStage);
  };
  for (const [logicalId, stage] of ofType('AWS::ApiGateway::Stage')) {
    stageNames.set(logicalId, stage.Properties?.StageName);
    addStage(referencedId(stage.Properties?.RestApiId), stage.Properties?.StageName, stage.Properties?.Variables);
  }
  for (const [, deployment] of ofType('AWS::ApiGateway::Deployment')) {
    addStage(referencedId(deployment.Properties?.RestApiId), deployment.Properties?.StageName, deployment.Properties?.StageDescription?.Variables);
  }

  const environment: IntrinsicEnvironment = {
    pseudo: pseudoParameters(artifact.region, artifact.stackName),
    ref: (id) => {
      const type = resources[id]?.Type;
      if (type === 'AWS::ApiGateway::RestApi') {
        return id;
      }
      if (type === 'AWS::ApiGateway::Stage') {
        return stageNames.get(id);
      }
      if (template.Parameters?.[id]?.Default !== undefined) {
        return String(template.Parameters[id].Default);
      }
      return undefined;
    },
    getAtt: (id, attribute) => {
      if (resources[id]?.Type === 'AWS::ApiGateway::RestApi' && attribute === 'RootResourceId') {
        return `${id}-root`;
      }
      if (resources[id]?.Type === 'AWS::Lambda::Function' && attribute === 'Arn') {
        return `arn:aws:lambda:${artifact.region}:123456789012:function:${functionNameOf(artifact, id, resources[id])}`;
      }
      return undefined;
    },
  };

  const integrationContext: IntegrationReadContext = {
    stackName: artifact.stackName,
    region: artifact.region,
    environment,
    warnings,
    functionIdOf: (uri) => integrationFunctionId(uri, resources),
    registerFunction: (fnId) => {
      const key = `${artifact.artifactId}/${fnId}`;
      if (!functions.has(key)) {
        functions.set(key, readFunction(artifact, fnId, resources[fnId], objectKeys, environment));
      }
      return key;
    },
  };
  for (const [logicalId, restApi] of ofType('AWS::ApiGateway::RestApi')) {
    const props = restApi.Properties ?? {};
    if (props.Body === undefined && props.BodyS3Location !== undefined) {
      warnings.push(`${artifact.stackName}/${logicalId}: REST API defined by an OpenAPI document in S3 (ApiDefinition.fromAsset or fromBucket) is not served locally; ApiDefinition.fromInline puts it in the template, where it is`);
      continue;
    }
    const root = node('/', '', 'root');
    const { registerFunction } = integrationContext;
    const document = props.Body !== undefined ? readOpenApiBody(props.Body, logicalId) : undefined;
    const authorizerScope = { artifact, resources, apiId: logicalId, environment, warnings, registerFunction };
    const authorizers = readAuthorizers(authorizerScope);
    // The document's validators and models are read as the template's would be.
    const validationResources = document === undefined ? resources : { ...resources, ...document.resources };
    const validationOf = readRequestValidation({
      stackName: artifact.stackName, resources: validationResources, apiLogicalId: logicalId, environment, warnings,
    });
    const methodSpec = (methodId: string, p: any): MethodSpec => {
      const authorizerId = referencedId(p.AuthorizerId);
      return {
        logicalId: methodId,
        httpMethod: String(p.HttpMethod ?? 'ANY').toUpperCase(),
        authorizationType: String(p.AuthorizationType ?? 'NONE').toUpperCase(),
        authorizer: authorizerId !== undefined ? authorizers.get(authorizerId)?.lambda : undefined,
        authorizerName: authorizerId !== undefined ? authorizers.get(authorizerId)?.name : undefined,
        cognitoAuthorizer: authorizerId !== undefined ? authorizers.get(authorizerId)?.cognito : undefined,
        authorizationScopes: stringList(p.AuthorizationScopes),
        apiKeyRequired: p.ApiKeyRequired === true || p.ApiKeyRequired === 'true',
        integration: readIntegration(integrationContext, p.Integration, methodId),
        requestValidation: validationOf(methodId, p),
      };
    };
    const gatewayResponseProps = ofType('AWS::ApiGateway::GatewayResponse')
      .filter(([, r]) => referencedId(r.Properties?.RestApiId) === logicalId)
      .map(([, r]) => r.Properties ?? {});
    const binaryMediaTypes = stringList(props.BinaryMediaTypes);
    if (document !== undefined) {
      for (const note of document.notes) {
        warnings.push(`${artifact.stackName}/${logicalId}: ${note}`);
      }
      for (const authorizer of document.authorizers) {
        authorizers.set(authorizer.id, readAuthorizer(authorizerScope, authorizer.id, authorizer.properties));
      }
      for (const method of document.methods) {
        const spec = methodSpec(`${logicalId} ${method.label}`, method.properties);
        resourceAt(root, method.path).methods.set(spec.httpMethod, spec);
      }
      // A GatewayResponse resource is put after the document is imported: it wins over the document's entry of its type (the first found is used).
      gatewayResponseProps.push(...document.gatewayResponses);
      binaryMediaTypes.push(...document.binaryMediaTypes.filter((t) => !binaryMediaTypes.includes(t)));
    }
    // Resources and methods of the template are added to what a document defines (CDK's addResource on a SpecRestApi).
    readTemplateResources(artifact, resources, logicalId, root, warnings, methodSpec);
    const gatewayResponses = gatewayResponseProps.map(readGatewayResponse);
    const stages = stagesByApi.get(logicalId) ?? [];
    if (stages.length === 0) {
      warnings.push(`${artifact.stackName}/${logicalId}: REST API has no stage; not served`);
    }
    apis.push({
      logicalId,
      constructPath: artifact.constructPaths.get(logicalId),
      apiId: logicalId,
      name: typeof props.Name === 'string' ? props.Name : logicalId,
      stackName: artifact.stackName,
      region: artifact.region,
      stages,
      stageVariables: stageVariables.get(logicalId) ?? {},
      root,
      binaryMediaTypes,
      gatewayResponses,
      usage: readUsage(artifact, resources, logicalId, environment, warnings),
    });
  }
}

/** The template's `AWS::ApiGateway::Resource` tree and `AWS::ApiGateway::Method`s of one REST API. */
function readTemplateResources(
  artifact: StackArtifact, resources: Record<string, any>, apiId: string, root: ResourceNode, warnings: string[],
  methodSpec: (methodId: string, properties: any) => MethodSpec,
): void {
  const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r?.Type === type);
  const nodes = new Map<string, ResourceNode>([[`${apiId}-root`, root]]);
  // Resources may appear before their parents: resolve parents until nothing changes.
  const pending = ofType('AWS::ApiGateway::Resource').filter(([, r]) => referencedId(r.Properties?.RestApiId) === apiId);
  let progress = true;
  while (pending.length > 0 && progress) {
    progress = false;
    for (let i = 0; i < pending.length; i++) {
      const [id, resource] = pending[i];
      const parentId = referencedId(resource.Properties?.ParentId);
      const parent = parentId === apiId ? root : parentId !== undefined ? nodes.get(parentId) : undefined;
      if (parent === undefined) {
        continue;
      }
      nodes.set(id, addChild(parent, String(resource.Properties?.PathPart ?? '')));
      pending.splice(i--, 1);
      progress = true;
    }
  }
  for (const [id] of pending) {
    warnings.push(`${artifact.stackName}/${id}: resource's parent is not in the template; not served`);
  }
  for (const [methodId, method] of ofType('AWS::ApiGateway::Method')) {
    const p = method.Properties ?? {};
    if (referencedId(p.RestApiId) !== apiId) {
      continue;
    }
    const resourceRef = referencedId(p.ResourceId);
    const target = resourceRef === apiId ? root : resourceRef !== undefined ? nodes.get(resourceRef) : undefined;
    if (target === undefined) {
      warnings.push(`${artifact.stackName}/${methodId}: method's resource is not in the template; not served`);
      continue;
    }
    const spec = methodSpec(methodId, p);
    target.methods.set(spec.httpMethod, spec);
  }
}

/** An `AWS::ApiGateway::GatewayResponse`'s Properties (or an OpenAPI document's entry in that shape). */
function readGatewayResponse(p: any): GatewayResponseSpec {
  const headers: Record<string, string> = {};
  const mappedHeaders: Record<string, string> = {};
  for (const [key, value] of Object.entries<any>(p.ResponseParameters ?? {})) {
    const m = /^gatewayresponse\.header\.(.+)$/.exec(key);
    const literal = typeof value === 'string' ? /^'(.*)'$/s.exec(value) : null;
    if (m && literal) {
      ownSet(headers, m[1], literal[1]);
    } else if (m && typeof value === 'string') {
      ownSet(mappedHeaders, m[1], value);
    }
  }
  return {
    responseType: String(p.ResponseType),
    statusCode: p.StatusCode !== undefined ? Number(p.StatusCode) : undefined,
    headers,
    mappedHeaders,
    templates: stringEntries(p.ResponseTemplates),
  };
}

/** The resource at an OpenAPI path (`/items/{id}`), created with its parents. */
function resourceAt(root: ResourceNode, resourcePath: string): ResourceNode {
  let at = root;
  for (const part of resourcePath.split('/').filter((segment) => segment !== '')) {
    at = addChild(at, part);
  }
  return at;
}

function node(pathValue: string, pathPart: string, kind: ResourceNode['kind'], paramName?: string): ResourceNode {
  // A resource id looks like API Gateway's (10 lowercase alphanumerics for the root, 6 otherwise), stable per path.
  const resourceId = createHash('sha256').update(pathValue).digest('hex').slice(0, kind === 'root' ? 10 : 6);
  return { path: pathValue, pathPart, kind, paramName, resourceId, literalChildren: new Map(), methods: new Map() };
}

function addChild(parent: ResourceNode, part: string): ResourceNode {
  const childPath = parent.path === '/' ? `/${part}` : `${parent.path}/${part}`;
  const greedy = /^\{(.+)\+\}$/.exec(part);
  const param = /^\{(.+)\}$/.exec(part);
  if (greedy) {
    parent.greedyChild ??= node(childPath, part, 'greedy', greedy[1]);
    return parent.greedyChild;
  }
  if (param) {
    parent.paramChild ??= node(childPath, part, 'param', param[1]);
    return parent.paramChild;
  }
  let child = parent.literalChildren.get(part);
  if (child === undefined) {
    child = node(childPath, part, 'literal');
    parent.literalChildren.set(part, child);
  }
  return child;
}

function functionNameOf(artifact: StackArtifact, logicalId: string, resource: any): string {
  const name = resource?.Properties?.FunctionName;
  return typeof name === 'string' ? name : `${artifact.stackName}-${logicalId}`;
}

function readFunction(
  artifact: StackArtifact, logicalId: string, resource: any, objectKeys: Map<string, string>, environment: IntrinsicEnvironment,
): FunctionSpec {
  const p = resource?.Properties ?? {};
  const variables: Record<string, string> = {};
  for (const [name, value] of Object.entries<any>(p.Environment?.Variables ?? {})) {
    ownSet(variables, name, tryEvaluateString(value, environment) ?? JSON.stringify(value));
  }
  const timeout = Number(p.Timeout ?? 3);
  const memory = Number(p.MemorySize ?? 128);
  return {
    key: `${artifact.artifactId}/${logicalId}`,
    logicalId,
    stackName: artifact.stackName,
    constructPath: artifact.constructPaths.get(logicalId),
    functionName: functionNameOf(artifact, logicalId, resource),
    runtime: typeof p.Runtime === 'string' ? p.Runtime : '(container image)',
    handler: typeof p.Handler === 'string' ? p.Handler : 'index.handler',
    code: readCode(artifact, resource, objectKeys),
    environment: variables,
    timeoutSeconds: Number.isFinite(timeout) && timeout > 0 ? timeout : 3,
    memoryMb: Number.isFinite(memory) && memory > 0 ? memory : 128,
    reservedConcurrency: reservedConcurrencyOf(p.ReservedConcurrentExecutions, environment),
    region: artifact.region,
  };
}

/** `ReservedConcurrentExecutions` as a count; absent, unresolvable or not a whole number: none. */
function reservedConcurrencyOf(value: unknown, environment: IntrinsicEnvironment): number | undefined {
  if (value === undefined) {
    return undefined;
  }
  const text = tryEvaluateString(value, environment);
  const n = text === undefined || text.trim() === '' ? NaN : Number(text);
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

function readCode(artifact: StackArtifact, resource: any, objectKeys: Map<string, string>): FunctionCode {
  const p = resource?.Properties ?? {};
  if (typeof p.Runtime !== 'string' || !p.Runtime.startsWith('nodejs')) {
    return { kind: 'unsupported', reason: `runtime ${p.Runtime ?? '(container image)'} is not run locally (only nodejs runtimes are)` };
  }
  if (typeof p.Code?.ZipFile === 'string') {
    return { kind: 'inline', source: p.Code.ZipFile };
  }
  const assetPath = resource?.Metadata?.['aws:asset:path'];
  const candidates: string[] = [];
  if (typeof assetPath === 'string') {
    candidates.push(path.resolve(artifact.assemblyDir, assetPath));
  }
  if (typeof p.Code?.S3Key === 'string' && objectKeys.has(p.Code.S3Key)) {
    candidates.push(objectKeys.get(p.Code.S3Key)!);
  }
  for (const candidate of candidates) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isDirectory()) {
      return { kind: 'directory', directory: candidate };
    }
  }
  if (candidates.length > 0) {
    return { kind: 'unsupported', reason: `code asset ${candidates[0]} is not a directory in the assembly` };
  }
  return { kind: 'unsupported', reason: 'code is not an asset of this cloud assembly (S3Key does not match any asset manifest entry)' };
}
