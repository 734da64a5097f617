/**
 * The data section of an Amplify-style API built with CDK: `AmplifyGraphqlApi` (the real
 * construct) and its schema's model introspection, and the size of large schemas' introspection
 * in the template.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { AmplifyGraphqlApi, AmplifyGraphqlDefinition } from '@aws-amplify/graphql-api-construct';
import { App, Duration, Stack } from 'aws-cdk-lib';
import * as appsync from 'aws-cdk-lib/aws-appsync';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { DataOutputsProducer, ModelIntrospection } from '../../../src';
import { modelsSchema } from '../../support/amplify-schema';
import { runCli } from '../../support/cli';
import { evaluateOutputs } from '../../support/fake-cloudformation';
import { newStack, synthOutputs } from '../support';

const SCHEMA_FILE = path.join(__dirname, '..', '..', 'fixtures', 'amplify', 'schema.graphql');
const PENDING = expect.stringMatching(/^<pending: /);
/** CloudFormation's largest template body (from S3, where the CDK puts templates over 50 KB). */
const TEMPLATE_BODY_LIMIT = 1024 * 1024;

function amplifyApi(stack: Stack): AmplifyGraphqlApi {
  return new AmplifyGraphqlApi(stack, 'Api', {
    definition: AmplifyGraphqlDefinition.fromFiles(SCHEMA_FILE),
    authorizationModes: {
      defaultAuthorizationMode: 'API_KEY',
      apiKeyConfig: { expires: Duration.days(30) },
      userPoolConfig: { userPool: new cognito.UserPool(stack, 'UserPool') },
    },
  });
}

