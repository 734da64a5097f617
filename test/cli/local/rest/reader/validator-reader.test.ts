/**
 * A method's request validator and models as read from the template: what it checks, and when a
 * model is compiled.
 */
import { readRequestValidation } from '../../../../../src/cli/local/rest/reader/validator-reader';
import { environment, template } from '../validation/model-template';

test('each model is compiled once, for the first method that validates a body with it; a model no method uses is not compiled', () => {
  const resources = template({
    Pet: { Name: 'Pet', Schema: { type: 'object', required: ['name'] } },
    Unused: { Name: 'Unused', Schema: { properties: { a: { $ref: 'https://apigateway.amazonaws.com/restapis/Api/models/Nowhere' } } } },
  });
  resources.Validator = { Type: 'AWS::ApiGateway::RequestValidator', Properties: { RestApiId: { Ref: 'Api' }, ValidateRequestBody: true } };
  const warnings: string[] = [];
  const read = readRequestValidation({ stackName: 'Stack', resources, apiLogicalId: 'Api', environment, warnings });
  const method = { RequestValidatorId: { Ref: 'Validator' }, RequestModels: { 'Application/JSON': { Ref: 'Pet' }, '$default': 'Missing' } };
  const first = read('M1', method)!;
  const second = read('M2', method)!;
  expect(first.bodyModels.get('application/json')).toBe(second.bodyModels.get('application/json'));
  expect(warnings).toEqual([
    'Stack/M1: model Missing ($default) cannot validate request bodies: no model Missing of this API is in the template; the method answers 500 for bodies of that type (API Gateway refuses such a model at deploy)',
    'Stack/M2: model Missing ($default) cannot validate request bodies: no model Missing of this API is in the template; the method answers 500 for bodies of that type (API Gateway refuses such a model at deploy)',
  ]);
});

test('a validator that checks nothing, or none, costs the method nothing; an unknown validator id is a warning', () => {
  const resources = template({});
  resources.Nothing = { Type: 'AWS::ApiGateway::RequestValidator', Properties: { RestApiId: { Ref: 'Api' } } };
  const warnings: string[] = [];
  const read = readRequestValidation({ stackName: 'Stack', resources, apiLogicalId: 'Api', environment, warnings });
  expect(read('M1', { RequestValidatorId: { Ref: 'Nothing' } })).toBeUndefined();
  expect(read('M2', {})).toBeUndefined();
  expect(read('M3', { RequestValidatorId: { Ref: 'Elsewhere' } })).toBeUndefined();
  expect(read('M4', { RequestValidatorId: 'abc123' })).toBeUndefined();
  expect(warnings).toEqual([
    'Stack/M3: its RequestValidatorId is not a request validator of this API in the template; requests are not validated',
    'Stack/M4: its RequestValidatorId is not a request validator of this API in the template; requests are not validated',
  ]);
});
