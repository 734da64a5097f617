/**
 * The local outputs file: URLs of served APIs localized, the expression of a pending slot, and the
 * strict evaluation: deployed values fill what they know, nothing else (no name the template only
 * suggests, no stand-in).
 */
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { VendorOutputs } from '../../../../src';
import { readLocalApp } from '../../../../src/cli/local/read-local-app';
import { buildLocalOutputs, localizeUrl, pendingExpression } from '../../../../src/cli/local/server/local-outputs';
import { deployedReferences } from '../../../../src/cli/local/template/deployed-values';
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
