/**
 * The local outputs file: URLs of served APIs localized, the expression of a pending slot, and the
 * strict evaluation: deployed values fill what they know, nothing else (no name the template only
 * suggests, no stand-in).
 */
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpUrlIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { VendorOutputs } from '../../../../src';
import { readLocalApp } from '../../../../src/cli/local/read-local-app';
import { buildLocalOutputs, localizeUrl, pendingExpression } from '../../../../src/cli/local/server/local-outputs';
import { deployedReferences } from '../../../../src/cli/local/template/deployed-values';
import { toRestConfig } from '../../../../src/client';
import { synth } from '../support';

describe('local outputs', () => {
  const apis = [{ apiId: 'Api1234', origin: 'http://127.0.0.1:3000' }];
  test.each([
    ['https://Api1234.execute-api.eu-west-1.amazonaws.com/prod/', 'http://127.0.0.1:3000/prod/'],
    ['https://Api1234.execute-api.cn-north-1.amazonaws.com.cn/prod/items', 'http://127.0.0.1:3000/prod/items'],
    ['https://Api1234.execute-api.eu-west-1.amazonaws.com', 'http://127.0.0.1:3000/'],
    ['https://Other99.execute-api.eu-west-1.amazonaws.com/prod/', 'https://Other99.execute-api.eu-west-1.amazonaws.com/prod/'],
    ['eu-west-1', 'eu-west-1'],
  ])('%s → %s', (value, local) => {
    expect(localizeUrl(value, apis)).toBe(local);
  });

  test('the expression of a pending slot is the Fn::Base64 argument at its index', () => {
    const template = { Outputs: { O: { Value: { 'Fn::Join': [',', [{ 'Fn::Base64': { Ref: 'A' } }, { 'Fn::Base64': { Ref: 'B' } }]] } } } };
    expect(pendingExpression(template, { pointer: '/x', output: 'O', index: 1 })).toEqual({ Ref: 'B' });
    expect(pendingExpression({ Outputs: { O: { Value: { 'Fn::Base64': { Ref: 'A' } } } } }, { pointer: '/x', output: 'O', index: 0 })).toEqual({ Ref: 'A' });
    expect(pendingExpression(template, { pointer: '/x', output: 'Missing', index: 0 })).toBeUndefined();
  });
});

describe('pending values', () => {
  const assembly = synth((stack) => {
    const api = new apigw.RestApi(stack, 'Api', { deployOptions: { stageName: 'prod' } });
    api.root.addMethod('GET', new apigw.MockIntegration());
    const generated = new s3.Bucket(stack, 'Uploads');
    const named = new s3.Bucket(stack, 'Named', { bucketName: 'named-bucket' });
    VendorOutputs.of(stack).addOutput({
      custom: { api_endpoint: api.url, uploads_bucket: generated.bucketName, named_bucket: named.bucketName, vendor_region: stack.region },
    });
  }, { stackName: 'OutputsTest' });
  const app = readLocalApp(assembly);
  const stack = app.stacks[0];
  const uploadsId = Object.keys(stack.template.Resources).find((id) => id.startsWith('Uploads'))!;
  const apis = [{ apiId: app.apis[0].apiId, origin: 'http://127.0.0.1:3000' }];

  test('without deployed values a bucket name stays pending, even one the template spells out in BucketName', () => {
    const outputs = buildLocalOutputs(stack, assembly, apis);
    expect((outputs.document as any).custom.api_endpoint).toBe('http://127.0.0.1:3000/prod/');
    expect(outputs.unresolved.sort()).toEqual(['/custom/named_bucket', '/custom/uploads_bucket']);
  });

  test('deployed values fill what they know; the local API\'s own values stay local', () => {
    const references = deployedReferences('--from-stack OutputsTest', {
      stackName: 'OutputsTest',
      outputs: {},
      physicalIds: { [uploadsId]: 'outputstest-uploads-1a2b', [app.apis[0].logicalId]: 'a1b2c3d4e5' },
      pseudo: { 'AWS::Region': 'eu-west-1' },
    }, stack.template);
    const outputs = buildLocalOutputs(stack, assembly, apis, references);
    expect((outputs.document as any).custom).toMatchObject({
      api_endpoint: 'http://127.0.0.1:3000/prod/',
      uploads_bucket: 'outputstest-uploads-1a2b',
      vendor_region: 'eu-west-1',
    });
    expect(outputs.unresolved).toEqual(['/custom/named_bucket']);
  });
});

