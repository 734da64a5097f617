/**
 * The entry of a WebSocket API (aws-apigatewayv2 `WebSocketApi`): the URL clients connect to,
 * `wss://<id>.execute-api.<region>.<suffix>/<stage>/`, as AWS's own examples write it (with the
 * trailing `/` every entry's endpoint has).
 */
import { Stack, Token } from 'aws-cdk-lib';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { IConstruct } from 'constructs';
import { ApiEntryValues, ApiEntryWriter } from './api-entry';

/** The WebSocket API's values; throws, naming the API, when no stage can be pointed at. */
export function webSocketApiEntry(
  api: apigwv2.IWebSocketApi, apiName: string, stage: apigwv2.IWebSocketStage | undefined, writer: ApiEntryWriter,
): ApiEntryValues {
  const target = stage ?? onlyStageOf(api, writer);
  if (target.api !== api) {
    throw new Error(`${writer.description}: the stage ${target.node.path} belongs to the WebSocket API ${target.api.node.path}, not to ${api.node.path}`);
  }
  const stageName = target.stageName;
  if (Token.isUnresolved(stageName)) {
    throw new Error(`${writer.description}: the stage name of ${target.node.path} must be known at synth (got the token ${stageName})`);
  }
  const stack = Stack.of(target);
  return {
    api_id: api.apiId,
    api_endpoint: `wss://${api.apiId}.execute-api.${stack.region}.${stack.urlSuffix}/${stageName}/`,
    api_name: apiName,
    api_stage: stageName,
    vendor_region: Stack.of(api).region,
    api_kind: 'websocket',
  };
}

/**
 * The API's stage when the app has exactly one (`WebSocketApi` creates none by itself: stages are
 * `WebSocketStage`s that name the API, anywhere in the app).
 */
function onlyStageOf(api: apigwv2.IWebSocketApi, writer: ApiEntryWriter): apigwv2.IWebSocketStage {
  const isStageOfApi = (c: IConstruct): c is apigwv2.WebSocketStage => c instanceof apigwv2.WebSocketStage && c.api === api;
  const stages = api.node.root.node.findAll().filter(isStageOfApi);
  if (stages.length === 1) {
    return stages[0];
  }
  const found = stages.length === 0 ? 'has no WebSocketStage' : `has ${stages.length} stages (${stages.map((s) => s.node.path).join(', ')})`;
  throw new Error(`${writer.description}: the WebSocket API ${api.node.path} ${found}; pass { stage } with the stage the frontend connects to`);
}

/** The API's own name when known at synth. */
export function webSocketApiName(api: apigwv2.IWebSocketApi): string | undefined {
  const name = api instanceof apigwv2.WebSocketApi ? api.webSocketApiName : undefined;
  return name !== undefined && !Token.isUnresolved(name) ? name : undefined;
}
