/**
 * VendorOutputs.addRestApi / addHttpApi / addWebSocketApi / addFunctionUrl: real aws-cdk-lib APIs synthesized, the entry each writes
 * in custom (validated by the real schema validator at synth), every refusal with its message, and
 * the client helper on the file a deploy would give.
 */
import { App, Aws, Lazy, NestedStack, Stack } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpUrlIntegration, WebSocketLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { RestItemsApi, VendorOutputs } from '../../../src';
import { toRestConfig } from '../../../src/client';
import { readCarriedDocument, rebuildDocument } from '../../../src/outputs/cdk-free/carriage';
import { validateDocument } from '../../../src/outputs/cdk-free/validation';
import { newStack, synthOutputs } from '../../constructs/support';
import { evaluateOutputs } from '../../support/fake-cloudformation';

const PENDING = expect.stringMatching(/^<pending: /);

function restApi(stack: Stack, id: string, props: apigw.RestApiProps = {}): apigw.RestApi {
  const api = new apigw.RestApi(stack, id, { cloudWatchRole: false, ...props });
  api.root.addMethod('GET', new apigw.MockIntegration());
  return api;
}

function httpApi(stack: Stack, id: string, props: apigwv2.HttpApiProps = {}): apigwv2.HttpApi {
  const api = new apigwv2.HttpApi(stack, id, props);
  api.addRoutes({ path: '/items', methods: [apigwv2.HttpMethod.GET], integration: new HttpUrlIntegration('Backend', 'https://example.com/items') });
  return api;
}

describe('addRestApi', () => {
  test('a RestApi: its entry under custom.<apiName>, the endpoint of its deployment stage with a trailing slash', () => {
    const { app, stack } = newStack();
    const api = restApi(stack, 'Orders', { deployOptions: { stageName: 'prod' } });
    VendorOutputs.of(api).addRestApi(api);
    expect(synthOutputs(app, stack).custom).toEqual({
      Orders: { api_id: PENDING, api_endpoint: PENDING, api_name: 'Orders', api_stage: 'prod', vendor_region: 'eu-west-1', api_kind: 'rest' },
    });
  });

  test('the endpoint is the one RestApi.url gives (Fn::Join of the API id, region, URL suffix and stage)', () => {
    const { app, stack } = newStack();
    const api = restApi(stack, 'Orders');
    VendorOutputs.of(api).addRestApi(api);
    app.synth();
    const template = app.synth().getStackByName('Backend').template;
    const carried = readCarriedDocument(template.Metadata, 'Backend');
    const endpoint = carried.pending.find((p) => p.pointer === '/custom/Orders/api_endpoint')!;
    const slots = template.Outputs[endpoint.output].Value['Fn::Join'][1];
    expect(slots[endpoint.index]['Fn::Base64']).toEqual(stack.resolve(api.url));
  });

  test('the name is restApiName, the key defaults to it; apiName and outputsKey replace them', () => {
    const { app, stack } = newStack();
    const named = restApi(stack, 'Named', { restApiName: 'catalog' });
    const chosen = restApi(stack, 'Chosen');
    VendorOutputs.of(stack).addRestApi(named);
    VendorOutputs.of(stack).addRestApi(chosen, { apiName: 'orders api', outputsKey: 'orders' });
    const custom = synthOutputs(app, stack).custom;
    expect(Object.keys(custom)).toEqual(['catalog', 'orders']);
    expect(custom.catalog.api_name).toBe('catalog');
    expect(custom.orders.api_name).toBe('orders api');
  });

  test('a SpecRestApi', () => {
    const { app, stack } = newStack();
    const api = new apigw.SpecRestApi(stack, 'Spec', {
      cloudWatchRole: false,
      deployOptions: { stageName: 'v1' },
      apiDefinition: apigw.ApiDefinition.fromInline({
        openapi: '3.0.1',
        info: { title: 'spec', version: '1' },
        paths: { '/': { get: { 'x-amazon-apigateway-integration': { type: 'mock', requestTemplates: { 'application/json': '{"statusCode":200}' } } } } },
      }),
    });
    VendorOutputs.of(api).addRestApi(api, { apiName: 'spec' });
    expect(synthOutputs(app, stack).custom.spec).toEqual({ api_id: PENDING, api_endpoint: PENDING, api_name: 'spec', api_stage: 'v1', vendor_region: 'eu-west-1', api_kind: 'rest' });
  });

  test('another stage of the API with { stage }; an imported API with a stage', () => {
    const { app, stack } = newStack();
    const api = restApi(stack, 'Api');
    const beta = new apigw.Stage(stack, 'Beta', { deployment: new apigw.Deployment(stack, 'BetaDeployment', { api }), stageName: 'beta' });
    VendorOutputs.of(stack).addRestApi(api, { stage: beta, apiName: 'beta' });
    const imported = apigw.RestApi.fromRestApiId(stack, 'Imported', 'a1b2c3d4e5');
    const importedStage = apigw.Stage.fromStageAttributes(stack, 'ImportedStage', { restApi: imported, stageName: 'live' });
    VendorOutputs.of(stack).addRestApi(imported, { stage: importedStage, apiName: 'legacy' });
    const custom = synthOutputs(app, stack).custom;
    expect(custom.beta.api_stage).toBe('beta');
    expect(custom.legacy).toEqual({
      api_id: 'a1b2c3d4e5', api_endpoint: PENDING, api_name: 'legacy', api_stage: 'live', vendor_region: 'eu-west-1', api_kind: 'rest',
    });
  });

  test('an environment-agnostic stack carries the region as a deploy-time value', () => {
    const app = new App();
    const stack = new Stack(app, 'Agnostic');
    const api = restApi(stack, 'Api');
    VendorOutputs.of(api).addRestApi(api);
    expect(synthOutputs(app, stack).custom.Api.vendor_region).toEqual(PENDING);
  });
});

