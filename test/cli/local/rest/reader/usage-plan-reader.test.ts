/**
 * API keys and usage plans as read from a template (on a stack built with aws-cdk-lib), with the
 * start-up lines and the `--api-key` values applied to them.
 */
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import { RestApiSpec, restApi, UsageSpec } from '../../../../../src/cli/local/model/rest-api';
import { readLocalApp } from '../../../../../src/cli/local/read-local-app';
import { apiKeyLines, withApiKeyValues } from '../../../../../src/cli/local/rest/api-key-values';
import { localKeyValue } from '../../../../../src/cli/local/rest/reader/usage-plan-reader';
import { synth } from '../../support';

describe('the usage plan reader', () => {
  let apis: readonly RestApiSpec[];
  let warnings: readonly string[];

  beforeAll(() => {
    const dir = synth((stack) => {
      const api = new apigw.RestApi(stack, 'Api', {
        apiKeySourceType: apigw.ApiKeySourceType.AUTHORIZER,
        deployOptions: { stageName: 'prod', throttlingRateLimit: 100, methodOptions: { '/items/GET': { throttlingBurstLimit: 2 } } },
      });
      const get = api.root.addResource('items').addMethod('GET', new apigw.MockIntegration(), { apiKeyRequired: true });
      const plan = api.addUsagePlan('Plan', { name: 'Gold', throttle: { rateLimit: 5, burstLimit: 3 }, quota: { limit: 10, period: apigw.Period.WEEK, offset: 1 } });
      plan.addApiStage({ stage: api.deploymentStage, throttle: [{ method: get, throttle: { burstLimit: 1, rateLimit: 1 } }] });
      const beta = new apigw.Stage(stack, 'Beta', { deployment: new apigw.Deployment(stack, 'BetaDeployment', { api }), stageName: 'beta' });
      plan.addApiStage({ stage: beta });
      plan.addApiKey(api.addApiKey('Literal', { apiKeyName: 'literal', value: 'literal-key-0123456789abc' }));
      plan.addApiKey(new apigw.ApiKey(stack, 'Made', { enabled: false }));
      plan.addApiKey(new apigw.ApiKey(stack, 'Short', { value: 'only-nineteen-chars' }));
      plan.addApiKey(new apigw.ApiKey(stack, 'Twenty', { value: 'exactly-twenty-chars' }));
      const plain = new apigw.RestApi(stack, 'Plain', { deployOptions: { stageName: 'prod' } });
      plain.root.addMethod('GET', new apigw.MockIntegration());
      const unplanned = new apigw.RestApi(stack, 'Unplanned', { deployOptions: { stageName: 'dev' } });
      unplanned.root.addResource('orders').addMethod('POST', new apigw.MockIntegration(), { apiKeyRequired: true });
    }, { stackName: 'UsageStack' });
    const app = readLocalApp(dir);
    apis = app.apis.map(restApi);
    warnings = app.warnings;
  });

  const usageOf = (name: string): UsageSpec | undefined => apis.find((a) => a.name === name)!.usage;

  test('an API with neither usage plans nor throttling has no usage (its requests pay nothing)', () => {
    expect(usageOf('Plain')).toBeUndefined();
  });

  test('the key source, the plan with both stages (Refs to the Stage resources resolved), its throttles and quota', () => {
    const usage = usageOf('Api')!;
    expect(usage.keySource).toBe('AUTHORIZER');
    expect(usage.plans).toHaveLength(1);
    const [plan] = usage.plans;
    expect(plan.name).toBe('Gold');
    expect(Object.keys(plan.stages).sort()).toEqual(['beta', 'prod']);
    expect(plan.stages.prod).toEqual({ '/items GET': { burstLimit: 1, rateLimit: 1 } });
    expect(plan.stages.beta).toEqual({});
    expect(plan.throttle).toEqual({ rateLimit: 5, burstLimit: 3 });
    expect(plan.quota).toEqual({ limit: 10, period: 'WEEK', offset: 1 });
  });

  test('keys: a literal value as written; no value: a local value from the stack and logical id; Enabled false', () => {
    const keys = usageOf('Api')!.keys;
    const literal = keys.find((k) => k.name === 'literal')!;
    expect(literal).toMatchObject({ value: 'literal-key-0123456789abc', valueSource: 'template', enabled: true, constructPath: 'UsageStack/Api/Literal' });
    const made = keys.find((k) => k.constructPath === 'UsageStack/Made')!;
    expect(made).toMatchObject({ name: made.logicalId, valueSource: 'local', enabled: false, value: localKeyValue('UsageStack', made.logicalId) });
  });

  test.each([[19, true], [20, false]])('a template Value of %i characters is announced: %s (API Gateway takes 20 to 128)', (length, warned) => {
    const key = usageOf('Api')!.keys.find((k) => k.value.length === length)!;
    const announced = warnings.filter((w) => w.startsWith(`UsageStack/${key.logicalId}: `));
    expect(announced).toEqual(warned
      ? [`UsageStack/${key.logicalId}: API key ${key.name} has a Value of ${length} characters; API Gateway takes 20 to 128, so the deploy will fail (it works locally)`]
      : []);
  });

  test('stage throttling: the stage-wide entry fills what a method entry leaves unset, the account limits the rest', () => {
    expect(usageOf('Api')!.stageThrottles).toEqual({
      prod: [
        { resourcePath: '/*', httpMethod: '*', rateLimit: 100, burstLimit: 5000 },
        { resourcePath: '/items', httpMethod: 'GET', rateLimit: 100, burstLimit: 2 },
      ],
    });
  });

  test('the start-up lines: keys with a local value, and stages where a method needs a key no plan can give', () => {
    const made = usageOf('Api')!.keys.find((k) => k.constructPath === 'UsageStack/Made')!;
    expect(apiKeyLines(apis)).toEqual([
      'API keys without a value in the template (send one in x-api-key; set it with --api-key NAME=VALUE):',
      `  UsageStack/Made: ${made.value} (disabled)`,
      'Unplanned: no usage plan gives stage(s) dev API keys, so its methods that require one (POST /orders) refuse every request there with 403, as they do once deployed',
    ]);
  });

  test('a local key value is stable and differs per key and per stack', () => {
    expect(localKeyValue('S', 'Key')).toBe(localKeyValue('S', 'Key'));
    expect(localKeyValue('S', 'Key')).not.toBe(localKeyValue('S', 'Other'));
    expect(localKeyValue('S', 'Key')).not.toBe(localKeyValue('T', 'Key'));
  });

  test('--api-key values replace a key\'s value everywhere; a name shared by several keys is refused', () => {
    const app = { assemblyDir: '', stacks: [], apis, functions: new Map(), warnings: [], unserved: [] };
    const value = 'chosen-value-0123456789abc';
    const changed = withApiKeyValues(app, [{ name: 'UsageStack/Made', value }]);
    expect(restApi(changed.apis.find((a) => a.name === 'Api')!).usage!.keys.find((k) => k.constructPath === 'UsageStack/Made')).toMatchObject({ value, valueSource: 'option' });
    expect(apis.find((a) => a.name === 'Api')!.usage!.keys.find((k) => k.constructPath === 'UsageStack/Made')!.valueSource).toBe('local');
    expect(() => withApiKeyValues(app, [{ name: 'UsageStack/Made', value: 'literal-key-0123456789abc' }]))
      .toThrow(/^--api-key UsageStack\/Made: the value is already the value of API key literal \(UsageStack\/Api\/Literal\); key values must be unique$/);
    expect(() => withApiKeyValues(app, [{ name: 'UsageStack/Made', value }, { name: 'literal', value }]))
      .toThrow(/^--api-key UsageStack\/Made: the value is already the value of API key literal \(UsageStack\/Api\/Literal\); key values must be unique$/);
    const twin = { ...apis[0], name: 'Twin', usage: { ...apis[0].usage!, keys: apis[0].usage!.keys.map((k) => ({ ...k, stackName: 'Other', constructPath: `Other/${k.logicalId}` })) } };
    expect(() => withApiKeyValues({ ...app, apis: [apis[0], twin] }, [{ name: 'literal', value }]))
      .toThrow(/^--api-key literal: several API keys are named so \(literal \(UsageStack\/Api\/Literal\), literal \(Other\/ApiLiteral[0-9A-F]+\)\); name one by its logical id or construct path$/);
  });
});
