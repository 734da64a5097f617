/**
 * The parts of API keys and usage plans on their own: the template reader (on a stack built with
 * aws-cdk-lib), the token bucket, the quota periods, and the `--api-key` values.
 */
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import { synth } from './support';
import { LocalApiError } from '../../../src/cli/local/common/local-api-error';
import { ApiSpec, UsageSpec } from '../../../src/cli/local/model/rest-api';
import { readLocalApp } from '../../../src/cli/local/read-local-app';
import { apiKeyLines, parseApiKeyValue, withApiKeyValues } from '../../../src/cli/local/rest/api-key-values';
import { periodStart, QuotaCounter } from '../../../src/cli/local/rest/pipeline/quota-counter';
import { TokenBucket } from '../../../src/cli/local/rest/pipeline/token-bucket';
import { localKeyValue } from '../../../src/cli/local/rest/reader/usage-plan-reader';

describe('the usage plan reader', () => {
  let apis: readonly ApiSpec[];
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
    apis = app.apis;
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
    const app = { assemblyDir: '', stacks: [], apis, functions: new Map(), warnings: [] };
    const value = 'chosen-value-0123456789abc';
    const changed = withApiKeyValues(app, [{ name: 'UsageStack/Made', value }]);
    expect(changed.apis.find((a) => a.name === 'Api')!.usage!.keys.find((k) => k.constructPath === 'UsageStack/Made')).toMatchObject({ value, valueSource: 'option' });
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

describe('--api-key NAME=VALUE', () => {
  test.each([
    ['k=' + 'a'.repeat(20), 20],
    ['k=' + 'a'.repeat(128), 128],
    ['path/to/Key=with=equals-0123456789', 22],
  ])('%s is taken', (text, length) => {
    const parsed = parseApiKeyValue(text);
    expect(parsed.value).toHaveLength(length);
    expect(text).toBe(`${parsed.name}=${parsed.value}`);
  });

  test.each([
    ['k=' + 'a'.repeat(19), /^--api-key k: the value must be 20 to 128 printable characters without spaces, as API Gateway requires \(got 19 characters\)$/],
    ['k=' + 'a'.repeat(129), /\(got 129 characters\)$/],
    ['k=has a space 0123456789abcdef', /the value must be 20 to 128 printable characters without spaces/],
    ['=' + 'a'.repeat(20), /^--api-key must be NAME=VALUE, NAME being the key's Name, logical id or construct path \(got '=a+'\)$/],
    ['no-equals', /^--api-key must be NAME=VALUE/],
  ])('%s is a usage error', (text, message) => {
    expect(() => parseApiKeyValue(text)).toThrow(LocalApiError);
    expect(thrownBy(() => parseApiKeyValue(text))).toMatchObject({ kind: 'usage' });
    expect(() => parseApiKeyValue(text)).toThrow(message);
  });
});

describe('the token bucket', () => {
  test.each([[0, 0], [1, 1], [3, 3]])('a burst of %i lets %i requests through at once', (burstLimit, passed) => {
    const bucket = new TokenBucket({ rateLimit: 1, burstLimit }, 0);
    const results = Array.from({ length: burstLimit + 2 }, () => bucket.take(0));
    expect(results.filter(Boolean)).toHaveLength(passed);
    expect(results.slice(0, passed).every(Boolean)).toBe(true);
  });

  test('tokens come back at the rate, never above the burst', () => {
    const bucket = new TokenBucket({ rateLimit: 2, burstLimit: 2 }, 0);
    expect([bucket.take(0), bucket.take(0), bucket.take(0)]).toEqual([true, true, false]);
    expect(bucket.take(499)).toBe(false);
    expect(bucket.take(500)).toBe(true);
    expect([bucket.take(60_000), bucket.take(60_000), bucket.take(60_000)]).toEqual([true, true, false]);
  });
});

describe('quotas', () => {
  const at = (iso: string) => Date.parse(iso);

  test.each([
    ['DAY', '2026-11-25T23:59:59.999Z', '2026-11-25T00:00:00.000Z'],
    ['WEEK', '2026-11-25T12:00:00.000Z', '2026-11-22T00:00:00.000Z'],
    ['WEEK', '2026-11-22T00:00:00.000Z', '2026-11-22T00:00:00.000Z'],
    ['WEEK', '2026-11-21T23:59:59.999Z', '2026-11-15T00:00:00.000Z'],
    ['MONTH', '2026-12-31T23:00:00.000Z', '2026-12-01T00:00:00.000Z'],
  ] as const)('a %s period holding %s starts at %s (UTC; weeks from Sunday)', (period, time, start) => {
    expect(new Date(periodStart(period, at(time))).toISOString()).toBe(start);
  });

  test('the limit per period, Offset fewer in the initial period, counted again in the next', () => {
    const counter = new QuotaCounter({ limit: 3, period: 'DAY', offset: 1 }, at('2026-11-25T10:00:00Z'));
    const day1 = [0, 1, 2].map(() => counter.take(at('2026-11-25T23:59:59Z')));
    expect(day1).toEqual([true, true, false]);
    const day2 = [0, 1, 2, 3].map(() => counter.take(at('2026-11-26T00:00:00Z')));
    expect(day2).toEqual([true, true, true, false]);
  });
});

/** What `run` throws (it must throw). */
function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}