describe('addHttpApi', () => {
  test('an HttpApi: the $default stage at the root of its URL, no stage segment', () => {
    const { app, stack } = newStack();
    const api = httpApi(stack, 'Chat');
    VendorOutputs.of(api).addHttpApi(api);
    expect(synthOutputs(app, stack).custom).toEqual({
      Chat: { api_id: PENDING, api_endpoint: PENDING, api_name: 'Chat', api_stage: '$default', vendor_region: 'eu-west-1', api_kind: 'http' },
    });
    const apiId = stack.getLogicalId(api.node.defaultChild as apigwv2.CfnApi);
    expect(stack.resolve(api.url)).toEqual({ 'Fn::Join': ['', ['https://', { Ref: apiId }, '.execute-api.eu-west-1.', { Ref: 'AWS::URLSuffix' }, '/']] });
  });

  test('a named stage with { stage }: under /<stage>/; the name is the apiName prop of HttpApi', () => {
    const { app, stack } = newStack();
    const api = httpApi(stack, 'Chat', { apiName: 'chat', createDefaultStage: false });
    const v1 = api.addStage('V1', { stageName: 'v1', autoDeploy: true });
    VendorOutputs.of(api).addHttpApi(api, { stage: v1 });
    expect(synthOutputs(app, stack).custom.chat).toEqual({ api_id: PENDING, api_endpoint: PENDING, api_name: 'chat', api_stage: 'v1', vendor_region: 'eu-west-1', api_kind: 'http' });
  });
});

function webSocketApi(stack: Stack, id: string, props: apigwv2.WebSocketApiProps = {}): apigwv2.WebSocketApi {
  const handler = fn(stack, `${id}Handler`);
  return new apigwv2.WebSocketApi(stack, id, { ...props, defaultRouteOptions: { integration: new WebSocketLambdaIntegration('Handler', handler) } });
}

function fn(stack: Stack, id: string): lambda.Function {
  return new lambda.Function(stack, id, { runtime: lambda.Runtime.NODEJS_22_X, handler: 'index.handler', code: lambda.Code.fromInline('exports.handler = async () => ({})') });
}

describe('addWebSocketApi', () => {
  test("a WebSocketApi with one stage: the wss:// URL of the stage with a trailing slash, as AWS's examples write it", () => {
    const { app, stack } = newStack();
    const api = webSocketApi(stack, 'Chat');
    new apigwv2.WebSocketStage(stack, 'Prod', { webSocketApi: api, stageName: 'prod', autoDeploy: true });
    VendorOutputs.of(api).addWebSocketApi(api);
    expect(synthOutputs(app, stack).custom).toEqual({
      Chat: { api_id: PENDING, api_endpoint: PENDING, api_name: 'Chat', api_stage: 'prod', vendor_region: 'eu-west-1', api_kind: 'websocket' },
    });
  });

  test('{ stage } picks one of several stages; the name is the apiName prop of WebSocketApi', () => {
    const { app, stack } = newStack();
    const api = webSocketApi(stack, 'Chat', { apiName: 'chat' });
    new apigwv2.WebSocketStage(stack, 'Dev', { webSocketApi: api, stageName: 'dev' });
    const prod = new apigwv2.WebSocketStage(stack, 'Prod', { webSocketApi: api, stageName: 'prod' });
    VendorOutputs.of(api).addWebSocketApi(api, { stage: prod });
    expect(synthOutputs(app, stack).custom.chat).toEqual({ api_id: PENDING, api_endpoint: PENDING, api_name: 'chat', api_stage: 'prod', vendor_region: 'eu-west-1', api_kind: 'websocket' });
  });
});

