import { Stack, Token } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import { IdentityPool } from 'aws-cdk-lib/aws-cognito-identitypool';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { logicalIdOf, newStack, synthOutputs } from './support';
import * as library from '../../src';
import { RestItemsApi, RestItemsApiAuthorization, RestItemsApiProps, VendorOutputs } from '../../src';

const PENDING = expect.stringMatching(/^<pending: /);

function methodsOf(template: Template): Array<{ method: string; resource: string; props: any }> {
  const resources = template.toJSON().Resources;
  const pathOf = (ref: any): string => {
    if (ref['Fn::GetAtt']) {
      return '';
    }
    const r = resources[ref.Ref];
    return `${pathOf(r.Properties.ParentId)}/${r.Properties.PathPart}`;
  };
  return Object.values<any>(resources)
    .filter((r) => r.Type === 'AWS::ApiGateway::Method')
    .map((r) => ({ method: r.Properties.HttpMethod, resource: pathOf(r.Properties.ResourceId), props: r.Properties }))
    .sort((a, b) => `${a.resource} ${a.method}`.localeCompare(`${b.resource} ${b.method}`));
}

describe('RestItemsApi resource tree', () => {
  const { stack } = newStack();
  const api = new RestItemsApi(stack, 'ItemsApi');
  const template = Template.fromStack(stack);

  test('has /items and the greedy proxy /items/{proxy+} and nothing else', () => {
    template.resourceCountIs('AWS::ApiGateway::Resource', 2);
    template.hasResourceProperties('AWS::ApiGateway::Resource', {
      PathPart: 'items',
      ParentId: { 'Fn::GetAtt': [logicalIdOf(template, 'AWS::ApiGateway::RestApi'), 'RootResourceId'] },
    });
    template.hasResourceProperties('AWS::ApiGateway::Resource', {
      PathPart: '{proxy+}',
      ParentId: { Ref: logicalIdOf(template, 'AWS::ApiGateway::Resource', (p) => p.PathPart === 'items') },
    });
  });

  test('methods: GET DELETE PUT POST OPTIONS on /items, ANY OPTIONS on the proxy', () => {
    expect(methodsOf(template).map((m) => `${m.method} ${m.resource}`)).toEqual([
      'DELETE /items', 'GET /items', 'OPTIONS /items', 'POST /items', 'PUT /items',
      'ANY /items/{proxy+}', 'OPTIONS /items/{proxy+}',
    ]);
  });

  test('every non-OPTIONS method is a Lambda proxy integration of the default function, with no authorization', () => {
    const fn = logicalIdOf(template, 'AWS::Lambda::Function');
    for (const m of methodsOf(template).filter((x) => x.method !== 'OPTIONS')) {
      expect(m.props.AuthorizationType).toBe('NONE');
      expect(m.props.Integration).toEqual(expect.objectContaining({ Type: 'AWS_PROXY', IntegrationHttpMethod: 'POST' }));
      expect(JSON.stringify(m.props.Integration.Uri)).toContain(`"${fn}","Arn"`);
    }
  });

  test('OPTIONS methods are CORS preflights answered by a mock integration allowing any origin', () => {
    for (const m of methodsOf(template).filter((x) => x.method === 'OPTIONS')) {
      expect(m.props.AuthorizationType).toBe('NONE');
      expect(m.props.Integration.Type).toBe('MOCK');
      expect(m.props.Integration.IntegrationResponses[0].ResponseParameters).toEqual({
        'method.response.header.Access-Control-Allow-Headers': "'Content-Type,X-Amz-Date,Authorization,X-Api-Key,X-Amz-Security-Token,X-Amz-User-Agent'",
        'method.response.header.Access-Control-Allow-Origin': "'*'",
        'method.response.header.Access-Control-Allow-Methods': "'OPTIONS,GET,PUT,POST,DELETE,PATCH,HEAD'",
      });
    }
  });

  test('the default function is the bundled items function on nodejs22.x', () => {
    template.hasResourceProperties('AWS::Lambda::Function', {
      Runtime: 'nodejs22.x',
      Handler: 'index.handler',
      TracingConfig: { Mode: 'Active' },
      Environment: { Variables: Match.objectLike({ CORS_ALLOW_ORIGINS: '["*"]' }) },
    });
    expect(api.handler).toBeInstanceOf(lambda.Function);
  });

  test('stage dev with throttling, tracing, execution logging and a JSON access log', () => {
    template.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: 'dev',
      TracingEnabled: true,
      MethodSettings: [{
        DataTraceEnabled: false,
        HttpMethod: '*',
        LoggingLevel: 'ERROR',
        MetricsEnabled: true,
        ResourcePath: '/*',
        ThrottlingBurstLimit: 200,
        ThrottlingRateLimit: 100,
      }],
      AccessLogSetting: {
        DestinationArn: { 'Fn::GetAtt': [logicalIdOf(template, 'AWS::Logs::LogGroup'), 'Arn'] },
        Format: Match.stringLikeRegexp('"requestId":"\\$context.requestId"'),
      },
    });
    template.hasResourceProperties('AWS::Logs::LogGroup', { RetentionInDays: 30 });
    template.resourceCountIs('AWS::ApiGateway::Account', 1);
  });

  test('request validation: POST /items needs a JSON object with a non-empty name', () => {
    const validator = logicalIdOf(template, 'AWS::ApiGateway::RequestValidator');
    template.hasResourceProperties('AWS::ApiGateway::RequestValidator', { ValidateRequestBody: true, ValidateRequestParameters: true });
    template.hasResourceProperties('AWS::ApiGateway::Model', {
      ContentType: 'application/json',
      Schema: {
        $schema: 'http://json-schema.org/draft-04/schema#',
        title: 'NewItem',
        type: 'object',
        required: ['name'],
        properties: { name: { type: 'string', minLength: 1 } },
      },
    });
    const post = methodsOf(template).find((m) => m.method === 'POST')!;
    expect(post.props.RequestValidatorId).toEqual({ Ref: validator });
    expect(post.props.RequestModels).toEqual({ 'application/json': { Ref: logicalIdOf(template, 'AWS::ApiGateway::Model') } });
    const get = methodsOf(template).find((m) => m.method === 'GET')!;
    expect(get.props.RequestParameters).toEqual({ 'method.request.querystring.limit': false });
  });

  test('gateway errors keep the CORS headers', () => {
    for (const type of ['DEFAULT_4XX', 'DEFAULT_5XX']) {
      template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
        ResponseType: type,
        ResponseParameters: {
          'gatewayresponse.header.Access-Control-Allow-Origin': "'*'",
          'gatewayresponse.header.Access-Control-Allow-Headers': "'*'",
        },
      });
    }
  });

  test('guest methods carry justified cdk-nag suppressions', () => {
    const get = Object.values<any>(template.toJSON().Resources).find((r) => r.Type === 'AWS::ApiGateway::Method' && r.Properties.HttpMethod === 'GET');
    const ids = get.Metadata.cdk_nag.rules_to_suppress.map((s: any) => s.id);
    expect(ids).toEqual(['AwsSolutions-APIG4', 'AwsSolutions-COG4']);
    for (const s of get.Metadata.cdk_nag.rules_to_suppress) {
      expect(s.reason).toMatch(/Guest access by design/);
    }
  });

  test('no IAM grant exists without IAM authorization', () => {
    expect(JSON.stringify(template.toJSON())).not.toContain('execute-api:Invoke');
  });
});

