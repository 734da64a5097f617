/**
 * A gateway response's templates and parameters, built with intrinsics, read through the resolver:
 * evaluated, stand-ins warned of with what to pass, what cannot be evaluated left out with a warning.
 */
import { readGatewayResponse } from '../../../../../src/cli/local/rest/reader/gateway-response-reader';
import { stackEnvironment } from '../../../../../src/cli/local/template/stack-environment';
import { BACKEND_ARTIFACT } from '../../template/stack-artifact';

const ARTIFACT = BACKEND_ARTIFACT;
const values = stackEnvironment(ARTIFACT, { Resources: { Docs: { Type: 'AWS::S3::Bucket' } } });

test('templates and header values built with Fn::Join are read; a stand-in and an expression that cannot be evaluated are warned of', () => {
  const warnings: string[] = [];
  const spec = readGatewayResponse({
    ResponseType: 'DEFAULT_4XX',
    StatusCode: '400',
    ResponseParameters: {
      'gatewayresponse.header.x-region': { 'Fn::Join': ['', ["'", { Ref: 'AWS::Region' }, "'"]] },
      'gatewayresponse.header.x-docs': { 'Fn::Join': ['', ["'https://", { 'Fn::GetAtt': ['Docs', 'RegionalDomainName'] }, "/errors'"]] },
      'gatewayresponse.header.x-origin': 'method.request.header.origin',
      'gatewayresponse.header.x-import': { 'Fn::ImportValue': 'Shared' },
    },
    ResponseTemplates: { 'application/json': { 'Fn::Join': ['', ['{"message": $context.error.messageString, "stack": "', { Ref: 'AWS::StackName' }, '"}']] } },
  }, { values, where: 'Backend/Api', warnings });
  expect(spec).toEqual({
    responseType: 'DEFAULT_4XX',
    statusCode: 400,
    headers: { 'x-region': 'eu-west-1', 'x-docs': 'https://backend-docs-local.s3.eu-west-1.amazonaws.com/errors' },
    mappedHeaders: { 'x-origin': 'method.request.header.origin' },
    templates: { 'application/json': '{"message": $context.error.messageString, "stack": "Backend"}' },
  });
  expect(warnings).toEqual([
    'Backend/Api: gateway response DEFAULT_4XX: gatewayresponse.header.x-import cannot be evaluated locally (Fn::ImportValue Shared is not known locally); left out',
    'Backend/Api: gateway response DEFAULT_4XX: stand-in "backend-docs-local.s3.eu-west-1.amazonaws.com" for Fn::GetAtt Docs.RegionalDomainName (pass --outputs-file FILE or --from-stack NAME)',
  ]);
});

test('without a resolver (an OpenAPI document\'s entries), strings are read as they are', () => {
  const spec = readGatewayResponse({ ResponseType: 'UNAUTHORIZED', ResponseTemplates: { 'application/json': '{"m": 1}' }, ResponseParameters: { 'gatewayresponse.header.a': "'b'" } });
  expect(spec).toEqual({ responseType: 'UNAUTHORIZED', statusCode: undefined, headers: { a: 'b' }, mappedHeaders: {}, templates: { 'application/json': '{"m": 1}' } });
});