describe('addFunctionUrl', () => {
  test("a function's URL: named after the function, no api_id or api_stage", () => {
    const { app, stack } = newStack();
    const url = fn(stack, 'Stream').addFunctionUrl({ invokeMode: lambda.InvokeMode.RESPONSE_STREAM });
    VendorOutputs.of(url).addFunctionUrl(url);
    expect(synthOutputs(app, stack).custom).toEqual({
      Stream: { api_endpoint: PENDING, api_name: 'Stream', vendor_region: 'eu-west-1', api_kind: 'function_url' },
    });
  });

  test('a FunctionUrl made on its own is named after its id; apiName and outputsKey replace them', () => {
    const { app, stack } = newStack();
    const url = new lambda.FunctionUrl(stack, 'PublicUrl', { function: fn(stack, 'Fn') });
    const other = fn(stack, 'Other').addFunctionUrl();
    VendorOutputs.of(stack).addFunctionUrl(url);
    VendorOutputs.of(stack).addFunctionUrl(other, { apiName: 'other url', outputsKey: 'other' });
    const custom = synthOutputs(app, stack).custom;
    expect(Object.keys(custom)).toEqual(['PublicUrl', 'other']);
    expect(custom.other.api_name).toBe('other url');
  });
});

describe('the file a deploy gives, read by toRestConfig', () => {
  test('REST and HTTP entries, flat RestItemsApi next to them, each with its endpoint and region', () => {
    const app = new App();
    const stack = new Stack(app, 'Backend', { env: { region: 'eu-central-1' } });
    new RestItemsApi(stack, 'Items', { apiName: 'items' });
    const orders = restApi(stack, 'Orders', { deployOptions: { stageName: 'prod' } });
    const chat = httpApi(stack, 'Chat', { apiName: 'chat' });
    const admin = httpApi(stack, 'Admin', { apiName: 'admin', createDefaultStage: false });
    const v2 = admin.addStage('V2', { stageName: 'v2' });
    VendorOutputs.of(stack).addRestApi(orders, { apiName: 'orders' });
    VendorOutputs.of(stack).addHttpApi(chat);
    VendorOutputs.of(stack).addHttpApi(admin, { stage: v2 });
    const live = webSocketApi(stack, 'Live', { apiName: 'live' });
    new apigwv2.WebSocketStage(stack, 'LiveStage', { webSocketApi: live, stageName: 'prod' });
    VendorOutputs.of(stack).addWebSocketApi(live);
    const url = fn(stack, 'Stream').addFunctionUrl();
    VendorOutputs.of(stack).addFunctionUrl(url);
    const template = app.synth().getStackByName('Backend').template;
    const idOf = (construct: { node: { defaultChild?: unknown } }) => stack.getLogicalId(construct.node.defaultChild as any);
    const ids: Record<string, string> = {
      'AWS::Region': 'eu-central-1',
      [idOf(stack.node.findChild('Items').node.findChild('Resource'))]: 'items1',
      [idOf(orders)]: 'orders1',
      [idOf(chat)]: 'chat1',
      [idOf(admin)]: 'admin1',
      [idOf(live)]: 'live1',
      [`${idOf(url)}.FunctionUrl`]: 'https://url1.lambda-url.eu-central-1.on.aws/',
    };
    for (const [id, resource] of Object.entries<any>(template.Resources)) {
      if (resource.Type === 'AWS::ApiGateway::Stage') {
        ids[id] = resource.Properties.StageName;
      }
    }
    const file = rebuildDocument(readCarriedDocument(template.Metadata, 'Backend'), evaluateOutputs(template, ids), 'Backend');
    expect(validateDocument(file)).toEqual([]);
    expect(toRestConfig(file)).toEqual({
      items: { endpoint: 'https://items1.execute-api.eu-central-1.amazonaws.com/dev/', region: 'eu-central-1' },
      orders: { endpoint: 'https://orders1.execute-api.eu-central-1.amazonaws.com/prod/', region: 'eu-central-1' },
      chat: { endpoint: 'https://chat1.execute-api.eu-central-1.amazonaws.com/', region: 'eu-central-1' },
      admin: { endpoint: 'https://admin1.execute-api.eu-central-1.amazonaws.com/v2/', region: 'eu-central-1' },
      Stream: { endpoint: 'https://url1.lambda-url.eu-central-1.on.aws/', region: 'eu-central-1' },
    });
    expect((file as any).custom.live.api_endpoint).toBe('wss://live1.execute-api.eu-central-1.amazonaws.com/prod/');
  });
});