describe('RestItemsApi outputs', () => {
  test('flat keys at the root of custom by default', () => {
    const { app, stack } = newStack();
    const api = new RestItemsApi(stack, 'ItemsApi');
    expect(api.apiName).toBe('ItemsApi');
    expect(api.stageName).toBe('dev');
    expect(stack.resolve(api.apiEndpoint)).toEqual(stack.resolve(api.api.url));
    const outputs = synthOutputs(app, stack);
    expect(outputs.custom).toEqual({
      api_id: PENDING,
      api_endpoint: PENDING,
      api_name: 'ItemsApi',
      api_stage: 'dev',
      vendor_region: 'eu-west-1',
      api_kind: 'rest',
    });
  });

  test('api_endpoint carries the invoke URL including the stage', () => {
    const { stack } = newStack();
    const api = new RestItemsApi(stack, 'ItemsApi', { stageName: 'prod' });
    expect(stack.resolve(api.apiEndpoint)).toEqual({
      'Fn::Join': ['', ['https://', { Ref: 'ItemsApiA26A7E4B' }, '.execute-api.eu-west-1.', { Ref: 'AWS::URLSuffix' }, '/', { Ref: stack.getLogicalId(api.stage.node.defaultChild as any) }, '/']],
    });
  });

  test('with outputsKey the same keys go under custom.<outputsKey>; several APIs coexist', () => {
    const { app, stack } = newStack();
    new RestItemsApi(stack, 'Orders', { outputsKey: 'orders', apiName: 'orders-api', stageName: 'v1' });
    new RestItemsApi(stack, 'Items');
    VendorOutputs.of(stack).addOutput({ custom: { featureFlag: true } });
    const outputs = synthOutputs(app, stack);
    expect(outputs.custom).toEqual({
      orders: { api_id: PENDING, api_endpoint: PENDING, api_name: 'orders-api', api_stage: 'v1', vendor_region: 'eu-west-1', api_kind: 'rest' },
      api_id: PENDING,
      api_endpoint: PENDING,
      api_name: 'Items',
      api_stage: 'dev',
      vendor_region: 'eu-west-1',
      api_kind: 'rest',
      featureFlag: true,
    });
  });

  test('an environment-agnostic stack carries the region as a deploy-time value', () => {
    const { app } = newStack();
    const stack = new Stack(app, 'Agnostic');
    new RestItemsApi(stack, 'ItemsApi');
    expect(synthOutputs(app, stack).custom.vendor_region).toEqual(PENDING);
  });

  test('two APIs with the flat default collide with a clear error naming both paths', () => {
    const { stack } = newStack();
    new RestItemsApi(stack, 'First');
    expect(() => new RestItemsApi(stack, 'Second')).toThrow(
      'RestItemsApi Backend/Second would write the flat keys at the root of custom (no outputsKey), which RestItemsApi Backend/First already writes. '
      + 'Give each RestItemsApi of a backend a distinct outputsKey',
    );
  });

  test('two APIs with the same outputsKey collide', () => {
    const { stack } = newStack();
    new RestItemsApi(stack, 'First', { outputsKey: 'shop' });
    expect(() => new RestItemsApi(stack, 'Second', { outputsKey: 'shop' })).toThrow(
      /RestItemsApi Backend\/Second would write custom.shop \(outputsKey 'shop'\), which RestItemsApi Backend\/First already writes. Give each RestItemsApi of a backend a distinct outputsKey/,
    );
  });

  test('two APIs with the same name collide', () => {
    const { stack } = newStack();
    new RestItemsApi(stack, 'First', { apiName: 'shop' });
    expect(() => new RestItemsApi(stack, 'Second', { apiName: 'shop', outputsKey: 'second' })).toThrow(
      /RestItemsApi Backend\/Second has apiName 'shop', which RestItemsApi Backend\/First already uses/,
    );
  });

  test('APIs in different stacks do not collide', () => {
    const { app, stack } = newStack();
    const other = new Stack(app, 'Other', { env: { region: 'us-west-2' } });
    new RestItemsApi(stack, 'ItemsApi');
    expect(() => new RestItemsApi(other, 'ItemsApi')).not.toThrow();
  });
});

