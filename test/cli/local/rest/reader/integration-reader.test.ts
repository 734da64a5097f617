/**
 * Reading a method's non-proxy `Integration` from a template: what is kept (templates,
 * passthrough behaviour, content handling, parameters, integration responses, timeout), which
 * backend it names, and the start-up warnings for what cannot be served.
 */
import { IntegrationReadContext, readIntegration } from '../../../../../src/cli/local/rest/reader/integration-reader';
import { MAX_INTEGRATION_TIMEOUT_MS } from '../../../../../src/cli/local/rest/reader/integration-timeout';
import { IntrinsicEnvironment, pseudoParameters } from '../../../../../src/cli/local/template/intrinsics';
import { valuesOf } from '../../../../../src/cli/local/template/stack-environment';

const ENVIRONMENT: IntrinsicEnvironment = { pseudo: pseudoParameters('eu-west-1', 'Stack'), ref: () => undefined, getAtt: () => undefined };

function context(): IntegrationReadContext & { warnings: string[]; registered: string[] } {
  const registered: string[] = [];
  return {
    stackName: 'Stack',
    region: 'eu-west-1',
    environment: ENVIRONMENT,
    values: valuesOf(ENVIRONMENT),
    warnings: [],
    registered,
    functionIdOf: (uri) => (JSON.stringify(uri).includes('["Fn","Arn"]') ? 'Fn' : undefined),
    registerFunction: (id) => {
      registered.push(id);
      return `Stack/${id}`;
    },
  };
}

test('a MOCK integration keeps its templates, passthrough behaviour, content handling and integration responses', () => {
  const spec = readIntegration(context(), {
    Type: 'MOCK',
    PassthroughBehavior: 'NEVER',
    ContentHandling: 'CONVERT_TO_TEXT',
    RequestTemplates: { 'application/json': '{"statusCode": 200}' },
    IntegrationResponses: [
      { StatusCode: '404', SelectionPattern: '404', ResponseTemplates: { 'application/json': '{}' }, ContentHandling: 'CONVERT_TO_BINARY' },
      { StatusCode: '200', SelectionPattern: '', ResponseParameters: { 'method.response.header.X': "'x'" } },
    ],
  }, 'Method');
  expect(spec).toEqual({
    type: 'MOCK',
    backend: { kind: 'mock' },
    description: 'MOCK',
    httpMethod: undefined,
    requestTemplates: { 'application/json': '{"statusCode": 200}' },
    passthroughBehavior: 'NEVER',
    contentHandling: 'CONVERT_TO_TEXT',
    requestParameters: {},
    integrationResponses: [
      { statusCode: 404, selectionPattern: '404', responseParameters: {}, responseTemplates: { 'application/json': '{}' }, contentHandling: 'CONVERT_TO_BINARY' },
      // An empty SelectionPattern is the default response.
      { statusCode: 200, selectionPattern: undefined, responseParameters: { 'method.response.header.X': "'x'" }, responseTemplates: {}, contentHandling: undefined },
    ],
    timeoutMs: MAX_INTEGRATION_TIMEOUT_MS,
  });
});

test('an AWS integration whose Uri invokes a function of the template runs that function', () => {
  const ctx = context();
  const spec = readIntegration(ctx, { Type: 'AWS', IntegrationHttpMethod: 'POST', Uri: { 'Fn::Join': ['', ['arn:aws:apigateway:', { Ref: 'AWS::Region' }, ':lambda:path/2015-03-31/functions/', { 'Fn::GetAtt': ['Fn', 'Arn'] }, '/invocations']] }, TimeoutInMillis: 5000 }, 'Method');
  expect(spec).toMatchObject({ type: 'AWS', backend: { kind: 'lambda', functionKey: 'Stack/Fn' }, httpMethod: 'POST', passthroughBehavior: 'WHEN_NO_MATCH', timeoutMs: 5000 });
  expect(ctx.registered).toEqual(['Fn']);
  expect(ctx.warnings).toEqual([]);
});

test('an AWS service integration keeps its Uri (intrinsics resolved) and region; HTTP its URL; the timeout is at most 29 s', () => {
  const aws = readIntegration(context(), { Type: 'AWS', IntegrationHttpMethod: 'POST', Uri: { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':apigateway:', { Ref: 'AWS::Region' }, ':dynamodb:action/PutItem']] } }, 'M');
  expect(aws).toMatchObject({ type: 'AWS', backend: { kind: 'aws', uri: 'arn:aws:apigateway:eu-west-1:dynamodb:action/PutItem', region: 'eu-west-1' } });
  const httpSpec = readIntegration(context(), { Type: 'HTTP', IntegrationHttpMethod: 'GET', Uri: 'https://example.com/pets/{id}', TimeoutInMillis: 60000 }, 'M');
  expect(httpSpec).toMatchObject({ type: 'HTTP', backend: { kind: 'http', uri: 'https://example.com/pets/{id}' }, description: 'HTTP GET https://example.com/pets/{id}', timeoutMs: MAX_INTEGRATION_TIMEOUT_MS });
});