describe('with AmplifyGraphqlApi', () => {
  test('url, region, default and additional modes, API key and the introspection of its schema', () => {
    const { app, stack } = newStack();
    const api = amplifyApi(stack);
    const introspection = ModelIntrospection.fromSchema(AmplifyGraphqlDefinition.fromFiles(SCHEMA_FILE).schema);
    const producer = new DataOutputsProducer(stack, 'Data', { amplifyApi: api, modelIntrospection: introspection });
    expect(stack.resolve(producer.outputs.url)).toEqual(stack.resolve(api.graphqlUrl));
    expect(stack.resolve(producer.outputs.apiKey)).toEqual(stack.resolve(api.apiKey));
    expect(synthOutputs(app, stack).data).toEqual({
      vendor_region: 'eu-west-1',
      url: PENDING,
      model_introspection: introspection.document,
      api_key: PENDING,
      default_authorization_type: 'API_KEY',
      authorization_types: ['API_KEY', 'VENDOR_USER_POOLS'],
    });
    expect(Object.keys(introspection.document.models)).toEqual(['Blog', 'Post', 'Comment']);
  });

  test('its API resource and key given as cfnApi and apiKey give the same section', () => {
    const { stack } = newStack();
    const api = amplifyApi(stack);
    const viaConstruct = new DataOutputsProducer(stack, 'Data', { amplifyApi: api });
    const other = newStack();
    const otherApi = amplifyApi(other.stack);
    const viaResource = new DataOutputsProducer(other.stack, 'Data', { cfnApi: otherApi.resources.cfnResources.cfnGraphqlApi, apiKey: otherApi.apiKey });
    expect(other.stack.resolve(viaResource.outputs)).toEqual(stack.resolve(viaConstruct.outputs));
  });

  test('from JavaScript, an AmplifyGraphqlApi given as api is read as amplifyApi', () => {
    const { stack } = newStack();
    const viaAmplifyApi = new DataOutputsProducer(stack, 'Data', { amplifyApi: amplifyApi(stack) });
    const other = newStack();
    const viaApi = new DataOutputsProducer(other.stack, 'Data', { api: amplifyApi(other.stack) as any });
    expect(other.stack.resolve(viaApi.outputs)).toEqual(stack.resolve(viaAmplifyApi.outputs));
  });

  test.each<[string, (api: AmplifyGraphqlApi, stack: Stack) => any, string]>([
    ['its CfnGraphQLApi as api', (api) => ({ api: api.resources.cfnResources.cfnGraphqlApi }),
      'Backend/Data: api Backend/Api/GraphQLAPI/Resource is a CfnGraphQLApi: give it as cfnApi'],
    ['the AmplifyGraphqlApi as cfnApi', (api) => ({ cfnApi: api }), 'Backend/Data: cfnApi Backend/Api is an AmplifyGraphqlApi: give it as amplifyApi'],
    ['a GraphqlApi as amplifyApi', (_, stack) => ({ amplifyApi: new appsync.GraphqlApi(stack, 'L2', { name: 'x', definition: appsync.Definition.fromSchema(appsync.SchemaFile.fromAsset(SCHEMA_FILE)) }) }),
      'Backend/Data: amplifyApi Backend/L2 is a GraphqlApi: give it as api'],
    ['a bucket as cfnApi', (_, stack) => ({ cfnApi: new s3.CfnBucket(stack, 'Bucket') }),
      'Backend/Data: cfnApi Backend/Bucket is not a GraphQL API; allowed: api (aws-cdk-lib GraphqlApi), amplifyApi (AmplifyGraphqlApi) or cfnApi (CfnGraphQLApi)'],
    ['a string as api', () => ({ api: 'https://example.appsync-api.eu-west-1.amazonaws.com/graphql' }),
      'Backend/Data: api https://example.appsync-api.eu-west-1.amazonaws.com/graphql is not a GraphQL API; allowed: api'],
  ])('from JavaScript, %s is refused, naming the prop it belongs in', (_, props, message) => {
    const { stack } = newStack();
    const api = amplifyApi(stack);
    expect(() => new DataOutputsProducer(stack, 'Data', props(api, stack))).toThrow(message);
  });

  test('an API_KEY API given as cfnApi without apiKey is refused, naming what to pass', () => {
    const { stack } = newStack();
    const api = amplifyApi(stack);
    expect(() => new DataOutputsProducer(stack, 'Data', { cfnApi: api.resources.cfnResources.cfnGraphqlApi })).toThrow(
      `Backend/Data: the GraphQL API ${api.resources.cfnResources.cfnGraphqlApi.node.path} has API_KEY authorization but no key was given: pass it as apiKey with cfnApi, or the AmplifyGraphqlApi as amplifyApi`);
  });

  test('apiKey with amplifyApi is refused: the key is read from the API', () => {
    const { stack } = newStack();
    expect(() => new DataOutputsProducer(stack, 'Data', { amplifyApi: amplifyApi(stack), apiKey: 'da2-x' }))
      .toThrow('Backend/Data: apiKey is for cfnApi; with amplifyApi, the key is read from the API');
  });

  test('a construct that is not an AmplifyGraphqlApi is refused', () => {
    const { stack } = newStack();
    const notAnApi = new Construct(stack, 'NotAnApi');
    expect(() => new DataOutputsProducer(stack, 'Data', { amplifyApi: notAnApi })).toThrow(
      'Backend/Data: amplifyApi Backend/NotAnApi is not an AmplifyGraphqlApi (it has no resources.cfnResources.cfnGraphqlApi of type AWS::AppSync::GraphQLApi); pass an AmplifyGraphqlApi, or the API resource itself as cfnApi');
  });
});

