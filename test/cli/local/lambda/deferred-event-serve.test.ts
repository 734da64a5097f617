/**
 * The compiled server hands the Node.js runtime a deferred payload 1.0 event, built in the
 * function's process; the sources (under ts-jest) build it in the server. Both must give the
 * function the same event.
 */
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { readLocalApp } from '../../../../src/cli/local/read-local-app';
import { LocalApiServer } from '../../../../src/cli/local/server/server';
import { startCli, synth } from '../support';

let assembly: string;

beforeAll(() => {
  assembly = synth((stack) => {
    const echo = new lambda.Function(stack, 'Echo', {
      runtime: lambda.Runtime.NODEJS_20_X,
      handler: 'index.handler',
      code: lambda.Code.fromInline('exports.handler = async (event) => ({ statusCode: 200, body: JSON.stringify(event) });'),
    });
    const api = new apigw.RestApi(stack, 'Api', { deployOptions: { stageName: 'prod' } });
    api.root.addResource('echo').addResource('{id}').addMethod('POST', new apigw.LambdaIntegration(echo));
  }, { stackName: 'DeferredEvent' });
});

/** The event a POST to `<base>echo/42?a=1&a=2&b=x` with two custom headers gives the function, without what differs per request or per port. */
async function echoedEvent(base: string): Promise<Record<string, any>> {
  const response = await fetch(`${base}echo/42?a=1&a=2&b=x`, {
    method: 'POST',
    headers: { 'X-Custom': 'one', 'Content-Type': 'text/plain', 'User-Agent': 'deferred-event-test' },
    body: 'hello',
  });
  expect(response.status).toBe(200);
  const event = await response.json() as Record<string, any>;
  const context = event.requestContext;
  expect(context.requestTime).toMatch(/^\d{2}\/[A-Z][a-z]{2}\/\d{4}:\d{2}:\d{2}:\d{2} \+0000$/);
  for (const volatile of ['requestId', 'extendedRequestId', 'requestTime', 'requestTimeEpoch', 'domainName']) {
    delete context[volatile];
  }
  for (const volatile of ['Host', 'X-Amzn-Trace-Id', 'X-Forwarded-Port']) {
    delete event.headers[volatile];
    delete event.multiValueHeaders[volatile];
  }
  return event;
}

test('the function gets the same event from the compiled CLI (built in its process) and from the sources (built in the server)', async () => {
  const cli = startCli(['serve', '--app', assembly, '--port', '0', '--quiet']);
  let fromCompiled: Record<string, any>;
  try {
    await cli.waitFor('Press Ctrl+C to stop.');
    const base = /at (http:\/\/127\.0\.0\.1:\d+\/prod\/)/.exec(cli.stdout())![1];
    fromCompiled = await echoedEvent(base);
  } finally {
    cli.child.kill('SIGTERM');
    await cli.exited;
  }
  const server = await LocalApiServer.start(readLocalApp(assembly), { port: 0, print: () => undefined, quiet: true });
  let fromSources: Record<string, any>;
  try {
    fromSources = await echoedEvent(server.endpoints[0].urls[0]);
  } finally {
    await server.close();
  }
  expect(fromCompiled).toEqual(fromSources);
  expect(fromCompiled).toMatchObject({
    resource: '/echo/{id}',
    path: '/echo/42',
    httpMethod: 'POST',
    pathParameters: { id: '42' },
    queryStringParameters: { a: '2', b: 'x' },
    multiValueQueryStringParameters: { a: ['1', '2'], b: ['x'] },
    headers: { 'X-Custom': 'one', 'User-Agent': 'deferred-event-test' },
    multiValueHeaders: { 'X-Custom': ['one'] },
    body: 'hello',
    isBase64Encoded: false,
    requestContext: { stage: 'prod', resourcePath: '/echo/{id}', identity: { userAgent: 'deferred-event-test', sourceIp: '127.0.0.1' } },
  });
  // Recorded: the event of a request with a body carries no Content-Length, on either path.
  for (const event of [fromCompiled, fromSources]) {
    expect(Object.keys(event.headers).map((name) => name.toLowerCase())).not.toContain('content-length');
    expect(Object.keys(event.multiValueHeaders).map((name) => name.toLowerCase())).not.toContain('content-length');
  }
});
