/**
 * The entry of a REST API (aws-apigateway `RestApi`, `SpecRestApi`, or an imported one with a
 * stage): its invoke URL with the stage, as `Stage.urlForPath('/')` builds it.
 */
import { Stack, Token } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import { ApiEntryValues, ApiEntryWriter } from './api-entry';

/** The REST API's values; throws, naming the API, when it has no stage to point at. */
export function restApiEntry(api: apigw.IRestApi, apiName: string, stage: apigw.IStage | undefined, writer: ApiEntryWriter): ApiEntryValues {
  const target = stage ?? deploymentStageOf(api, writer);
  if (target.restApi !== api) {
    throw new Error(`${writer.description}: the stage ${target.node.path} belongs to the REST API ${target.restApi.node.path}, not to ${api.node.path}`);
  }
  checkExecuteApiEndpoint(api, writer);
  const stack = Stack.of(target);
  // Key order decides the order of the deploy-time values in the stack outputs: kept as RestItemsApi always wrote it.
  return {
    api_id: api.restApiId,
    api_endpoint: `https://${api.restApiId}.execute-api.${stack.region}.${stack.urlSuffix}/${target.stageName}/`,
    api_name: apiName,
    api_stage: literalStageName(target),
    vendor_region: Stack.of(api).region,
    api_kind: 'rest',
  };
}

/**
 * The stage's name as written in its template (`Stage.stageName` is a `Ref`, known only after
 * deploy); the `Ref` when the template does not spell it out.
 */
function literalStageName(stage: apigw.IStage): string {
  const cfn = stage.node.defaultChild;
  const name = cfn instanceof apigw.CfnStage ? Stack.of(stage).resolve(cfn.stageName) : undefined;
  return typeof name === 'string' ? name : stage.stageName;
}

/** The stage `RestApi` and `SpecRestApi` deploy to; an API made with `deploy: false`, or imported, has none. */
function deploymentStageOf(api: apigw.IRestApi, writer: ApiEntryWriter): apigw.IStage {
  let stage: apigw.IStage | undefined;
  try {
    stage = api.deploymentStage;
  } catch {
    stage = undefined;
  }
  if (stage === undefined) {
    throw new Error(`${writer.description}: the REST API ${api.node.path} has no deployment stage (deploy: false, or an imported API); pass { stage } with the stage the frontend calls`);
  }
  return stage;
}

/** The entry's URL is the execute-api endpoint, which `disableExecuteApiEndpoint` turns off. */
function checkExecuteApiEndpoint(api: apigw.IRestApi, writer: ApiEntryWriter): void {
  const cfn = api.node.defaultChild;
  if (cfn instanceof apigw.CfnRestApi) {
    const disabled = Stack.of(api).resolve(cfn.disableExecuteApiEndpoint);
    if (disabled === true) {
      throw new Error(`${writer.description}: the REST API ${api.node.path} disables its execute-api endpoint (disableExecuteApiEndpoint), the URL an entry holds; a custom domain is not written yet`);
    }
  }
}

/** The API's own name when known at synth. */
export function restApiName(api: apigw.IRestApi): string | undefined {
  let name: string | undefined;
  try {
    name = api.restApiName;
  } catch {
    name = undefined;
  }
  return name !== undefined && !Token.isUnresolved(name) ? name : undefined;
}
