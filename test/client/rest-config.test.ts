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

// Issue 23: a file without APIs used to give {} without a word, so a hand-written
// custom: { rest_api_url } reached the client library as no API at all.
const EXPECTED = 'vendor_outputs.json describes no API: expected an API entry in custom: an object with api_name and api_endpoint (the invoke URL including the stage), '
  + 'and api_kind (rest, http or function_url) and vendor_region, at custom.<key> (as VendorOutputs.addRestApi, addHttpApi, addFunctionUrl and RestItemsApi with outputsKey write it) '
  + 'or flat in custom (as RestItemsApi without outputsKey writes it)';

test.each([
  ['no custom section', base, `${EXPECTED}; the file has no custom section. Pass { allowNoApis: true } when a backend may have none.`],
  ['an empty custom', { ...base, custom: {} }, `${EXPECTED}; custom has no keys. Pass { allowNoApis: true } when a backend may have none.`],
  ['custom without APIs', { ...base, custom: { note: 'x', nested: { a: 1 } } },
    `${EXPECTED}; custom has the keys note, nested. Pass { allowNoApis: true } when a backend may have none.`],
  ['a hand-written URL', { ...base, custom: { rest_api_url: 'https://x.execute-api.eu-west-1.amazonaws.com/dev/', orders: { url: 'http://127.0.0.1:3000/' } } },
    `${EXPECTED}; custom has the keys rest_api_url, orders; custom.rest_api_url, custom.orders.url look like an API URL but are not in an entry. Pass { allowNoApis: true } when a backend may have none.`],
  ['one hand-written URL', { ...base, custom: { rest_api_url: 'https://api.example.com/' } },
    `${EXPECTED}; custom has the keys rest_api_url; custom.rest_api_url looks like an API URL but is not in an entry. Pass { allowNoApis: true } when a backend may have none.`],
])('a file without API entries (%s) is an error that says what an entry looks like', (_, outputs, message) => {
  expect(() => toRestConfig(outputs)).toThrow(RestConfigError);
  expect(() => toRestConfig(outputs)).toThrow(message);
  expect(() => withRestConfig({}, outputs)).toThrow(message);
});

test('a custom with more than ten keys names the first ten', () => {
  const custom = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`k${i}`, i]));
  expect(() => toRestConfig({ ...base, custom })).toThrow('custom has the keys k0, k1, k2, k3, k4, k5, k6, k7, k8, k9 and 2 more.');
});

test('allowNoApis: a file without API entries gives an empty section', () => {
  expect(toRestConfig(base, { allowNoApis: true })).toEqual({});
  expect(toRestConfig({ ...base, custom: { note: 'x', nested: { a: 1 } } }, { allowNoApis: true })).toEqual({});
  expect(withRestConfig({ API: { REST: { kept: { endpoint: 'https://k/', region: 'us-east-1' } } } }, base, { allowNoApis: true }).API.REST)
    .toEqual({ kept: { endpoint: 'https://k/', region: 'us-east-1' } });
  // allowNoApis does not hide a malformed entry.
  expect(() => toRestConfig({ ...base, custom: { orders: { api_name: 'orders' } } }, { allowNoApis: true })).toThrow('custom.orders.api_endpoint is missing');
});

test('entries of every kind the API calls write are read: rest, http, and none (files written before api_kind)', () => {
  const outputs = {
    ...base,
    custom: {
      api_id: 'r1',
      api_endpoint: 'https://r1.execute-api.eu-west-1.amazonaws.com/dev/',
      api_name: 'items',
      api_stage: 'dev',
      vendor_region: 'eu-west-1',
      api_kind: 'rest',
      chat: { api_id: 'h1', api_endpoint: 'https://h1.execute-api.eu-west-1.amazonaws.com/', api_name: 'chat', api_stage: '$default', vendor_region: 'eu-west-1', api_kind: 'http' },
      admin: { api_id: 'h2', api_endpoint: 'https://h2.execute-api.us-east-2.amazonaws.com/v2/', api_name: 'admin', api_stage: 'v2', vendor_region: 'us-east-2', api_kind: 'http' },
      legacy: { api_endpoint: 'https://l1.execute-api.ap-south-1.amazonaws.com/prod/', api_name: 'legacy' },
    },
  };
  expect(toRestConfig(outputs)).toEqual({
    items: { endpoint: 'https://r1.execute-api.eu-west-1.amazonaws.com/dev/', region: 'eu-west-1' },
    chat: { endpoint: 'https://h1.execute-api.eu-west-1.amazonaws.com/', region: 'eu-west-1' },
    admin: { endpoint: 'https://h2.execute-api.us-east-2.amazonaws.com/v2/', region: 'us-east-2' },
    legacy: { endpoint: 'https://l1.execute-api.ap-south-1.amazonaws.com/prod/', region: 'ap-south-1' },
  });
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
  ['only a WebSocket API, which the REST section leaves out', { custom: { ws: { api_name: 'ws', api_endpoint: 'wss://x/', api_kind: 'websocket' } } },
    `${EXPECTED}; custom has the keys ws; custom.ws is a WebSocket API (api_kind websocket), which the REST section leaves out. Pass { allowNoApis: true } when a backend may have none.`],
  ['an endpoint pending until deploy', { custom: { chat: { api_name: 'chat', api_endpoint: "<pending: Outputs.V[6] after deploy; run 'vendor-outputs generate'>", api_kind: 'http' } } },
    "custom.chat.api_endpoint is known only after deploy (<pending: Outputs.V[6] after deploy; run 'vendor-outputs generate'>): build the file from the deployed stack "
    + "('vendor-outputs generate'), or serve the API locally ('vendor-outputs sandbox', with --from-stack or --outputs-file for an API it does not serve)"],
  ['an unknown api_kind', { custom: { gql: { api_name: 'gql', api_endpoint: 'https://x.appsync-api.us-east-1.amazonaws.com/graphql', api_kind: 'graphql' } } },
    'custom.gql.api_kind must be one of rest, http, function_url, websocket (got "graphql"); the REST section holds the APIs called with a method and a path (rest, http, function_url)'],
  ['a non-string api_kind', { custom: { api_name: 'x', api_endpoint: 'https://x.execute-api.us-east-1.amazonaws.com/', api_kind: 1 } },
    'custom.api_kind must be one of rest, http, function_url, websocket (got number 1)'],
  ['an entry with only api_kind', { custom: { chat: { api_kind: 'http' } } },
    'custom.chat.api_name is missing: a REST API entry needs api_name and api_endpoint (found keys: api_kind)'],
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

test('a function URL is in the REST section, a WebSocket API is left out', () => {
  const outputs = {
    ...base,
    custom: {
      chat: { api_name: 'chat', api_endpoint: 'wss://w1.execute-api.eu-west-1.amazonaws.com/prod/', api_kind: 'websocket', vendor_region: 'eu-west-1', api_id: 'w1', api_stage: 'prod' },
      stream: { api_name: 'stream', api_endpoint: 'https://abc123.lambda-url.eu-west-1.on.aws/', api_kind: 'function_url', vendor_region: 'eu-west-1' },
    },
  };
  expect(toRestConfig(outputs)).toEqual({ stream: { endpoint: 'https://abc123.lambda-url.eu-west-1.on.aws/', region: 'eu-west-1' } });
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
