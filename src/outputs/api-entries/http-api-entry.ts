/**
 * The entry of an HTTP API (aws-apigatewayv2 `HttpApi`): its invoke URL with the stage, as
 * `HttpStage.url` builds it, with the trailing `/` every entry's endpoint has. The `$default`
 * stage is served at the root (no stage segment), as the service serves it.
 */
import { Stack, Token } from 'aws-cdk-lib';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { ApiEntryValues, ApiEntryWriter } from './api-entry';

/** The stage HTTP APIs serve at the root. */
const DEFAULT_STAGE = '$default';

/** The HTTP API's values; throws, naming the API, when it has no stage or no execute-api endpoint. */
export function httpApiEntry(api: apigwv2.IHttpApi, apiName: string, stage: apigwv2.IHttpStage | undefined, writer: ApiEntryWriter): ApiEntryValues {
  const target = stage ?? defaultStageOf(api, writer);
  if (target.api !== api) {
    throw new Error(`${writer.description}: the stage ${target.node.path} belongs to the HTTP API ${target.api.node.path}, not to ${api.node.path}`);
  }
  if (api instanceof apigwv2.HttpApi && api.disableExecuteApiEndpoint === true) {
    throw new Error(`${writer.description}: the HTTP API ${api.node.path} disables its execute-api endpoint (disableExecuteApiEndpoint), the URL an entry holds; a custom domain is not written yet`);
  }
  const stageName = target.stageName;
  if (Token.isUnresolved(stageName)) {
    throw new Error(`${writer.description}: the stage name of ${target.node.path} must be known at synth (got the token ${stageName})`);
  }
  const stack = Stack.of(target);
  const stagePath = stageName === DEFAULT_STAGE ? '' : `${stageName}/`;
  return {
    api_id: api.apiId,
    api_endpoint: `https://${api.apiId}.execute-api.${stack.region}.${stack.urlSuffix}/${stagePath}`,
    api_name: apiName,
    api_stage: stageName,
    vendor_region: Stack.of(api).region,
    api_kind: 'http',
  };
}

/** The `$default` stage `HttpApi` creates unless `createDefaultStage` is false. */
function defaultStageOf(api: apigwv2.IHttpApi, writer: ApiEntryWriter): apigwv2.IHttpStage {
  const stage = api instanceof apigwv2.HttpApi ? api.defaultStage : undefined;
  if (stage === undefined) {
    throw new Error(`${writer.description}: the HTTP API ${api.node.path} has no default stage (createDefaultStage: false, or an imported API); pass { stage } with the stage the frontend calls`);
  }
  return stage;
}

/** The API's own name when known at synth. */
export function httpApiName(api: apigwv2.IHttpApi): string | undefined {
  const name = api instanceof apigwv2.HttpApi ? api.httpApiName : undefined;
  return name !== undefined && !Token.isUnresolved(name) ? name : undefined;
}
