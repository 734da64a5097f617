/**
 * Contract between RestItemsApi (what it writes to custom) and the frontend helper (what it
 * reads): synthesize a backend, "deploy" it, rebuild vendor_outputs.json as `generate` does,
 * and build the REST section.
 */
import { App, Stack } from 'aws-cdk-lib';
import { RestItemsApi } from '../../src';
import { toRestConfig } from '../../src/client';
import { readCarriedDocument, rebuildDocument } from '../../src/outputs/cdk-free/carriage';
import { validateDocument } from '../../src/outputs/cdk-free/validation';
import { evaluateOutputs } from '../support/fake-cloudformation';

function deployedFile(build: (stack: Stack) => void): any {
  const app = new App();
  const stack = new Stack(app, 'Backend');
  build(stack);
  const template = app.synth().getStackByName('Backend').template;
  const values: Record<string, string> = { 'AWS::Region': 'eu-west-1' };
  for (const [id, resource] of Object.entries<any>(template.Resources)) {
    if (resource.Type === 'AWS::ApiGateway::RestApi') {
      values[id] = `${id.slice(0, 6).toLowerCase()}id`;
    }
    if (resource.Type === 'AWS::ApiGateway::Stage') {
      values[id] = resource.Properties.StageName;
    }
  }
  const document = rebuildDocument(readCarriedDocument(template.Metadata, 'Backend'), evaluateOutputs(template, values), 'Backend');
  expect(validateDocument(document)).toEqual([]);
  return document;
}

test('one RestItemsApi in the flat shape', () => {
  const file = deployedFile((stack) => new RestItemsApi(stack, 'Items', { apiName: 'items', stageName: 'dev' }));
  const rest = toRestConfig(file);
  expect(Object.keys(rest)).toEqual(['items']);
  expect(rest.items.region).toBe('eu-west-1');
  expect(rest.items.endpoint).toMatch(/^https:\/\/\w+\.execute-api\.eu-west-1\.amazonaws\.com\/dev\/$/);
  expect(rest.items.endpoint).toBe(file.custom.api_endpoint);
});

test('several RestItemsApis under their outputsKey', () => {
  const file = deployedFile((stack) => {
    new RestItemsApi(stack, 'Orders', { apiName: 'orders', outputsKey: 'orders', stageName: 'prod' });
    new RestItemsApi(stack, 'Users', { apiName: 'users', outputsKey: 'users' });
  });
  const rest = toRestConfig(file);
  expect(Object.keys(rest).sort()).toEqual(['orders', 'users']);
  expect(rest.orders).toEqual({ endpoint: file.custom.orders.api_endpoint, region: 'eu-west-1' });
  expect(rest.orders.endpoint).toMatch(/\/prod\/$/);
  expect(rest.users).toEqual({ endpoint: file.custom.users.api_endpoint, region: 'eu-west-1' });
});
