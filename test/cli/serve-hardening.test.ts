/**
 * `serve` never dies from what a function or a client sends: response headers HTTP cannot carry
 * become API Gateway's 502, names that are `Object.prototype` members are ordinary names.
 */
import * as http from 'http';
import { Stack } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { Running, serve, synth } from './local/support';

/** A function whose response headers the request picks (`mode`), some of which HTTP cannot carry. */
const HEADERS_FUNCTION = `
exports.handler = async (e) => {
  const q = e.queryStringParameters || {};
  const answer = (extra) => ({ statusCode: 200, body: 'x', ...extra });
  switch (q.mode) {
    case 'crlf': return answer({ headers: { 'X-Bad': 'a\\r\\nSet-Cookie: x=1' } });
    case 'lf': return answer({ headers: { 'X-Bad': 'a\\nb' } });
    case 'euro': return answer({ headers: { 'X-Price': '5 \\u20ac' } });
    case 'latin1': return answer({ headers: { 'X-Latin': 'caf\\u00e9' } });
    case 'empty-name': return answer({ headers: { '': 'v' } });
    case 'bad-name': return answer({ headers: { 'a b': 'v' } });
    case 'multi-value': return answer({ multiValueHeaders: { 'X-Ok': ['a'], 'X-Multi': ['ok', 'b\\r'] } });
    case 'multi-name': return answer({ multiValueHeaders: { 'x:y': ['a'] } });
    case 'reflect': return answer({ headers: { 'X-Echo': q.v } });
    case 'proto': return answer({ headers: JSON.parse('{"__proto__":"p","constructor":"c","toString":"t"}'), multiValueHeaders: JSON.parse('{"hasOwnProperty":["h1","h2"]}') });
    default: {
      const own = (o) => (o === null ? null : Object.keys(o).sort());
      return { statusCode: 200, body: JSON.stringify({ headers: own(e.headers), query: own(e.queryStringParameters), multiQuery: own(e.multiValueQueryStringParameters), constructorHeader: Object.prototype.hasOwnProperty.call(e.headers, 'constructor') ? e.headers.constructor : null }) };
    }
  }
};`;

let running: Running;
let base: string;

beforeAll(async () => {
  const assembly = synth((stack: Stack) => {
    const fn = new lambda.Function(stack, 'Headers', {
      runtime: lambda.Runtime.NODEJS_20_X,
      handler: 'index.handler',
      code: lambda.Code.fromInline(HEADERS_FUNCTION),
    });
    const api = new apigw.RestApi(stack, 'Api', {
      deployOptions: { stageName: 'test' },
      defaultCorsPreflightOptions: { allowOrigins: ['http://localhost:5173', 'https://app.example'] },
    });
    api.root.addResource('items').addMethod('GET', new apigw.LambdaIntegration(fn));
    // A gateway response whose static header HTTP cannot carry: only the server's last guard sees it.
    api.addGatewayResponse('Unauthorized', { type: apigw.ResponseType.UNAUTHORIZED, responseHeaders: { 'X-Note': "'5 \u20ac'" } });
    api.root.addResource('cognito').addMethod('GET', new apigw.LambdaIntegration(fn), {
      authorizationType: apigw.AuthorizationType.CUSTOM,
      authorizer: new apigw.TokenAuthorizer(stack, 'Authorizer', { handler: fn }),
    });
    api.root.addResource('mock').addMethod('GET', new apigw.MockIntegration({
      requestTemplates: { 'application/json': '{"statusCode": 200}' },
      integrationResponses: [{ statusCode: '200', responseParameters: { 'method.response.header.X-Echo': 'method.request.header.X-Source' } }],
    }), { methodResponses: [{ statusCode: '200', responseParameters: { 'method.response.header.X-Echo': true } }] });
  }, { stackName: 'Hardening' });
  running = await serve(assembly);
  base = running.url.replace(/\/$/, '');
});

afterAll(async () => {
  await running?.close();
});

/** A raw request with node:http: headers and path exactly as given. */
interface RawResponse {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly rawHeaders: string[];
  readonly body: string;
}

