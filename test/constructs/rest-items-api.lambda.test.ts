import { ALLOW_ORIGINS_ENV, handler, ItemsProxyEvent } from '../../src/constructs/rest-items-api.lambda';

/** A REST (v1 payload) proxy event as API Gateway sends it. */
interface EventOptions {
  readonly query?: Record<string, string>;
  readonly body?: string;
  readonly headers?: Record<string, string>;
  readonly base64?: boolean;
}

function event(method: string, path: string, options: EventOptions = {}): ItemsProxyEvent & Record<string, unknown> {
  const proxy = path.startsWith('/items/') ? path.slice('/items/'.length) : undefined;
  const headers = options.headers ?? {};
  return {
    resource: proxy === undefined ? '/items' : '/items/{proxy+}',
    path,
    httpMethod: method,
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]])),
    queryStringParameters: options.query ?? null,
    multiValueQueryStringParameters: options.query ? Object.fromEntries(Object.entries(options.query).map(([k, v]) => [k, [v]])) : null,
    pathParameters: proxy === undefined ? null : { proxy },
    stageVariables: null,
    requestContext: { stage: 'dev', path: `/dev${path}`, httpMethod: method, resourcePath: proxy === undefined ? '/items' : '/items/{proxy+}', requestId: 'req-1' },
    body: options.body ?? null,
    isBase64Encoded: options.base64 ?? false,
  };
}

const CORS = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Headers': '*', 'Content-Type': 'application/json' };

afterEach(() => {
  delete process.env[ALLOW_ORIGINS_ENV];
});

describe('GET /items', () => {
  test('returns 200, the CORS headers of the spec and a JSON-encoded string body', async () => {
    const result = await handler(event('GET', '/items'));
    expect(result.statusCode).toBe(200);
    expect(result.headers).toEqual(CORS);
    expect(typeof result.body).toBe('string');
    const body = JSON.parse(result.body);
    expect(body.count).toBe(10);
    expect(body.items[0]).toEqual({ id: '1', name: 'Item 1' });
  });

  test.each([1, 5, 100])('limit=%d returns that many items', async (limit) => {
    const result = await handler(event('GET', '/items', { query: { limit: String(limit) } }));
    expect(result.statusCode).toBe(200);
    const body = JSON.parse(result.body);
    expect(body.items).toHaveLength(limit);
    expect(body.count).toBe(limit);
    expect(body.items[limit - 1]).toEqual({ id: String(limit), name: `Item ${limit}` });
  });

  test.each(['0', '101', 'abc', '-1', '2.5', '1e2'])('limit=%s is a 400 with a clear message', async (limit) => {
    const result = await handler(event('GET', '/items', { query: { limit } }));
    expect(result.statusCode).toBe(400);
    expect(result.headers).toEqual(CORS);
    expect(JSON.parse(result.body)).toEqual({ message: `limit must be an integer from 1 to 100 (got ${JSON.stringify(limit)})` });
  });
});

describe('POST /items', () => {
  test('echoes the created item with a new id, 201', async () => {
    const result = await handler(event('POST', '/items', { body: JSON.stringify({ name: 'apple', color: 'red' }), headers: { 'Content-Type': 'application/json' } }));
    expect(result.statusCode).toBe(201);
    expect(result.headers).toEqual(CORS);
    const { item } = JSON.parse(result.body);
    expect(item).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: 'apple', color: 'red' });
  });

  test('reads a base64-encoded body', async () => {
    const result = await handler(event('POST', '/items', { body: Buffer.from('{"name":"pear"}').toString('base64'), base64: true }));
    expect(result.statusCode).toBe(201);
    expect(JSON.parse(result.body).item.name).toBe('pear');
  });

  test.each([
    ['no body', undefined, 'the request body must be JSON (got "")'],
    ['not JSON', 'name=apple', 'the request body must be JSON (got "name=apple")'],
    ['a JSON array', '[1]', 'the request body must be a JSON object (got [1])'],
    ['no name', '{}', 'POST /items needs a JSON object with a non-empty string "name" (got nothing)'],
    ['an empty name', '{"name":""}', 'POST /items needs a JSON object with a non-empty string "name" (got "")'],
    ['a numeric name', '{"name":3}', 'POST /items needs a JSON object with a non-empty string "name" (got 3)'],
  ])('%s is a 400', async (_, body, message) => {
    const result = await handler(event('POST', '/items', { body }));
    expect(result.statusCode).toBe(400);
    expect(JSON.parse(result.body)).toEqual({ message });
  });
});

describe('PUT and DELETE /items', () => {
  test('PUT replaces the collection and echoes it', async () => {
    const result = await handler(event('PUT', '/items', { body: JSON.stringify({ items: [{ name: 'a' }, { id: 'x', name: 'b' }] }) }));
    expect(result.statusCode).toBe(200);
    expect(JSON.parse(result.body)).toEqual({ items: [{ id: '1', name: 'a' }, { id: 'x', name: 'b' }], count: 2 });
  });

  test('PUT without an items list is a 400', async () => {
    const result = await handler(event('PUT', '/items', { body: '{"name":"a"}' }));
    expect(result.statusCode).toBe(400);
    expect(JSON.parse(result.body).message).toBe('PUT /items needs a JSON object {"items": [{"name": "..."}, ...]} (replaces the whole collection)');
  });

  test('DELETE empties the collection', async () => {
    const result = await handler(event('DELETE', '/items'));
    expect(result.statusCode).toBe(200);
    expect(JSON.parse(result.body)).toEqual({ deleted: 'all', count: 0 });
  });

  test('PATCH on the collection is a 405 with Allow', async () => {
    const result = await handler(event('PATCH', '/items'));
    expect(result.statusCode).toBe(405);
    expect(result.headers.Allow).toBe('GET, POST, PUT, DELETE, OPTIONS');
    expect(JSON.parse(result.body).message).toBe('PATCH is not allowed on /items; allowed: GET, POST, PUT, DELETE, OPTIONS');
  });
});