test.each([
  [{ Type: 'AWS', Uri: 'arn:aws:apigateway:us-east-1:lambda:path/2015-03-31/functions/arn:aws:lambda:us-east-1:111111111111:function:elsewhere/invocations' },
    'Stack/M: AWS integration to a Lambda function outside the template (M); answered 500'],
  [{ Type: 'AWS', Uri: { 'Fn::GetAtt': ['Unknown', 'Arn'] } }, 'Stack/M: AWS integration whose Uri cannot be resolved locally (Fn::GetAtt Unknown.Arn is not known locally); answered 500'],
  [{ Type: 'HTTP', Uri: { 'Fn::GetAtt': ['Lb', 'DNSName'] } }, 'Stack/M: HTTP integration whose Uri cannot be resolved locally; answered 500'],
  [{ Type: 'HTTP', Uri: 'http://internal/x', ConnectionType: 'VPC_LINK' }, 'Stack/M: HTTP integration through a VPC link is not served locally; answered 500'],
  [{ Type: 'SOMETHING' }, 'Stack/M: SOMETHING integrations are not served locally; answered 500'],
  [{ Type: 'MOCK', RequestTemplates: { 'application/json': { 'Fn::Join': ['', ['{"t": "', { Ref: 'Unknown' }, '"}']] } } },
    'Stack/M: MOCK integration whose request template application/json (Ref Unknown is not known locally) cannot be evaluated locally; answered 500'],
  [{ Type: 'MOCK', RequestParameters: { 'integration.request.header.x': { 'Fn::ImportValue': 'Shared' } } },
    'Stack/M: MOCK integration whose request parameter integration.request.header.x (Fn::ImportValue Shared is not known locally) cannot be evaluated locally; answered 500'],
  [{ Type: 'MOCK', IntegrationResponses: [{ StatusCode: '200', ResponseTemplates: { 'application/json': { 'Fn::If': ['C', 'a', 'b'] } } }] },
    'Stack/M: MOCK integration whose integration response 200 template application/json (condition C is not known locally) cannot be evaluated locally; answered 500'],
])('%j is not served, with a start-up warning', (integration, warning) => {
  const ctx = context();
  expect(readIntegration(ctx, integration, 'M').type).toBe('UNSUPPORTED');
  expect(ctx.warnings).toEqual([warning]);
});

test('an unknown PassthroughBehavior or ContentHandling reads as the default', () => {
  expect(readIntegration(context(), { Type: 'MOCK', PassthroughBehavior: 'sometimes', ContentHandling: 'CONVERT' }, 'M'))
    .toMatchObject({ passthroughBehavior: 'WHEN_NO_MATCH', contentHandling: undefined });
});

test('templates and parameters built with Fn::Join are kept as their text, never dropped', () => {
  const ctx = context();
  const spec = readIntegration(ctx, {
    Type: 'MOCK',
    PassthroughBehavior: 'WHEN_NO_TEMPLATES',
    RequestTemplates: { 'application/json': { 'Fn::Join': ['', ['{"statusCode": 200, "region": "', { Ref: 'AWS::Region' }, '"}']] } },
    RequestParameters: { 'integration.request.header.x': { 'Fn::Sub': "'${AWS::Region}'" } },
    IntegrationResponses: [{
      StatusCode: '200',
      ResponseParameters: { 'method.response.header.x': { 'Fn::Join': ['', ["'", { Ref: 'AWS::AccountId' }, "'"]] } },
      ResponseTemplates: { 'application/json': { 'Fn::Join': ['', ['{"stack": "', { Ref: 'AWS::StackName' }, '"}']] } },
    }],
  }, 'M');
  expect(spec).toMatchObject({
    type: 'MOCK',
    requestTemplates: { 'application/json': '{"statusCode": 200, "region": "eu-west-1"}' },
    requestParameters: { 'integration.request.header.x': "'eu-west-1'" },
    integrationResponses: [{ responseParameters: { 'method.response.header.x': "'123456789012'" }, responseTemplates: { 'application/json': '{"stack": "Stack"}' } }],
  });
  expect((spec as any).standIns).toBeUndefined();
  expect(ctx.warnings).toEqual([]);
});