function raw(method: string, path: string, headers: Array<[string, string]> = []): Promise<RawResponse> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const all: Array<[string, string]> = [['Host', url.host], ...headers];
    const req = http.request({ host: url.hostname, port: url.port, method, path: `${url.pathname}${path}`, headers: all.flat() }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => { body += d; });
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, rawHeaders: res.rawHeaders, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('response headers HTTP cannot carry: 502, a log line naming the header, the server keeps serving', () => {
  test.each([
    ['crlf', 'header "X-Bad" has a value HTTP cannot carry'],
    ['lf', 'header "X-Bad" has a value HTTP cannot carry'],
    ['euro', 'header "X-Price" has a value HTTP cannot carry'],
    ['empty-name', 'header name "" is not a valid HTTP header name'],
    ['bad-name', 'header name "a b" is not a valid HTTP header name'],
    ['multi-value', 'header "X-Multi" has a value HTTP cannot carry'],
    ['multi-name', 'header name "x:y" is not a valid HTTP header name'],
    ['reflect&v=%E2%82%AC', 'header "X-Echo" has a value HTTP cannot carry'],
  ])('mode=%s', async (mode, problem) => {
    const response = await raw('GET', `/items?mode=${mode}`);
    expect(response.status).toBe(502);
    expect(response.body).toBe('{"message":"Internal server error"}');
    expect(response.headers['x-amzn-errortype']).toBe('InternalServerErrorException');
    const id = response.headers['x-amzn-requestid'];
    const note = running.lines.find((l) => l.startsWith(`${id} GATEWAY `));
    expect(note).toMatch(/^\S+ GATEWAY Hardening-Headers[0-9A-F]{8}: malformed Lambda proxy response: /);
    expect(note).toContain(problem);
    expect((await raw('GET', '/items')).status).toBe(200);
  });

  test('a value with Latin-1 characters is sent (Node writes it as UTF-8 with the body)', async () => {
    const response = await fetch(`${base}/items?mode=latin1`);
    expect(response.status).toBe(200);
    expect(Buffer.from(response.headers.get('x-latin')!, 'latin1').toString('utf8')).toBe('café');
  });

  test('a MOCK response parameter mapped from a request header goes out as sent', async () => {
    const response = await raw('GET', '/mock', [['X-Source', 'from-client']]);
    expect([response.status, response.headers['x-echo']]).toEqual([200, 'from-client']);
  });
});

describe('names that are Object.prototype members are ordinary names', () => {
  const names = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];
  const query = names.map((n, i) => `${n}=${i}`).join('&');
  const headers = names.map((n): [string, string] => [n, `h-${n}`]);

  test('as query and header names of a Lambda proxy request: 200, each an own key of the event', async () => {
    const response = await raw('GET', `/items?${query}`, headers);
    expect(response.status).toBe(200);
    const event = JSON.parse(response.body);
    expect(event.query).toEqual([...names].sort());
    expect(event.multiQuery).toEqual([...names].sort());
    expect(event.headers).toEqual(expect.arrayContaining(names));
    expect(event.constructorHeader).toBe('h-constructor');
  });

  test('on a CORS preflight (OPTIONS, MOCK): 204 with the allowed origin', async () => {
    const response = await raw('OPTIONS', `/items?${query}`, [...headers, ['Origin', 'https://app.example'], ['Content-Type', 'constructor']]);
    expect(response.status).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe('https://app.example');
  });

  test('on a MOCK method with Content-Type "constructor" or "__proto__"', async () => {
    for (const type of ['constructor', '__proto__', 'toString']) {
      expect((await raw('GET', `/mock?${query}`, [['Content-Type', type]])).status).toBe(200);
    }
  });

  test('as response header names of a function', async () => {
    const response = await raw('GET', '/items?mode=proto');
    expect(response.status).toBe(200);
    expect(response.headers).toMatchObject({ constructor: 'c', tostring: 't', hasownproperty: 'h1, h2' });
    expect(response.rawHeaders.slice(0, 2)).toEqual(['__proto__', 'p']);
  });
});

test('a response the server cannot send (a gateway response header outside Latin-1) is answered 502, and the server keeps serving', async () => {
  const response = await raw('GET', '/cognito');
  expect([response.status, response.body]).toEqual([502, '{"message":"Internal server error"}']);
  const id = response.headers['x-amzn-requestid'];
  expect(running.lines).toContainEqual(`${id} GATEWAY the response could not be sent as HTTP (header "X-Note" has a value HTTP cannot carry ("5 \u20ac": CR, LF, other control characters and characters outside Latin-1 are not allowed)); answered 502`);
  expect((await raw('GET', '/items')).status).toBe(200);
});