describe('refusals name the caller, the API and what is allowed; a refused call writes nothing', () => {
  test.each<[string, (stack: Stack) => void, string]>([
    ['an apiName that is a token', (stack) => VendorOutputs.of(stack).addRestApi(restApi(stack, 'Api'), { apiName: Aws.STACK_NAME }),
      'addRestApi(Backend/Api) from Backend: apiName must be known at synth (got the token ${Token[AWS.StackName.'],
    ['a blank apiName', (stack) => VendorOutputs.of(stack).addHttpApi(httpApi(stack, 'Api'), { apiName: ' ' }),
      'addHttpApi(Backend/Api) from Backend: apiName must have 1 to 1024 characters and not be blank (got " ")'],
    ['an apiName that cannot be a key, without outputsKey', (stack) => VendorOutputs.of(stack).addRestApi(restApi(stack, 'Api'), { apiName: 'orders api' }),
      'addRestApi(Backend/Api) from Backend: the API name "orders api" cannot be the entry\'s key in custom; pass { outputsKey } (a letter, then letters, digits, hyphens or underscores)'],
    ['an apiName that is a key of an entry, without outputsKey', (stack) => VendorOutputs.of(stack).addRestApi(restApi(stack, 'Api'), { apiName: 'api_id' }),
      'addRestApi(Backend/Api) from Backend: the API name "api_id" cannot be the entry\'s key in custom'],
    ['an empty outputsKey', (stack) => VendorOutputs.of(stack).addRestApi(restApi(stack, 'Api'), { outputsKey: '' }),
      'addRestApi(Backend/Api) from Backend: outputsKey must start with a letter and have 1 to 128 letters, digits, hyphens or underscores (got "")'],
    ['a bad outputsKey', (stack) => VendorOutputs.of(stack).addRestApi(restApi(stack, 'Api'), { outputsKey: '1st' }),
      'addRestApi(Backend/Api) from Backend: outputsKey must start with a letter and have 1 to 128 letters, digits, hyphens or underscores (got "1st")'],
    ['an outputsKey that is a token', (stack) => VendorOutputs.of(stack).addRestApi(restApi(stack, 'Api'), { outputsKey: Lazy.string({ produce: () => 'x' }) }),
      'addRestApi(Backend/Api) from Backend: outputsKey must be known at synth (got the token ${Token['],
    ['an outputsKey that is a key of an entry', (stack) => VendorOutputs.of(stack).addHttpApi(httpApi(stack, 'Api'), { outputsKey: 'api_kind' }),
      "addHttpApi(Backend/Api) from Backend: outputsKey cannot be 'api_kind', a key of an API entry (api_id, api_endpoint, api_name, api_stage, vendor_region, api_kind)"],
    ['a RestApi without a deployment stage', (stack) => VendorOutputs.of(stack).addRestApi(restApi(stack, 'Api', { deploy: false })),
      'addRestApi(Backend/Api) from Backend: the REST API Backend/Api has no deployment stage (deploy: false, or an imported API); pass { stage } with the stage the frontend calls'],
    ['an imported RestApi without a stage', (stack) => VendorOutputs.of(stack).addRestApi(apigw.RestApi.fromRestApiId(stack, 'Imported', 'abc'), { apiName: 'x' }),
      'addRestApi(Backend/Imported) from Backend: the REST API Backend/Imported has no deployment stage'],
    ['a stage of another REST API', (stack) => VendorOutputs.of(stack).addRestApi(restApi(stack, 'Api'), { stage: restApi(stack, 'Other').deploymentStage }),
      'addRestApi(Backend/Api) from Backend: the stage Backend/Other/DeploymentStage.prod belongs to the REST API Backend/Other, not to Backend/Api'],
    ['a RestApi without its execute-api endpoint', (stack) => VendorOutputs.of(stack).addRestApi(restApi(stack, 'Api', { disableExecuteApiEndpoint: true })),
      'addRestApi(Backend/Api) from Backend: the REST API Backend/Api disables its execute-api endpoint (disableExecuteApiEndpoint), the URL an entry holds; a custom domain is not written yet'],
    ['an HttpApi without a default stage', (stack) => VendorOutputs.of(stack).addHttpApi(httpApi(stack, 'Api', { createDefaultStage: false })),
      'addHttpApi(Backend/Api) from Backend: the HTTP API Backend/Api has no default stage (createDefaultStage: false, or an imported API); pass { stage } with the stage the frontend calls'],
    ['an imported HttpApi without a stage', (stack) => VendorOutputs.of(stack).addHttpApi(apigwv2.HttpApi.fromHttpApiAttributes(stack, 'Imported', { httpApiId: 'abc' })),
      'addHttpApi(Backend/Imported) from Backend: the HTTP API Backend/Imported has no default stage'],
    ['a stage of another HTTP API', (stack) => VendorOutputs.of(stack).addHttpApi(httpApi(stack, 'Api'), { stage: httpApi(stack, 'Other').defaultStage }),
      'addHttpApi(Backend/Api) from Backend: the stage Backend/Other/DefaultStage belongs to the HTTP API Backend/Other, not to Backend/Api'],
    ['a stage whose name is a token', (stack) => {
      const api = httpApi(stack, 'Api');
      VendorOutputs.of(stack).addHttpApi(api, { stage: apigwv2.HttpStage.fromHttpStageAttributes(stack, 'S', { api, stageName: Aws.STACK_NAME }) });
    }, 'addHttpApi(Backend/Api) from Backend: the stage name of Backend/S must be known at synth (got the token ${Token[AWS.StackName.'],
    ['an HttpApi without its execute-api endpoint', (stack) => VendorOutputs.of(stack).addHttpApi(httpApi(stack, 'Api', { disableExecuteApiEndpoint: true })),
      'addHttpApi(Backend/Api) from Backend: the HTTP API Backend/Api disables its execute-api endpoint (disableExecuteApiEndpoint), the URL an entry holds; a custom domain is not written yet'],
    ['a WebSocketApi without a stage', (stack) => VendorOutputs.of(stack).addWebSocketApi(webSocketApi(stack, 'Api')),
      'addWebSocketApi(Backend/Api) from Backend: the WebSocket API Backend/Api has no WebSocketStage; pass { stage } with the stage the frontend connects to'],
    ['a WebSocketApi with two stages and no { stage }', (stack) => {
      const api = webSocketApi(stack, 'Api');
      new apigwv2.WebSocketStage(stack, 'Dev', { webSocketApi: api, stageName: 'dev' });
      new apigwv2.WebSocketStage(stack, 'Prod', { webSocketApi: api, stageName: 'prod' });
      VendorOutputs.of(stack).addWebSocketApi(api);
    }, 'addWebSocketApi(Backend/Api) from Backend: the WebSocket API Backend/Api has 2 stages (Backend/Dev, Backend/Prod); pass { stage } with the stage the frontend connects to'],
    ['a stage of another WebSocket API', (stack) => {
      const other = webSocketApi(stack, 'Other');
      VendorOutputs.of(stack).addWebSocketApi(webSocketApi(stack, 'Api'), { stage: new apigwv2.WebSocketStage(stack, 'S', { webSocketApi: other, stageName: 's' }) });
    }, 'addWebSocketApi(Backend/Api) from Backend: the stage Backend/S belongs to the WebSocket API Backend/Other, not to Backend/Api'],
    ['a WebSocket stage whose name is a token', (stack) => {
      const api = webSocketApi(stack, 'Api');
      VendorOutputs.of(stack).addWebSocketApi(api, { stage: apigwv2.WebSocketStage.fromWebSocketStageAttributes(stack, 'S', { api, stageName: Aws.STACK_NAME }) });
    }, 'addWebSocketApi(Backend/Api) from Backend: the stage name of Backend/S must be known at synth (got the token ${Token[AWS.StackName.'],
    ['a function URL with a blank apiName', (stack) => VendorOutputs.of(stack).addFunctionUrl(fn(stack, 'Fn').addFunctionUrl(), { apiName: '' }),
      'addFunctionUrl(Backend/Fn/FunctionUrl) from Backend: apiName must have 1 to 1024 characters and not be blank (got "")'],
  ])('%s', (_, call, message) => {
    const { app, stack } = newStack();
    expect(() => call(stack)).toThrow(message);
    // Nothing was written: the backend's file has no custom section.
    VendorOutputs.of(stack).addOutput({ analytics: {} });
    expect(synthOutputs(app, stack).custom).toBeUndefined();
  });

  test('two APIs with one name, or one key, in a backend; RestItemsApi takes part in the same reservations', () => {
    const { stack } = newStack();
    const nested = new NestedStack(stack, 'Nested');
    VendorOutputs.of(stack).addRestApi(restApi(stack, 'Orders'), { apiName: 'orders' });
    expect(() => VendorOutputs.of(nested).addHttpApi(httpApi(nested, 'Chat'), { apiName: 'orders', outputsKey: 'chat' })).toThrow(
      "addHttpApi(Backend/Nested/Chat) from Backend/Nested has apiName 'orders', which addRestApi from Backend already uses; "
      + 'the client library keys its REST section by api_name, so give each API a distinct apiName.');
    expect(() => VendorOutputs.of(stack).addHttpApi(httpApi(stack, 'Chat2'), { apiName: 'chat', outputsKey: 'orders' })).toThrow(
      "addHttpApi(Backend/Chat2) from Backend would write custom.orders (outputsKey 'orders'), which addRestApi from Backend already writes. "
      + "Give each API of a backend a distinct outputsKey, e.g. { outputsKey: 'orders' }.");
    expect(() => new RestItemsApi(stack, 'Items', { apiName: 'orders', outputsKey: 'items' })).toThrow(
      "RestItemsApi Backend/Items has apiName 'orders', which addRestApi from Backend already uses;");
    new RestItemsApi(stack, 'Shop', { apiName: 'shop', outputsKey: 'shop' });
    expect(() => VendorOutputs.of(stack).addRestApi(restApi(stack, 'Shop2'), { outputsKey: 'shop' })).toThrow(
      "addRestApi(Backend/Shop2) from Backend would write custom.shop (outputsKey 'shop'), which RestItemsApi Backend/Shop already writes.");
    expect(() => VendorOutputs.of(stack).addRestApi(restApi(stack, 'Shop3'), { apiName: 'shop', outputsKey: 'shop3' })).toThrow(
      "addRestApi(Backend/Shop3) from Backend has apiName 'shop', which RestItemsApi Backend/Shop already uses;");
  });

  test('an entry that conflicts with a value already in custom is refused by addOutput, and reserves nothing', () => {
    const { app, stack } = newStack();
    VendorOutputs.of(stack).addOutput({ custom: { orders: 'https://legacy.example.com/' } });
    const api = restApi(stack, 'Orders');
    expect(() => VendorOutputs.of(api).addRestApi(api, { apiName: 'orders' })).toThrow('Conflicting vendor outputs from Backend/Orders:\n  /custom/orders: "https://legacy.example.com/" from Backend conflicts with {"api_id"');
    // Name and key are still free: the same API under another key goes through.
    VendorOutputs.of(api).addRestApi(api, { apiName: 'orders', outputsKey: 'orders_api' });
    expect(synthOutputs(app, stack).custom.orders_api.api_name).toBe('orders');
  });

  test('an object of custom with api_kind that is not a complete entry fails the synth, naming the pointer and the writer', () => {
    const { app, stack } = newStack();
    VendorOutputs.of(stack).addOutput({ custom: { chat: { api_kind: 'graphql', api_name: '', api_endpoint: 'wss://x/' } } });
    expect(() => app.synth()).toThrow([
      'Invalid vendor_outputs.json for stack Backend (nothing written):',
      '  /custom/chat/vendor_region: is required but missing (an object of custom with api_kind is an API entry, which has api_name, api_endpoint, api_kind, vendor_region) [from Backend]',
      '  /custom/chat/api_name: must have at least 1 character (got "") [from Backend]',
      '  /custom/chat/api_kind: must be one of: rest, http, websocket, function_url (got "graphql") [from Backend]',
    ].join('\n'));
  });
});