describe('/items/{proxy+} (ANY)', () => {
  test('GET /items/<id> returns the item', async () => {
    const result = await handler(event('GET', '/items/42'));
    expect(result.statusCode).toBe(200);
    expect(result.headers).toEqual(CORS);
    expect(JSON.parse(result.body)).toEqual({ item: { id: '42', name: 'Item 42' } });
  });

  test('GET /items/object/<id> keeps the whole path as the id', async () => {
    const result = await handler(event('GET', '/items/object/7'));
    expect(JSON.parse(result.body)).toEqual({ item: { id: 'object/7', name: 'Item object/7' } });
  });

  test('the id arrives percent-encoded, as REST APIs pass path parameters, and is decoded', async () => {
    const result = await handler(event('GET', '/items/a%20b%2Fc'));
    expect(JSON.parse(result.body)).toEqual({ item: { id: 'a b/c', name: 'Item a b/c' } });
    const malformed = await handler(event('GET', '/items/100%zz'));
    expect(JSON.parse(malformed.body)).toEqual({ item: { id: '100%zz', name: 'Item 100%zz' } });
  });

  test('GET /items/ (empty proxy) is the collection', async () => {
    const result = await handler(event('GET', '/items/', { query: { limit: '2' } }));
    expect(JSON.parse(result.body).count).toBe(2);
  });

  test('PUT /items/<id> replaces the item', async () => {
    const result = await handler(event('PUT', '/items/9', { body: '{"name":"nine","id":"ignored"}' }));
    expect(result.statusCode).toBe(200);
    expect(JSON.parse(result.body)).toEqual({ item: { id: '9', name: 'nine' } });
  });

  test('PUT /items/<id> without a name is a 400', async () => {
    const result = await handler(event('PUT', '/items/9', { body: '{}' }));
    expect(result.statusCode).toBe(400);
    expect(JSON.parse(result.body).message).toBe('PUT /items/9 needs a JSON object with a non-empty string "name" (got nothing)');
  });

  test('PATCH /items/<id> merges into the item', async () => {
    const result = await handler(event('PATCH', '/items/3', { body: '{"color":"blue"}' }));
    expect(JSON.parse(result.body)).toEqual({ item: { id: '3', name: 'Item 3', color: 'blue' } });
  });

  test('DELETE /items/<id> names the deleted item', async () => {
    const result = await handler(event('DELETE', '/items/3'));
    expect(JSON.parse(result.body)).toEqual({ deleted: '3' });
  });

  test('HEAD /items/<id> is 200 with no body', async () => {
    const result = await handler(event('HEAD', '/items/3'));
    expect(result).toEqual({ statusCode: 200, headers: CORS, body: '' });
  });

  test('OPTIONS reaching the function is a 204 with the CORS headers', async () => {
    expect(await handler(event('OPTIONS', '/items/3'))).toEqual({ statusCode: 204, headers: CORS, body: '' });
    expect(await handler(event('OPTIONS', '/items'))).toEqual({ statusCode: 204, headers: CORS, body: '' });
  });

  test('POST /items/<id> is a 405', async () => {
    const result = await handler(event('POST', '/items/3', { body: '{}' }));
    expect(result.statusCode).toBe(405);
    expect(JSON.parse(result.body).message).toBe('POST is not allowed on /items/3; allowed: GET, HEAD, PUT, PATCH, DELETE, OPTIONS');
  });
});

describe('other paths and origins', () => {
  test('a path outside /items is a 404', async () => {
    const result = await handler({ httpMethod: 'GET', resource: '/other', path: '/other' });
    expect(result.statusCode).toBe(404);
    expect(JSON.parse(result.body).message).toBe('No route for GET /other; this API serves /items and /items/{proxy+}');
  });

  test('restricted origins: an allowed origin is echoed, another gets the first allowed one', async () => {
    process.env[ALLOW_ORIGINS_ENV] = '["https://app.example.com","http://localhost:5173"]';
    const allowed = await handler(event('GET', '/items', { headers: { origin: 'http://localhost:5173' } }));
    expect(allowed.headers['Access-Control-Allow-Origin']).toBe('http://localhost:5173');
    expect(allowed.headers.Vary).toBe('Origin');
    const other = await handler(event('GET', '/items', { headers: { Origin: 'https://evil.example.com' } }));
    expect(other.headers['Access-Control-Allow-Origin']).toBe('https://app.example.com');
  });

  test('["*"] or a malformed list means any origin', async () => {
    process.env[ALLOW_ORIGINS_ENV] = '["*"]';
    expect((await handler(event('GET', '/items'))).headers['Access-Control-Allow-Origin']).toBe('*');
    process.env[ALLOW_ORIGINS_ENV] = 'not json';
    expect((await handler(event('GET', '/items'))).headers['Access-Control-Allow-Origin']).toBe('*');
  });
});

describe('bundled asset', () => {
  test('assets/constructs/rest-items-api.lambda/index.js (the function RestItemsApi deploys by default) answers like the source', async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const bundled = require('../../assets/constructs/rest-items-api.lambda/index.js');
    const result = await bundled.handler(event('GET', '/items', { query: { limit: '5' } }));
    expect(result.statusCode).toBe(200);
    expect(result.headers).toEqual(CORS);
    expect(JSON.parse(result.body).items).toHaveLength(5);
  });
});