describe('API entries (VendorOutputs.addRestApi / addHttpApi) point at the local server', () => {
  const assembly = synth((stack) => {
    const rest = new apigw.RestApi(stack, 'Orders', { cloudWatchRole: false, deployOptions: { stageName: 'prod' } });
    rest.root.addMethod('GET', new apigw.MockIntegration());
    const chat = new apigwv2.HttpApi(stack, 'Chat', { apiName: 'chat' });
    const admin = new apigwv2.HttpApi(stack, 'Admin', { apiName: 'admin', createDefaultStage: false });
    const v2 = admin.addStage('V2', { stageName: 'v2', autoDeploy: true });
    for (const api of [chat, admin]) {
      api.addRoutes({ path: '/items', methods: [apigwv2.HttpMethod.GET], integration: new HttpUrlIntegration('Backend', 'https://example.com/items') });
    }
    const outputs = VendorOutputs.of(stack);
    outputs.addRestApi(rest, { apiName: 'orders' });
    outputs.addHttpApi(chat);
    outputs.addHttpApi(admin, { stage: v2 });
    outputs.addOutput({ custom: { chat_base: chat.apiEndpoint } });
  }, { stackName: 'EntriesTest' });
  const app = readLocalApp(assembly);
  const stack = app.stacks[0];
  const resources: Record<string, { Type: string }> = stack.template.Resources;
  const idOf = (type: string, prefix: string) => Object.keys(resources).find((id) => id.startsWith(prefix) && resources[id].Type === type)!;
  const ordersId = idOf('AWS::ApiGateway::RestApi', 'Orders');
  const chatId = idOf('AWS::ApiGatewayV2::Api', 'Chat');
  const adminId = idOf('AWS::ApiGatewayV2::Api', 'Admin');

  test('served HTTP APIs (addressed by logical id): the $default stage at the server root, a named stage under /<stage>/', () => {
    const apis = [
      { apiId: ordersId, origin: 'http://127.0.0.1:3000' },
      { apiId: chatId, origin: 'http://127.0.0.1:3001' },
      { apiId: adminId, origin: 'http://127.0.0.1:3002' },
    ];
    const outputs = buildLocalOutputs(stack, assembly, apis);
    const custom = (outputs.document as any).custom;
    expect(custom.orders).toEqual({ api_id: ordersId, api_endpoint: 'http://127.0.0.1:3000/prod/', api_name: 'orders', api_stage: 'prod', vendor_region: 'us-east-1', api_kind: 'rest' });
    expect(custom.chat).toEqual({ api_id: chatId, api_endpoint: 'http://127.0.0.1:3001/', api_name: 'chat', api_stage: '$default', vendor_region: 'us-east-1', api_kind: 'http' });
    expect(custom.admin).toEqual({ api_id: adminId, api_endpoint: 'http://127.0.0.1:3002/v2/', api_name: 'admin', api_stage: 'v2', vendor_region: 'us-east-1', api_kind: 'http' });
    // HttpApi.apiEndpoint (Fn::GetAtt ApiEndpoint) written by hand becomes the local origin too.
    expect(custom.chat_base).toBe('http://127.0.0.1:3001/');
    expect(outputs.unresolved).toEqual([]);
    expect(toRestConfig(outputs.document)).toEqual({
      orders: { endpoint: 'http://127.0.0.1:3000/prod/', region: 'us-east-1' },
      chat: { endpoint: 'http://127.0.0.1:3001/', region: 'us-east-1' },
      admin: { endpoint: 'http://127.0.0.1:3002/v2/', region: 'us-east-1' },
    });
  });

  test('an HTTP API the server does not serve keeps its values pending: never a URL no server answers', () => {
    const outputs = buildLocalOutputs(stack, assembly, [{ apiId: ordersId, origin: 'http://127.0.0.1:3000' }]);
    const custom = (outputs.document as any).custom;
    expect(custom.orders.api_endpoint).toBe('http://127.0.0.1:3000/prod/');
    expect(custom.chat.api_endpoint).toMatch(/^<pending: /);
    expect(outputs.unresolved.sort()).toEqual(['/custom/admin/api_endpoint', '/custom/admin/api_id', '/custom/chat/api_endpoint', '/custom/chat/api_id', '/custom/chat_base']);
  });

  test('with deployed values, an HTTP API the server does not serve gets its deployed URL', () => {
    const references = deployedReferences('--from-stack EntriesTest', {
      stackName: 'EntriesTest',
      outputs: {},
      physicalIds: { [chatId]: 'h1a2b3c4d5', [adminId]: 'h9z8y7x6w5' },
      pseudo: { 'AWS::Region': 'eu-west-1' },
    }, stack.template);
    const outputs = buildLocalOutputs(stack, assembly, [{ apiId: ordersId, origin: 'http://127.0.0.1:3000' }], references);
    const custom = (outputs.document as any).custom;
    expect(custom.chat).toMatchObject({ api_id: 'h1a2b3c4d5', api_endpoint: 'https://h1a2b3c4d5.execute-api.eu-west-1.amazonaws.com/' });
    expect(custom.admin).toMatchObject({ api_id: 'h9z8y7x6w5', api_endpoint: 'https://h9z8y7x6w5.execute-api.eu-west-1.amazonaws.com/v2/' });
    expect(custom.orders.api_endpoint).toBe('http://127.0.0.1:3000/prod/');
    // The deployed endpoint attribute was not given: it stays pending rather than being made up.
    expect(outputs.unresolved).toEqual(['/custom/chat_base']);
  });
});
