/**
 * An HTTP API defined by an inline OpenAPI 3 document (`CfnApi` with `body`) on a real CDK stack,
 * served through the real server and curl: Lambda routes by function ARN (`Fn::GetAtt`) and by
 * invocation URI (`Fn::Sub`), an `http_proxy` route, a jwt authorizer, the document's CORS, and 404
 * off the routes.
 */
import * as fs from 'fs';
import * as http from 'http';
import { AddressInfo } from 'net';
import * as os from 'os';
import * as path from 'path';
import { Fn, Stack } from 'aws-cdk-lib';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import * as iam from 'aws-cdk-lib/aws-iam';
import { exportJWK, generateKeyPair, KeyLike, SignJWT } from 'jose';
import { curl, inlineFunction, parseCurlResponse, Running, serve, synth } from './local/support';
import { appTokenVerifier } from '../../src/cli/local/app-user-pools';
import { readLocalApp } from '../../src/cli/local/read-local-app';

const ECHO = 'exports.handler = async (event) => ({ statusCode: 200, headers: { "content-type": "application/json" }, body: JSON.stringify(event) });';

let backend: http.Server;
let backendUrl: string;
let running: Running;
let issuerKey: KeyLike;
let jwksDir: string;

beforeAll(async () => {
  backend = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ method: req.method, url: req.url }));
  });
  await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve));
  backendUrl = `http://127.0.0.1:${(backend.address() as AddressInfo).port}`;

  const assembly = synth((stack: Stack) => {
    const echo = inlineFunction(stack, 'Echo', ECHO);
    const body = {
      'openapi': '3.0.1',
      'info': { title: 'Oas', version: '1' },
      'x-amazon-apigateway-cors': { allowOrigins: ['http://localhost:5173'], allowMethods: ['GET'], allowHeaders: ['content-type'] },
      'components': {
        securitySchemes: { jwt: { 'type': 'oauth2', 'x-amazon-apigateway-authorizer': { type: 'jwt', identitySource: '$request.header.Authorization', jwtConfiguration: { issuer: 'https://issuer.example.com', audience: ['aud'] } } } },
      },
      'paths': {
        '/items/{id}': {
          get: { 'x-amazon-apigateway-integration': { type: 'aws_proxy', httpMethod: 'POST', uri: echo.functionArn, payloadFormatVersion: '2.0' } },
        },
        '/things': {
          'x-amazon-apigateway-any-method': {
            'x-amazon-apigateway-integration': {
              type: 'aws_proxy',
              httpMethod: 'POST',
              payloadFormatVersion: '2.0',
              uri: Fn.sub('arn:${AWS::Partition}:apigateway:${AWS::Region}:lambda:path/2015-03-31/functions/${Arn}/invocations', { Arn: echo.functionArn }),
            },
          },
        },
        '/secure': { get: { 'security': [{ jwt: [] }], 'x-amazon-apigateway-integration': { type: 'aws_proxy', uri: echo.functionArn, payloadFormatVersion: '2.0' } } },
        '/backend/{proxy+}': {
          get: { 'x-amazon-apigateway-integration': { type: 'http_proxy', httpMethod: 'GET', uri: `${backendUrl}/echo/{proxy}`, payloadFormatVersion: '1.0' } },
        },
      },
    };
    const api = new apigwv2.CfnApi(stack, 'Oas', { body });
    new apigwv2.CfnStage(stack, 'DefaultStage', { apiId: api.ref, stageName: '$default', autoDeploy: true });
    echo.addPermission('InvokeByApi', {
      principal: new iam.ServicePrincipal('apigateway.amazonaws.com'),
      sourceArn: stack.formatArn({ service: 'execute-api', resource: api.ref, resourceName: '*' }),
    });
  }, { stackName: 'HttpOpenApi' });
  // The issuer's keys, as `--jwks` gives them.
  const pair = await generateKeyPair('RS256', { extractable: true });
  issuerKey = pair.privateKey;
  jwksDir = fs.mkdtempSync(path.join(os.tmpdir(), 'oas-jwks-'));
  const jwksFile = path.join(jwksDir, 'jwks.json');
  fs.writeFileSync(jwksFile, JSON.stringify({ keys: [{ ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' }] }));
  running = await serve(assembly, { quiet: true, tokenVerifier: await appTokenVerifier(readLocalApp(assembly), jwksFile) });
});

afterAll(async () => {
  await running?.close();
  await new Promise((resolve) => backend?.close(resolve));
  fs.rmSync(jwksDir, { recursive: true, force: true });
});

async function call(target: string, args: string[] = []): Promise<ReturnType<typeof parseCurlResponse>> {
  const result = await curl(['-i', ...args, `${running.url.replace(/\/$/, '')}${target}`]);
  return parseCurlResponse(result.stdout);
}

test('a GET route to the function ARN answers with the 2.0 event: routeKey, path parameters, $default stage', async () => {
  const answer = await call('/items/42');
  expect(answer.status).toBe(200);
  const event = JSON.parse(answer.body);
  expect(event.version).toBe('2.0');
  expect(event.routeKey).toBe('GET /items/{id}');
  expect(event.pathParameters).toEqual({ id: '42' });
  expect(event.requestContext.stage).toBe('$default');
});

test('the any-method route to the invocation URI (Fn::Sub) takes any method', async () => {
  const answer = await call('/things', ['-X', 'DELETE']);
  expect(answer.status).toBe(200);
  const event = JSON.parse(answer.body);
  expect(event.routeKey).toBe('ANY /things');
  expect(event.requestContext.http.method).toBe('DELETE');
});

test('the http_proxy route forwards to its URL with the greedy variable filled in', async () => {
  const answer = await call('/backend/a/b');
  expect(answer.status).toBe(200);
  expect(JSON.parse(answer.body)).toEqual({ method: 'GET', url: '/echo/a/b' });
});

test('the document\'s x-amazon-apigateway-cors answers a preflight', async () => {
  const answer = await call('/items/1', ['-X', 'OPTIONS', '-H', 'origin: http://localhost:5173', '-H', 'access-control-request-method: GET']);
  expect(answer.status).toBe(204);
  expect(answer.headers['access-control-allow-origin']).toBe('http://localhost:5173');
});

test('a route the document protects with a jwt authorizer answers 401 {"message":"Unauthorized"} without a token, or with one no key signed', async () => {
  expect(await call('/secure')).toMatchObject({ status: 401, body: '{"message":"Unauthorized"}' });
  expect(await call('/secure', ['-H', 'authorization: Bearer a.b.c'])).toMatchObject({ status: 401, body: '{"message":"Unauthorized"}' });
});

test('a token of the jwt authorizer\'s issuer and audience passes; its claims reach requestContext.authorizer.jwt', async () => {
  const now = Math.floor(Date.now() / 1000);
  const token = await new SignJWT({ sub: 'partner-1', iss: 'https://issuer.example.com', aud: 'aud', iat: now, exp: now + 600 })
    .setProtectedHeader({ alg: 'RS256', kid: 'k1' }).sign(issuerKey);
  const answer = await call('/secure', ['-H', `authorization: Bearer ${token}`]);
  expect(answer.status).toBe(200);
  const event = JSON.parse(answer.body);
  expect(event.routeKey).toBe('GET /secure');
  expect(event.requestContext.authorizer.jwt.claims).toMatchObject({ sub: 'partner-1', aud: 'aud' });
});

test('a path no route of the document matches answers 404 {"message":"Not Found"}; so does another method on a GET route', async () => {
  const unknown = await call('/nowhere');
  expect(unknown).toMatchObject({ status: 404, body: '{"message":"Not Found"}' });
  const wrongMethod = await call('/items/1', ['-X', 'POST']);
  expect(wrongMethod).toMatchObject({ status: 404, body: '{"message":"Not Found"}' });
});

test('the API is listed once, its $default stage (a Stage resource) served at the root', () => {
  expect(running.server.endpoints).toHaveLength(1);
  expect(running.server.endpoints[0].urls).toEqual([expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/$/)]);
});