describe('RestItemsApi options', () => {
  test('a user function replaces the default one', () => {
    const { stack } = newStack();
    const fn = new lambda.Function(stack, 'Mine', {
      runtime: lambda.Runtime.NODEJS_20_X,
      handler: 'index.handler',
      code: lambda.Code.fromInline('exports.handler = async () => ({ statusCode: 200, body: "1" })'),
    });
    const api = new RestItemsApi(stack, 'ItemsApi', { handler: fn });
    expect(api.handler).toBe(fn);
    const template = Template.fromStack(stack);
    template.resourceCountIs('AWS::Lambda::Function', 1);
    const mine = stack.getLogicalId(fn.node.defaultChild as lambda.CfnFunction);
    for (const m of methodsOf(template).filter((x) => x.method !== 'OPTIONS')) {
      expect(JSON.stringify(m.props.Integration.Uri)).toContain(`"${mine}","Arn"`);
    }
  });

  test('restricted origins: preflight echoes only allowed origins, function gets the list, no wildcard gateway responses', () => {
    const { stack } = newStack();
    new RestItemsApi(stack, 'ItemsApi', { allowOrigins: ['https://app.example.com', 'http://localhost:5173'] });
    const template = Template.fromStack(stack);
    template.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({ CORS_ALLOW_ORIGINS: '["https://app.example.com","http://localhost:5173"]' }) },
    });
    const options = methodsOf(template).filter((m) => m.method === 'OPTIONS');
    expect(options).toHaveLength(2);
    for (const m of options) {
      const response = m.props.Integration.IntegrationResponses[0];
      expect(response.ResponseParameters['method.response.header.Access-Control-Allow-Origin']).toBe("'https://app.example.com'");
      expect(response.ResponseParameters['method.response.header.Vary']).toBe("'Origin'");
      expect(response.ResponseTemplates['application/json']).toContain('http://localhost:5173');
    }
    template.resourceCountIs('AWS::ApiGateway::GatewayResponse', 0);
  });

  test('stage options override the defaults; access logging and the CloudWatch role can be turned off', () => {
    const { stack } = newStack();
    new RestItemsApi(stack, 'ItemsApi', {
      stageName: 'v2',
      accessLogging: false,
      cloudWatchRole: false,
      requestValidation: false,
      deployOptions: { throttlingRateLimit: 5, throttlingBurstLimit: 10, tracingEnabled: false },
    });
    const template = Template.fromStack(stack);
    template.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: 'v2',
      TracingEnabled: false,
      AccessLogSetting: Match.absent(),
      MethodSettings: [Match.objectLike({ ThrottlingBurstLimit: 10, ThrottlingRateLimit: 5 })],
    });
    template.resourceCountIs('AWS::Logs::LogGroup', 0);
    template.resourceCountIs('AWS::ApiGateway::Account', 0);
    template.resourceCountIs('AWS::ApiGateway::RequestValidator', 0);
    template.resourceCountIs('AWS::ApiGateway::Model', 0);
  });

  test('access log retention is configurable', () => {
    const { stack } = newStack();
    new RestItemsApi(stack, 'ItemsApi', { accessLogRetention: 365 });
    Template.fromStack(stack).hasResourceProperties('AWS::Logs::LogGroup', { RetentionInDays: 365 });
  });
});