describe('given as cfnApi', () => {
  const cfnApi = (stack: Stack, authenticationType: string, additional: string[] = []) => new appsync.CfnGraphQLApi(stack, 'Api', {
    name: 'items',
    authenticationType,
    additionalAuthenticationProviders: additional.map((type) => ({ authenticationType: type })),
  });

  test('IAM with OIDC and Lambda providers: the modes in order, no key', () => {
    const { app, stack } = newStack();
    new DataOutputsProducer(stack, 'Data', { cfnApi: cfnApi(stack, 'AWS_IAM', ['OPENID_CONNECT', 'AWS_LAMBDA']) });
    expect(synthOutputs(app, stack).data).toEqual({
      vendor_region: 'eu-west-1',
      url: PENDING,
      default_authorization_type: 'VENDOR_IAM',
      authorization_types: ['VENDOR_IAM', 'OPENID_CONNECT', 'VENDOR_LAMBDA'],
    });
  });

  test.each<[string, (stack: Stack) => any, string]>([
    ['no API', () => ({}), 'Backend/Data: give the GraphQL API as one of api (GraphqlApi), amplifyApi (AmplifyGraphqlApi) or cfnApi (CfnGraphQLApi)'],
    ['both', (stack) => ({ cfnApi: cfnApi(stack, 'AWS_IAM'), api: new appsync.GraphqlApi(stack, 'L2', { name: 'x', definition: appsync.Definition.fromSchema(appsync.SchemaFile.fromAsset(SCHEMA_FILE)) }) }), ', not api and cfnApi'],
    ['apiKey without API_KEY', (stack) => ({ cfnApi: cfnApi(stack, 'AWS_IAM'), apiKey: 'da2-x' }), 'Backend/Data: apiKey is given but the GraphQL API Backend/Api has no API_KEY authorization (it has AWS_IAM)'],
    ['an unknown mode', (stack) => ({ cfnApi: cfnApi(stack, 'AWS_IAM', ['SOMETHING']) }), 'Backend/Data: the GraphQL API Backend/Api uses authorization type SOMETHING, which vendor_outputs.json cannot describe'],
  ])('%s is refused', (_, props, message) => {
    const { stack } = newStack();
    expect(() => new DataOutputsProducer(stack, 'Data', props(stack))).toThrow(message);
  });
});

describe('large schemas', () => {
  let tmp: string;
  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'introspection-size-'));
  });
  afterAll(() => {
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  test.each([50, 200])('%i models: the template stays under the limit and generate rebuilds the same file', async (count) => {
    const outdir = path.join(tmp, `m${count}`);
    const app = new App({ outdir });
    const stack = new Stack(app, 'Backend', { env: { region: 'eu-west-1' } });
    const introspection = ModelIntrospection.fromSchema(modelsSchema(count));
    const api = new appsync.CfnGraphQLApi(stack, 'Api', { name: 'models', authenticationType: 'AMAZON_COGNITO_USER_POOLS' });
    new DataOutputsProducer(stack, 'Data', { cfnApi: api, modelIntrospection: introspection });
    const artifact = app.synth().getStackByName('Backend');

    const templateBytes = fs.statSync(path.join(outdir, artifact.templateFile)).size;
    const introspectionBytes = Buffer.byteLength(JSON.stringify(introspection.document));
    expect(Object.keys(introspection.document.models)).toHaveLength(count);
    expect(templateBytes).toBeLessThan(TEMPLATE_BODY_LIMIT / 10);
    expect(Object.keys(artifact.template.Metadata['cdk-vendor-outputs/v1'])).toEqual(['documentGzip', 'pending']);
    // For the closing note: the template with the introspection carried as it is, and compressed.
    process.stdout.write(`[size] ${count} models: introspection ${introspectionBytes} bytes; template ${templateBytes} bytes\n`);

    const outputsFile = path.join(tmp, `m${count}.outputs.json`);
    fs.writeFileSync(outputsFile, JSON.stringify({ Backend: evaluateOutputs(artifact.template, { 'Api.GraphQLUrl': 'https://abc.appsync-api.eu-west-1.amazonaws.com/graphql' }) }));
    const run = await runCli(['generate', '--outputs-file', outputsFile, '--app', outdir, '--out-dir', path.join(tmp, `m${count}-generated`)], { env: { NODE_DEBUG: 'module' } });
    expect(run.stderr).toContain('1 deploy-time value(s) filled');
    expect(run.code).toBe(0);
    // The CLI rebuilds the file from the stack alone: it loads neither Amplify package.
    expect(run.stderr).not.toMatch(/@aws-amplify/);
    const generated = JSON.parse(fs.readFileSync(path.join(tmp, `m${count}-generated`, 'vendor_outputs.json'), 'utf8'));
    const synthesized = JSON.parse(fs.readFileSync(path.join(outdir, 'Backend.vendor_outputs.json'), 'utf8'));
    expect(generated).toEqual({ ...synthesized, data: { ...synthesized.data, url: 'https://abc.appsync-api.eu-west-1.amazonaws.com/graphql' } });
    expect(generated.data.model_introspection).toEqual(introspection.document);
  });
});
