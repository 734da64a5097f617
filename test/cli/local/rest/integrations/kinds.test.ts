/**
 * The list of integration kinds is what the reader, the integrate step, the route listing and the
 * console ask: each registered kind reads its types, describes itself for the listing and the
 * console (these texts are the ones users see, kept word for word), and no two kinds claim a type.
 */
import type { RestApiSpec, IntegrationSpec, MethodSpec, ResourceNode } from '../../../../../src/cli/local/model/rest-api';
import type { IntegrationReadContext } from '../../../../../src/cli/local/rest/integrations/integration-kind';
import { INTEGRATION_KINDS, integrationKind } from '../../../../../src/cli/local/rest/integrations/kinds';
import { routeRows } from '../../../../../src/cli/local/rest/route-listing';
import { apiTree } from '../../../../../src/cli/local/server/console/api-tree';
import { IntrinsicEnvironment, pseudoParameters } from '../../../../../src/cli/local/template/intrinsics';
import { valuesOf } from '../../../../../src/cli/local/template/stack-environment';

const ENVIRONMENT: IntrinsicEnvironment = { pseudo: pseudoParameters('eu-west-1', 'Stack'), ref: () => undefined, getAtt: () => undefined };

function context(): IntegrationReadContext {
  return {
    stackName: 'Stack',
    region: 'eu-west-1',
    environment: ENVIRONMENT,
    values: valuesOf(ENVIRONMENT),
    warnings: [],
    functionIdOf: (uri) => (uri === 'fn-uri' ? 'Fn' : undefined),
    registerFunction: (id) => `Stack/${id}`,
  };
}

/** One `Integration` of each type a kind reads, and what the listing and the console show for it. */
const SAMPLES: ReadonlyArray<{ integration: Record<string, unknown>; listing: string; console: string }> = [
  { integration: { Type: 'AWS_PROXY', Uri: 'fn-uri' }, listing: 'label(Stack/Fn)', console: 'Lambda proxy: name(Stack/Fn)' },
  {
    integration: { Type: 'AWS_PROXY', Uri: 'fn-uri', IntegrationHttpMethod: 'GET' },
    listing: 'label(Stack/Fn) (IntegrationHttpMethod GET, not POST: answers 500)',
    console: 'Lambda proxy: name(Stack/Fn)',
  },
  { integration: { Type: 'HTTP_PROXY', Uri: 'http://example.com/{proxy}' }, listing: 'HTTP_PROXY ANY http://example.com/{proxy}', console: 'HTTP_PROXY ANY http://example.com/{proxy}' },
  { integration: { Type: 'MOCK' }, listing: 'MOCK', console: 'MOCK' },
  { integration: { Type: 'AWS', Uri: 'fn-uri' }, listing: 'label(Stack/Fn) (non-proxy)', console: 'Lambda (non-proxy): name(Stack/Fn)' },
  { integration: { Type: 'HTTP', Uri: 'http://example.com/pets', IntegrationHttpMethod: 'GET' }, listing: 'HTTP GET http://example.com/pets', console: 'HTTP GET http://example.com/pets' },
  {
    integration: { Type: 'AWS', Uri: 'arn:aws:apigateway:eu-west-1:sqs:path/123/queue' },
    listing: 'AWS service arn:aws:apigateway:eu-west-1:sqs:path/123/queue (no endpoint: set AWS_ENDPOINT_URL_SQS or AWS_ENDPOINT_URL; answers 500)',
    console: 'AWS service arn:aws:apigateway:eu-west-1:sqs:path/123/queue',
  },
  { integration: { Type: 'UNSUPPORTED' }, listing: 'not served (UNSUPPORTED integration)', console: 'not served (UNSUPPORTED integration)' },
  {
    integration: { Type: 'HTTP_PROXY', Uri: 'http://internal/x', ConnectionType: 'VPC_LINK' },
    listing: 'not served (HTTP_PROXY integration through a VPC link)',
    console: 'not served (HTTP_PROXY integration through a VPC link)',
  },
];

function read(integration: Record<string, unknown>): IntegrationSpec {
  const type = String(integration.Type);
  return integrationKind(type).read(context(), integration, 'Method', type);
}

test('no two kinds claim a type, and each type finds its kind', () => {
  const types = INTEGRATION_KINDS.flatMap((kind) => kind.types);
  expect(new Set(types).size).toBe(types.length);
  for (const kind of INTEGRATION_KINDS) {
    for (const type of kind.types) {
      expect(integrationKind(type)).toBe(kind);
    }
  }
  expect(integrationKind('SOMETHING')).toBe(integrationKind('UNSUPPORTED'));
});

test('every registered kind reads a spec that it (or the unsupported kind) runs, and describes it', () => {
  const covered = new Set<string>();
  for (const sample of SAMPLES) {
    const spec = read(sample.integration);
    const kind = integrationKind(spec.type);
    covered.add(String(sample.integration.Type));
    expect(kind.types).toContain(spec.type);
    expect(kind.listingTarget(spec, { env: {}, functionLabel: (key) => `label(${key})` })).toBe(sample.listing);
    expect(kind.consoleLabel(spec, { functionName: (key) => `name(${key})` })).toBe(sample.console);
  }
  // A kind added to the list without a sample here fails this test: give it one.
  expect([...covered].sort()).toEqual(INTEGRATION_KINDS.flatMap((kind) => kind.types).sort());
});

test('the route listing and the console show what the kind of each method says', () => {
  const methods = new Map<string, MethodSpec>();
  SAMPLES.forEach((sample, i) => {
    const method = { logicalId: `M${i}`, httpMethod: `M${i}`, authorizationType: 'NONE', authorizationScopes: [], apiKeyRequired: false, integration: read(sample.integration) };
    methods.set(method.httpMethod, method);
  });
  const root: ResourceNode = { path: '/', pathPart: '', kind: 'root', resourceId: 'root', literalChildren: new Map(), methods };
  const api = { logicalId: 'Api', apiId: 'Api', name: 'Api', stackName: 'Stack', region: 'eu-west-1', stages: ['prod'], stageVariables: {}, root, binaryMediaTypes: [], gatewayResponses: [] } as RestApiSpec;

  const rows = routeRows(api, 'prod', 'http://127.0.0.1:3000/prod/', (key) => `label(${key})`, { AWS_ENDPOINT_URL_SQS: 'http://127.0.0.1:4566' });
  const byMethod = new Map(rows.map((row) => [row.method, row.target]));
  SAMPLES.forEach((sample, i) => {
    const expected = sample.listing.replace(' (no endpoint: set AWS_ENDPOINT_URL_SQS or AWS_ENDPOINT_URL; answers 500)', ' at http://127.0.0.1:4566');
    expect(byMethod.get(`M${i}`)).toBe(expected);
  });

  const functions = new Map([['Stack/Fn', { stackName: 'Stack', logicalId: 'Fn', constructPath: undefined } as any]]);
  const [tree] = apiTree([{ api, urls: ['http://127.0.0.1:3000/prod/'] }], functions);
  const labels = new Map(tree.root.methods.map((m) => [m.httpMethod, m.integration]));
  SAMPLES.forEach((sample, i) => {
    expect(labels.get(`M${i}`)).toBe(sample.console.replace(/name\(Stack\/Fn\)/, 'Stack/Fn'));
  });
});