describe('RestItemsApi IAM authorization', () => {
  function iamStack(poolProps: { allowUnauthenticatedIdentities?: boolean }, allowGuests?: boolean) {
    const { stack } = newStack();
    const pool = new IdentityPool(stack, 'Identity', poolProps);
    const api = new RestItemsApi(stack, 'ItemsApi', { authorization: RestItemsApiAuthorization.IAM, identityPool: pool, allowGuests });
    return { stack, pool, api, template: Template.fromStack(stack) };
  }

  function invokePolicyRoles(template: Template): string[] {
    return Object.values<any>(template.toJSON().Resources)
      .filter((r) => r.Type === 'AWS::IAM::Policy' && JSON.stringify(r.Properties.PolicyDocument).includes('execute-api:Invoke'))
      .flatMap((r) => r.Properties.Roles.map((role: any) => role.Ref));
  }

  test('methods use AWS_IAM; preflights stay open', () => {
    const { template } = iamStack({ allowUnauthenticatedIdentities: true });
    for (const m of methodsOf(template)) {
      expect(m.props.AuthorizationType).toBe(m.method === 'OPTIONS' ? 'NONE' : 'AWS_IAM');
      expect(m.props).not.toHaveProperty('Metadata');
    }
    const get = Object.values<any>(template.toJSON().Resources).find((r) => r.Type === 'AWS::ApiGateway::Method' && r.Properties.HttpMethod === 'GET');
    expect(get.Metadata).toBeUndefined();
  });

  test('authenticated and (guests allowed by the pool) unauthenticated roles get exactly execute-api:Invoke on /items and /items/*', () => {
    const { stack, pool, api, template } = iamStack({ allowUnauthenticatedIdentities: true });
    const statement = {
      Action: 'execute-api:Invoke',
      Effect: 'Allow',
      Resource: stack.resolve(api.invokeArns),
    };
    for (const role of [pool.authenticatedRole, pool.unauthenticatedRole]) {
      template.hasResourceProperties('AWS::IAM::Policy', {
        PolicyDocument: { Version: '2012-10-17', Statement: [statement] },
        Roles: [{ Ref: stack.getLogicalId(role.node.defaultChild as iam.CfnRole) }],
      });
    }
    expect(invokePolicyRoles(template)).toHaveLength(2);
    const arns = JSON.stringify(stack.resolve(api.invokeArns));
    expect(stack.resolve(api.invokeArns)).toHaveLength(2);
    expect(arns).toContain('/*/items"');
    expect(arns).toContain('/*/items/*"');
    expect(arns).toContain(`{"Ref":"${stack.getLogicalId(api.stage.node.defaultChild as any)}"}`);
  });

  test('guests are not granted when the pool does not allow unauthenticated identities', () => {
    const { stack, pool, template } = iamStack({});
    expect(invokePolicyRoles(template)).toEqual([stack.getLogicalId(pool.authenticatedRole.node.defaultChild as iam.CfnRole)]);
  });

  test('allowGuests: false keeps guests out even when the pool allows them', () => {
    const { stack, pool, template } = iamStack({ allowUnauthenticatedIdentities: true }, false);
    expect(invokePolicyRoles(template)).toEqual([stack.getLogicalId(pool.authenticatedRole.node.defaultChild as iam.CfnRole)]);
  });

  test('grantInvoke grants any principal the same two ARNs', () => {
    const { stack } = newStack();
    const api = new RestItemsApi(stack, 'ItemsApi', { authorization: RestItemsApiAuthorization.IAM });
    const role = new iam.Role(stack, 'Caller', { assumedBy: new iam.AccountRootPrincipal() });
    api.grantInvoke(role);
    Template.fromStack(stack).hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: { Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: stack.resolve(api.invokeArns) }] },
      Roles: [{ Ref: stack.getLogicalId(role.node.defaultChild as iam.CfnRole) }],
    });
  });
});

