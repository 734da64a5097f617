/**
 * The HTTP_PROXY kind reads request parameters built with intrinsics through the resolver: their
 * text (stand-ins listed for the route listing), one that cannot be evaluated named as not applied;
 * the endpoint URI only when it is known (never a stand-in host).
 */
import { httpProxyKind } from '../../../../../src/cli/local/rest/integrations/http-proxy-kind';
import type { IntegrationReadContext } from '../../../../../src/cli/local/rest/integrations/integration-kind';
import { stackEnvironment } from '../../../../../src/cli/local/template/stack-environment';
import { BACKEND_ARTIFACT } from '../../template/stack-artifact';

const ARTIFACT = BACKEND_ARTIFACT;
const values = stackEnvironment(ARTIFACT, { Resources: { Items: { Type: 'AWS::DynamoDB::Table' }, Lb: { Type: 'AWS::ElasticLoadBalancingV2::LoadBalancer' } } });

function context(): IntegrationReadContext & { warnings: string[] } {
  return {
    stackName: 'Backend',
    region: 'eu-west-1',
    environment: values.known,
    values,
    warnings: [],
    functionIdOf: () => undefined,
    registerFunction: (id) => id,
  };
}

test('request parameters built with Fn::Join are applied as their text; a stand-in is listed; one that cannot be evaluated is named', () => {
  const ctx = context();
  const spec = httpProxyKind.read(ctx, {
    Type: 'HTTP_PROXY',
    Uri: 'https://example.com/{proxy}',
    RequestParameters: {
      'integration.request.path.proxy': 'method.request.path.proxy',
      'integration.request.header.x-region': { 'Fn::Join': ['', ["'", { Ref: 'AWS::Region' }, "'"]] },
      'integration.request.header.x-table': { 'Fn::Join': ['', ["'", { Ref: 'Items' }, "'"]] },
      'integration.request.header.x-shared': { 'Fn::ImportValue': 'Shared' },
    },
  }, 'M', 'HTTP_PROXY');
  expect(spec).toMatchObject({
    type: 'HTTP_PROXY',
    requestParameters: {
      'integration.request.path.proxy': 'method.request.path.proxy',
      'integration.request.header.x-region': "'eu-west-1'",
      'integration.request.header.x-table': "'Backend-Items-LOCAL'",
    },
    standIns: [{ reference: 'Ref Items', value: 'Backend-Items-LOCAL' }],
  });
  expect(ctx.warnings).toEqual(['Backend/M: HTTP_PROXY integration: request parameters not applied locally: integration.request.header.x-shared']);
});

test('a URI on a resource whose address is not known is not served, not sent to a stand-in host', () => {
  const ctx = context();
  const spec = httpProxyKind.read(ctx, { Type: 'HTTP_PROXY', Uri: { 'Fn::Join': ['', ['http://', { 'Fn::GetAtt': ['Lb', 'DNSName'] }, '/{proxy}']] } }, 'M', 'HTTP_PROXY');
  expect(spec.type).toBe('UNSUPPORTED');
  expect(ctx.warnings).toEqual(['Backend/M: HTTP_PROXY integration URI refers to values known only after deploy; answered 500']);
});
