import { RestConfigError, toRestConfig, withRestConfig } from '../../src/client';

const base = { version: '1' };

test('the spec\'s flat shape with vendor_region', () => {
  const outputs = {
    ...base,
    custom: {
      api_id: 'a1b2c3',
      api_endpoint: 'https://a1b2c3.execute-api.eu-west-1.amazonaws.com/dev/',
      api_name: 'items',
      api_stage: 'dev',
      vendor_region: 'eu-west-1',
    },
  };
  expect(toRestConfig(outputs)).toEqual({
    items: { endpoint: 'https://a1b2c3.execute-api.eu-west-1.amazonaws.com/dev/', region: 'eu-west-1' },
  });
});

test('several APIs under custom.<outputsKey>, next to a flat one and unrelated custom values', () => {
  const outputs = {
    ...base,
    custom: {
      api_id: 'flat1',
      api_endpoint: 'https://flat1.execute-api.us-east-1.amazonaws.com/prod/',
      api_name: 'main',
      vendor_region: 'us-east-1',
      orders: { api_id: 'o1', api_endpoint: 'https://o1.execute-api.eu-central-1.amazonaws.com/dev/', api_name: 'orders', api_stage: 'dev', vendor_region: 'eu-central-1' },
      users: { api_id: 'u1', api_endpoint: 'https://u1.execute-api.ap-south-1.amazonaws.com/v1/', api_name: 'users', api_stage: 'v1', vendor_region: 'ap-south-1' },
      feature_flags: { beta: true },
      note: 'hello',
    },
  };
  expect(toRestConfig(outputs)).toEqual({
    main: { endpoint: 'https://flat1.execute-api.us-east-1.amazonaws.com/prod/', region: 'us-east-1' },
    orders: { endpoint: 'https://o1.execute-api.eu-central-1.amazonaws.com/dev/', region: 'eu-central-1' },
    users: { endpoint: 'https://u1.execute-api.ap-south-1.amazonaws.com/v1/', region: 'ap-south-1' },
  });
});

describe('the minimal flat shape (api_id, api_endpoint, api_name only)', () => {
  test('takes the region from an execute-api endpoint', () => {
    const outputs = { ...base, custom: { api_id: 'x', api_endpoint: 'https://x.execute-api.ca-central-1.amazonaws.com/dev', api_name: 'items' } };
    expect(toRestConfig(outputs, { defaultRegion: 'us-east-1' }).items.region).toBe('ca-central-1');
  });

  test('takes the region from a China execute-api endpoint', () => {
    const outputs = { ...base, custom: { api_endpoint: 'https://x.execute-api.cn-north-1.amazonaws.com.cn/dev/', api_name: 'items' } };
    expect(toRestConfig(outputs).items.region).toBe('cn-north-1');
  });

  test('falls back to defaultRegion for a custom domain', () => {
    const outputs = { ...base, custom: { api_id: 'x', api_endpoint: 'https://api.example.com/', api_name: 'items' } };
    expect(toRestConfig(outputs, { defaultRegion: 'eu-west-3' })).toEqual({ items: { endpoint: 'https://api.example.com/', region: 'eu-west-3' } });
  });

  test('without defaultRegion, a custom domain is an error', () => {
    const outputs = { ...base, custom: { api_id: 'x', api_endpoint: 'https://api.example.com/', api_name: 'items' } };
    expect(() => toRestConfig(outputs)).toThrow(RestConfigError);
    expect(() => toRestConfig(outputs)).toThrow("custom has no vendor_region and its api_endpoint https://api.example.com/ names no region; pass { defaultRegion: '<region>' }");
  });
});

test('a file without custom, or without APIs in custom, gives an empty section', () => {
  expect(toRestConfig(base)).toEqual({});
  expect(toRestConfig({ ...base, custom: { note: 'x', nested: { a: 1 } } })).toEqual({});
});