describe('RestItemsApi validation', () => {
  test.each([
    ['an apiName token', { apiName: Token.asString({ Ref: 'X' }) }, /apiName must be known at synth \(got the token \$\{Token\[/],
    ['a blank apiName', { apiName: '  ' }, /apiName must have 1 to 1024 characters and not be blank \(got "  "\)/],
    ['a 1025-character apiName', { apiName: 'a'.repeat(1025) }, /apiName must have 1 to 1024 characters/],
    ['an empty stageName', { stageName: '' }, /stageName must have 1 to 128 letters, digits, hyphens or underscores \(got ""\)/],
    ['a 129-character stageName', { stageName: 's'.repeat(129) }, /stageName must have 1 to 128/],
    ['a stageName with a slash', { stageName: 'v1/beta' }, /stageName must have 1 to 128 letters, digits, hyphens or underscores \(got "v1\/beta"\)/],
    ['an outputsKey token', { outputsKey: Token.asString({ Ref: 'X' }) }, /outputsKey must be known at synth/],
    ['an outputsKey starting with a digit', { outputsKey: '1api' }, /outputsKey must start with a letter and have 1 to 128 letters, digits, hyphens or underscores \(got "1api"\)/],
    ['a 129-character outputsKey', { outputsKey: 'k'.repeat(129) }, /outputsKey must start with a letter/],
    ['an outputsKey of the flat shape', { outputsKey: 'api_id' }, /outputsKey cannot be 'api_id', a key of the flat shape \(api_id, api_endpoint, api_name, api_stage, vendor_region, api_kind\)/],
    ['allowGuests without IAM', { allowGuests: true }, /allowGuests is only used with authorization RestItemsApiAuthorization.IAM and an identityPool \(got NONE\)/],
    ['allowGuests without a pool', { authorization: RestItemsApiAuthorization.IAM, allowGuests: true }, /allowGuests needs an identityPool/],
    ['no origins', { allowOrigins: [] }, /allowOrigins must list at least one origin/],
    ['an origin with a path', { allowOrigins: ['https://app.example.com/path'] }, /allowOrigins entries must be '\*' or an origin such as 'https:\/\/example.com' \(scheme and host, no path\); got "https:\/\/app.example.com\/path"/],
  ])('refuses %s', (_, props, message) => {
    const { stack } = newStack();
    expect(() => new RestItemsApi(stack, 'ItemsApi', props)).toThrow(message);
  });

  test.each([
    ['a 1024-character apiName', { apiName: 'a'.repeat(1024) }],
    ['a 128-character stageName', { stageName: 's'.repeat(128) }],
    ['a 1-character stageName', { stageName: 's' }],
    ['a 128-character outputsKey', { outputsKey: 'k'.repeat(128) }],
    ['a 1-character outputsKey', { outputsKey: 'k' }],
    ['a stageName token', { stageName: Token.asString({ Ref: 'Stage' }) }],
  ])('accepts %s', (_, props) => {
    const { stack } = newStack();
    expect(() => new RestItemsApi(stack, 'ItemsApi', props)).not.toThrow();
  });

  test('refuses an identityPool without IAM authorization', () => {
    const { stack } = newStack();
    const pool = new IdentityPool(stack, 'Identity');
    expect(() => new RestItemsApi(stack, 'ItemsApi', { identityPool: pool })).toThrow(
      /identityPool is only used with authorization RestItemsApiAuthorization.IAM \(got NONE\); without authorization anyone may call the API/,
    );
  });

  test('refuses allowGuests when the pool does not allow unauthenticated identities', () => {
    const { stack } = newStack();
    const pool = new IdentityPool(stack, 'Identity');
    expect(() => new RestItemsApi(stack, 'ItemsApi', { authorization: RestItemsApiAuthorization.IAM, identityPool: pool, allowGuests: true })).toThrow(
      /allowGuests is true but identity pool Backend\/Identity does not allow unauthenticated identities/,
    );
  });
});

describe('RestItemsApi runtime of the bundled function', () => {
  test('runtime sets the bundled function\'s runtime (a Node.js runtime newer than the floor knows, too)', () => {
    const { stack } = newStack();
    new RestItemsApi(stack, 'ItemsApi', { runtime: new lambda.Runtime('nodejs24.x', lambda.RuntimeFamily.NODEJS) });
    Template.fromStack(stack).hasResourceProperties('AWS::Lambda::Function', { Runtime: 'nodejs24.x', Handler: 'index.handler' });
  });

  test('the default runtime draws no warning (nodejs20.x did: deprecated on 2026-04-30)', () => {
    const { stack } = newStack();
    new RestItemsApi(stack, 'ItemsApi');
    expect(Annotations.fromStack(stack).findWarning('*', Match.anyValue())).toEqual([]);
  });

  test.each([
    ['nodejs20.x', lambda.Runtime.NODEJS_20_X],
    ['nodejs22.x', lambda.Runtime.NODEJS_22_X],
  ])('accepts %s', (name, runtime) => {
    const { stack } = newStack();
    new RestItemsApi(stack, 'ItemsApi', { runtime });
    Template.fromStack(stack).hasResourceProperties('AWS::Lambda::Function', { Runtime: name });
  });

  test.each([
    ['python3.12', lambda.Runtime.PYTHON_3_12],
    ['java21', lambda.Runtime.JAVA_21],
    ['provided.al2023', lambda.Runtime.PROVIDED_AL2023],
  ])('refuses %s: the bundled function is JavaScript', (name, runtime) => {
    const { stack } = newStack();
    expect(() => new RestItemsApi(stack, 'ItemsApi', { runtime })).toThrow(
      `Backend/ItemsApi: runtime must be a Node.js runtime, because the bundled items function is JavaScript (got ${name}); to run other code, pass your own function as handler`,
    );
  });

  test.each([
    ['nodejs18.x', lambda.Runtime.NODEJS_18_X],
    ['nodejs16.x', lambda.Runtime.NODEJS_16_X],
  ])('refuses %s: older than the bundle supports', (name, runtime) => {
    const { stack } = newStack();
    expect(() => new RestItemsApi(stack, 'ItemsApi', { runtime })).toThrow(
      `Backend/ItemsApi: runtime ${name} is older than the bundled items function supports: it is built for Node.js 20 and newer, e.g. lambda.Runtime.NODEJS_22_X (the default)`,
    );
  });

  test('refuses runtime together with handler', () => {
    const { stack } = newStack();
    const fn = new lambda.Function(stack, 'Mine', {
      runtime: lambda.Runtime.NODEJS_22_X,
      handler: 'index.handler',
      code: lambda.Code.fromInline('exports.handler = async () => ({ statusCode: 200, body: "1" })'),
    });
    expect(() => new RestItemsApi(stack, 'ItemsApi', { handler: fn, runtime: lambda.Runtime.NODEJS_22_X })).toThrow(
      /^Backend\/ItemsApi: runtime is only used for the bundled items function; with handler, set the runtime on your own function$/,
    );
  });

  test('the bundled function class is internal: not exported from the package', () => {
    expect(Object.keys(library)).not.toContain('RestItemsApiFunction');
    expect(Object.keys(library).filter((name) => /Function/.test(name))).toEqual([]);
  });
});

describe('RestItemsApi account-level CloudWatch role follows @aws-cdk/aws-apigateway:disableCloudWatchRole', () => {
  const FLAG = '@aws-cdk/aws-apigateway:disableCloudWatchRole';
  const WARNING = 'cloudWatchRole is off (feature flag @aws-cdk/aws-apigateway:disableCloudWatchRole), '
    + 'but the stage writes execution or access logs, which need the API Gateway CloudWatch Logs role of the account and region: '
    + 'without it the deploy fails with "CloudWatch Logs role ARN must be set in account settings to enable logging". '
    + 'Set cloudWatchRole: true in one stack per account and region, or turn the logs off (accessLogging: false, deployOptions.loggingLevel OFF).';

  function build(flag: boolean | undefined, props: RestItemsApiProps = {}) {
    const { stack } = newStack('eu-west-1', flag === undefined ? undefined : { [FLAG]: flag });
    new RestItemsApi(stack, 'ItemsApi', props);
    return { template: Template.fromStack(stack), warnings: Annotations.fromStack(stack).findWarning('*', Match.anyValue()) };
  }

  test.each([
    ['unset', undefined],
    ['false', false],
  ])('flag %s: the role and AWS::ApiGateway::Account are created, as RestApi does', (_, flag) => {
    const { template, warnings } = build(flag);
    template.resourceCountIs('AWS::ApiGateway::Account', 1);
    template.hasResourceProperties('AWS::IAM::Role', {
      ManagedPolicyArns: [{ 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs']] }],
    });
    expect(warnings).toEqual([]);
  });

  test('flag true: no role and no AWS::ApiGateway::Account; a warning says the logging stage needs the account\'s role', () => {
    const { template, warnings } = build(true);
    template.resourceCountIs('AWS::ApiGateway::Account', 0);
    template.resourceCountIs('AWS::IAM::Role', 1); // the function's role only
    expect(warnings.map((w) => w.entry.data)).toEqual([`${WARNING} [ack: cdk-vendor-outputs:api-gateway-account-role]`]);
    expect(warnings[0].id).toBe('/Backend/ItemsApi');
  });

  test('flag true and no logs: no warning', () => {
    const { template, warnings } = build(true, { accessLogging: false, deployOptions: { loggingLevel: apigw.MethodLoggingLevel.OFF } });
    template.resourceCountIs('AWS::ApiGateway::Account', 0);
    expect(warnings).toEqual([]);
  });

  test('flag true, execution logging off but an access log of your own: the warning too', () => {
    const { stack } = newStack('eu-west-1', { [FLAG]: true });
    const destination = new apigw.LogGroupLogDestination(new logs.LogGroup(stack, 'MyAccessLogs'));
    new RestItemsApi(stack, 'ItemsApi', { accessLogging: false, deployOptions: { loggingLevel: apigw.MethodLoggingLevel.OFF, accessLogDestination: destination } });
    expect(Annotations.fromStack(stack).findWarning('*', Match.anyValue()).map((w) => w.entry.data))
      .toEqual([`${WARNING} [ack: cdk-vendor-outputs:api-gateway-account-role]`]);
  });

  test('flag true, cloudWatchRole: true: the role is created, no warning', () => {
    const { template, warnings } = build(true, { cloudWatchRole: true });
    template.resourceCountIs('AWS::ApiGateway::Account', 1);
    expect(warnings).toEqual([]);
  });

  test('flag unset, cloudWatchRole: false: no role, no warning (the choice is explicit)', () => {
    const { template, warnings } = build(undefined, { cloudWatchRole: false });
    template.resourceCountIs('AWS::ApiGateway::Account', 0);
    expect(warnings).toEqual([]);
  });
});

describe('RestItemsApi deployOptions.stageName', () => {
  test('is refused, pointing to the stageName prop', () => {
    const { stack } = newStack();
    expect(() => new RestItemsApi(stack, 'ItemsApi', { deployOptions: { stageName: 'prod' } })).toThrow(
      /^Backend\/ItemsApi: deployOptions\.stageName is not used: set the stage name with the stageName prop \(got deployOptions\.stageName "prod"\)$/,
    );
  });

  test('is refused even when it equals stageName (one place for the stage name)', () => {
    const { stack } = newStack();
    expect(() => new RestItemsApi(stack, 'ItemsApi', { stageName: 'dev', deployOptions: { stageName: 'dev' } })).toThrow(
      /deployOptions\.stageName is not used: set the stage name with the stageName prop \(got deployOptions\.stageName "dev"\)/,
    );
  });
});