test('accepts the file as JSON text', () => {
  const text = JSON.stringify({ ...base, custom: { api_endpoint: 'https://x.execute-api.us-west-2.amazonaws.com/dev/', api_name: 'items' } });
  expect(toRestConfig(text)).toEqual({ items: { endpoint: 'https://x.execute-api.us-west-2.amazonaws.com/dev/', region: 'us-west-2' } });
});

test.each([
  ['not an object', 42, 'expected the parsed vendor_outputs.json object (got number 42)'],
  ['null', null, 'expected the parsed vendor_outputs.json object (got null)'],
  ['an array', [], 'expected the parsed vendor_outputs.json object (got an array)'],
  ['invalid JSON text', '{ nope', 'vendor_outputs.json is not valid JSON'],
  ['custom not an object', { custom: 'x' }, 'custom must be an object (got "x")'],
  ['a flat entry without api_name', { custom: { api_id: 'x', api_endpoint: 'https://x.execute-api.us-east-1.amazonaws.com/dev/' } },
    'custom.api_name is missing: a REST API entry needs api_name and api_endpoint (found keys: api_id, api_endpoint)'],
  ['a keyed entry without api_endpoint', { custom: { orders: { api_name: 'orders' } } },
    'custom.orders.api_endpoint is missing: a REST API entry needs api_name and api_endpoint (found keys: api_name)'],
  ['an empty api_name', { custom: { api_name: ' ', api_endpoint: 'https://x.execute-api.us-east-1.amazonaws.com/' } }, 'custom.api_name must be a non-empty string (got " ")'],
  ['a non-string api_endpoint', { custom: { orders: { api_name: 'o', api_endpoint: 5 } } }, 'custom.orders.api_endpoint must be a non-empty string (got number 5)'],
  ['an endpoint that is not a URL', { custom: { api_name: 'o', api_endpoint: 'x.execute-api.us-east-1.amazonaws.com' } },
    'custom.api_endpoint must be an http(s) URL (got "x.execute-api.us-east-1.amazonaws.com")'],
  ['an empty vendor_region', { custom: { api_name: 'o', api_endpoint: 'https://a/', vendor_region: '' } }, 'custom.vendor_region must be a non-empty string (got "")'],
  ['two APIs with the same name', {
    custom: {
      a: { api_name: 'items', api_endpoint: 'https://a.execute-api.us-east-1.amazonaws.com/dev/' },
      b: { api_name: 'items', api_endpoint: 'https://b.execute-api.us-east-1.amazonaws.com/dev/' },
    },
  }, "two REST APIs are named 'items' (custom.a.api_name and custom.b.api_name); the REST section is keyed by api_name, so each API needs its own"],
])('%s is a clear error', (_, outputs, message) => {
  expect(() => toRestConfig(outputs)).toThrow(RestConfigError);
  expect(() => toRestConfig(outputs)).toThrow(message);
});

test('withRestConfig merges the section into API.REST of a parsed configuration, keeping what is there', () => {
  const parsed = { Auth: { Cognito: { userPoolId: 'p' } }, API: { GraphQL: { endpoint: 'g' }, REST: { legacy: { endpoint: 'https://old/', region: 'us-east-1' } } } };
  const outputs = { ...base, custom: { api_name: 'items', api_endpoint: 'https://x.execute-api.eu-west-1.amazonaws.com/dev/' } };
  const merged = withRestConfig(parsed, outputs);
  expect(merged).toEqual({
    Auth: { Cognito: { userPoolId: 'p' } },
    API: {
      GraphQL: { endpoint: 'g' },
      REST: {
        legacy: { endpoint: 'https://old/', region: 'us-east-1' },
        items: { endpoint: 'https://x.execute-api.eu-west-1.amazonaws.com/dev/', region: 'eu-west-1' },
      },
    },
  });
  expect(parsed.API.REST).toEqual({ legacy: { endpoint: 'https://old/', region: 'us-east-1' } });
  expect(withRestConfig({}, outputs).API.REST.items.region).toBe('eu-west-1');
});
