/**
 * `serve` runs `python3.x` functions (the Python runtime family): a real synthesized app with
 * `lambda.Function` on python3.11 and python3.12, asset and inline code, behind a Lambda proxy
 * integration, a non-proxy (AWS) integration and a TOKEN authorizer, called with real curl.
 */
import { execFileSync, spawnSync } from 'child_process';
import * as path from 'path';
import { Duration, Stack } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { curl, FIXTURES, parseCurlResponse, serve, Running, synth, UUID } from './local/support';
import { functionRuntime } from '../../src/cli/local/lambda/function-runtime';
import { pythonFor } from '../../src/cli/local/lambda/python/python-interpreter';
import { readLocalApp } from '../../src/cli/local/read-local-app';

const INTERNAL = '{"message":"Internal server error"}';
const PYTHON_FIXTURES = path.join(FIXTURES, 'python');

function buildApp(stack: Stack): void {
  const appCode = lambda.Code.fromAsset(path.join(PYTHON_FIXTURES, 'app'));
  const proxyFn = new lambda.Function(stack, 'Proxy', {
    runtime: lambda.Runtime.PYTHON_3_11, handler: 'app.proxy', code: appCode, timeout: Duration.seconds(2), memorySize: 128,
  });
  const plainFn = new lambda.Function(stack, 'Plain', { runtime: lambda.Runtime.PYTHON_3_11, handler: 'app.plain', code: appCode });
  const authFn = new lambda.Function(stack, 'Auth', { runtime: lambda.Runtime.PYTHON_3_11, handler: 'app.authorize', code: appCode });
  const inlineFn = new lambda.Function(stack, 'Inline', {
    runtime: lambda.Runtime.PYTHON_3_12,
    handler: 'index.handler',
    code: lambda.Code.fromInline('import sys\n\ndef handler(event, context):\n    return {"statusCode": 200, "body": "inline " + context.function_name + " " + __file__}\n'),
  });
  const brokenFn = new lambda.Function(stack, 'Broken', {
    runtime: lambda.Runtime.PYTHON_3_11, handler: 'index.handler', code: lambda.Code.fromAsset(path.join(PYTHON_FIXTURES, 'import-error')),
  });
  const missingFn = new lambda.Function(stack, 'Missing', { runtime: lambda.Runtime.PYTHON_3_11, handler: 'app.nope', code: appCode });
  const syntaxFn = new lambda.Function(stack, 'Syntax', {
    runtime: lambda.Runtime.PYTHON_3_11, handler: 'index.handler', code: lambda.Code.fromInline('def handler(event, context)\n    return 1\n'),
  });
  const exitsFn = new lambda.Function(stack, 'Exits', {
    runtime: lambda.Runtime.PYTHON_3_11, handler: 'index.handler', code: lambda.Code.fromInline('import sys\nsys.exit(3)\n'),
  });
  const api = new apigw.RestApi(stack, 'Api', { deployOptions: { stageName: 'test' } });
  api.root.addResource('exits').addMethod('GET', new apigw.LambdaIntegration(exitsFn));
  api.root.addResource('py').addMethod('GET', new apigw.LambdaIntegration(proxyFn));
  const concurrentFn = new lambda.Function(stack, 'Concurrent', { runtime: lambda.Runtime.PYTHON_3_11, handler: 'app.proxy', code: appCode, timeout: Duration.seconds(5) });
  api.root.addResource('concurrent').addMethod('GET', new apigw.LambdaIntegration(concurrentFn));
  api.root.addResource('inline').addMethod('GET', new apigw.LambdaIntegration(inlineFn));
  api.root.addResource('broken').addMethod('GET', new apigw.LambdaIntegration(brokenFn));
  api.root.addResource('missing').addMethod('GET', new apigw.LambdaIntegration(missingFn));
  api.root.addResource('syntax').addMethod('GET', new apigw.LambdaIntegration(syntaxFn));
  api.root.addResource('plain').addMethod('GET', new apigw.LambdaIntegration(plainFn, {
    proxy: false,
    requestTemplates: { 'application/json': '{"name": "$input.params(\'name\')", "fail": "$input.params(\'fail\')"}' },
    integrationResponses: [
      { statusCode: '200' },
      { statusCode: '400', selectionPattern: 'Bad Request.*', responseTemplates: { 'application/json': '{"error": "$input.path(\'$.errorMessage\')", "type": "$input.path(\'$.errorType\')"}' } },
    ],
  }), { methodResponses: [{ statusCode: '200' }, { statusCode: '400' }] });
  const authorizer = new apigw.TokenAuthorizer(stack, 'Authorizer', { handler: authFn, resultsCacheTtl: Duration.seconds(0) });
  api.root.addResource('secure').addMethod('GET', new apigw.LambdaIntegration(proxyFn), { authorizer });
  const requestAuthorizer = new apigw.RequestAuthorizer(stack, 'RequestAuthorizer', {
    handler: authFn, identitySources: [apigw.IdentitySource.header('x-token')], resultsCacheTtl: Duration.seconds(0),
  });
  api.root.addResource('by-request').addMethod('GET', new apigw.LambdaIntegration(proxyFn), { authorizer: requestAuthorizer });
}

let assembly: string;
let running: Running;
let base: string;

beforeAll(async () => {
  assembly = synth(buildApp, { stackName: 'PythonApp' });
  running = await serve(assembly, { quiet: true });
  base = running.url.replace(/\/$/, '');
}, 60_000);

afterAll(async () => {
  await running?.close();
});

async function get(pathAndQuery: string, headers: string[] = []): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const result = await curl(['-i', ...headers.flatMap((h) => ['-H', h]), `${base}${pathAndQuery}`]);
  return parseCurlResponse(result.stdout);
}

/** Lines the server printed for a request id. */
function linesOf(requestId: string): string[] {
  return running.lines.filter((l) => l.startsWith(`${requestId} `));
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

describe('Lambda proxy integration', () => {
  test('an asset function answers through the proxy integration, on python3.11 (or this machine\'s python3)', async () => {
    const response = await get('/py');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain');
    expect(response.body).toMatch(new RegExp(`^hello from python ${pythonFor('python3.11')!.version.replace('.', '\\.')}\\.\\d+$`));
  });

  test('the context object and the variables the runtime defines; vendored packages import from the code folder', async () => {
    const response = await get('/py?mode=context');
    expect(response.status).toBe(200);
    const body = JSON.parse(response.body);
    const requestId = response.headers['x-amzn-requestid'];
    expect(body.aws_request_id).toBe(requestId);
    expect(body.aws_request_id).toMatch(UUID);
    expect(body.function_name).toMatch(/^PythonApp-Proxy/);
    expect(body.function_version).toBe('$LATEST');
    expect(body.invoked_function_arn).toBe(`arn:aws:lambda:us-east-1:123456789012:function:${body.function_name}`);
    expect(body.memory_limit_in_mb).toBe('128');
    expect(body.log_group_name).toBe(`/aws/lambda/${body.function_name}`);
    expect(body.log_stream_name).toMatch(/^\d{4}\/\d{2}\/\d{2}\/\[\$LATEST\][0-9a-f]{32}$/);
    expect(body.remaining).toBeGreaterThan(1000);
    expect(body.remaining).toBeLessThanOrEqual(2000);
    expect(body.identity).toBeNull();
    expect(body.client_context).toBeNull();
    expect(body.env.AWS_EXECUTION_ENV).toBe('AWS_Lambda_python3.11');
    expect(body.env.LAMBDA_TASK_ROOT).toBe(body.sys_path0);
    expect(body.cwd).toBe(body.env.LAMBDA_TASK_ROOT);
    expect(body.env.LAMBDA_RUNTIME_DIR).toMatch(/static[/\\]python-runtime$/);
    expect(body.env.PYTHONPATH.split(path.delimiter)[0]).toBe(body.env.LAMBDA_RUNTIME_DIR);
    expect(body.greeting).toBe('vendored hello');
  });

  test('boto3 imports from what this machine\'s Python has (no .venv in the app folder)', async () => {
    const response = await get('/py?mode=boto3');
    expect(response.status).toBe(200);
    const expected = execFileSync('python3', ['-c', 'import boto3; print(boto3.__file__)'], { encoding: 'utf8' }).trim();
    expect(JSON.parse(response.body).file).toBe(expected);
  });

  test('inline code runs as index.py (python3.12)', async () => {
    const response = await get('/inline');
    expect(response.status).toBe(200);
    expect(response.body).toMatch(/^inline PythonApp-Inline\S+ \S+[/\\]index\.py$/);
  });

  test('print(), logging and stderr lines reach the terminal tagged with the request id', async () => {
    const response = await get('/py?mode=log');
    expect(response.body).toBe('logged');
    await settle();
    const id = response.headers['x-amzn-requestid'];
    expect(linesOf(id)).toEqual(expect.arrayContaining([
      `${id} INFO printed line log`,
      `${id} INFO logged info 42`,
      `${id} WARNING logged warning`,
      `${id} ERROR stderr line`,
    ]));
  });

  test('an exception: 502, and the runtime\'s error with its traceback in the terminal', async () => {
    const response = await get('/py?mode=raise');
    expect([response.status, response.body]).toEqual([502, INTERNAL]);
    await settle();
    const lines = linesOf(response.headers['x-amzn-requestid']).join('\n');
    expect(lines).toContain('ERROR [ERROR] ValueError: bad input: raise');
    expect(lines).toContain('ERROR Traceback (most recent call last):');
    expect(lines).toMatch(/ERROR {3}File ".*app\.py", line \d+, in proxy/);
    expect(lines).not.toContain('bootstrap.py');
  });

  test('a result that is not JSON: Runtime.MarshalError', async () => {
    const response = await get('/py?mode=unserializable');
    expect(response.status).toBe(502);
    await settle();
    expect(linesOf(response.headers['x-amzn-requestid']).join('\n')).toContain('Runtime.MarshalError: Unable to marshal response: Object of type set is not JSON serializable');
  });

  test.each([
    ['/broken', 'Runtime.ImportModuleError: Unable to import module \'index\': No module named \'not_a_real_package\''],
    ['/missing', 'Runtime.HandlerNotFound: Handler \'nope\' missing on module \'app\''],
    ['/syntax', 'Runtime.UserCodeSyntaxError: Syntax error in module \'index\': expected \':\' (index.py, line 1)'],
  ])('%s fails at init: 502, the terminal names the error', async (route, error) => {
    const response = await get(route);
    expect([response.status, response.body]).toEqual([502, INTERNAL]);
    await settle();
    expect(linesOf(response.headers['x-amzn-requestid'])).toContain(`${response.headers['x-amzn-requestid']} ERROR init failed: ${error}`);
  });

  test('a module that exits while it loads: 502 with the exit status (Runtime.ExitError), each time', async () => {
    for (let i = 0; i < 2; i++) {
      const response = await get('/exits');
      expect([response.status, response.body]).toEqual([502, INTERNAL]);
      await settle();
      expect(linesOf(response.headers['x-amzn-requestid'])).toContain(
        `${response.headers['x-amzn-requestid']} ERROR Runtime exited with error: exit status 3; the execution environment is replaced`);
    }
  });

  test('a function past its timeout: the environment is stopped, the next request is answered', async () => {
    const response = await get('/py?mode=sleep&s=5');
    expect([response.status, response.body]).toEqual([502, INTERNAL]);
    await settle();
    expect(running.lines.join('\n')).toContain('Task timed out after 2.00 seconds');
    expect((await get('/py')).status).toBe(200);
  }, 20_000);

  test.each([['one 300 MB bytearray', 'bytes'], ['a gradual leak', 'leak'], ['a 300 MB string', 'string'], ['200 MB freed before returning', 'transient']])(
    '%s past MemorySize: 502, Runtime.OutOfMemory, the next request is answered', async (_, kind) => {
      const response = await get(`/py?mode=memory&kind=${kind}`);
      expect([response.status, response.body]).toEqual([502, INTERNAL]);
      await settle();
      expect(linesOf(response.headers['x-amzn-requestid']).join('\n')).toContain('Runtime.OutOfMemory: the function used more than its MemorySize of 128 MB');
      expect((await get('/py')).status).toBe(200);
    }, 20_000);

  test('40 threads fit in a MemorySize of 128 (their stacks are reserved, not used)', async () => {
    expect((await get('/py?mode=threads')).body).toBe('40');
  });

  test('32 MB under a MemorySize of 128 is fine', async () => {
    expect((await get('/py?mode=small')).body).toBe(String(32 * 1024 * 1024));
  });

  test('a timeout ends the environment with the processes it started', async () => {
    const response = await get('/py?mode=spawn-then-hang');
    expect(response.status).toBe(502);
    await settle();
    const line = linesOf(response.headers['x-amzn-requestid']).find((l) => / INFO child \d+$/.test(l));
    const pid = Number(/child (\d+)$/.exec(line ?? '')?.[1]);
    expect(pid).toBeGreaterThan(0);
    expect(alive(pid)).toBe(false);
  }, 20_000);

  test('a process the handler started ends with its environment when serve closes', async () => {
    const response = await get('/py?mode=spawn');
    const pid = Number(response.body);
    expect(pid).toBeGreaterThan(0);
    expect(alive(pid)).toBe(true);
    await running.close();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(alive(pid)).toBe(false);
    running = await serve(assembly, { quiet: true });
    base = running.url.replace(/\/$/, '');
  }, 20_000);
});

function alive(pid: number): boolean {
  const state = spawnSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' }).stdout.trim();
  return state !== '' && !state.startsWith('Z');
}

describe('non-proxy (AWS) integration', () => {
  test('the mapping template\'s output is the event; the result is the response', async () => {
    const response = await get('/plain?name=ada');
    expect(response.status).toBe(200);
    const body = JSON.parse(response.body);
    expect(body.echo).toEqual({ name: 'ada', fail: '' });
    expect(body.request).toMatch(UUID);
  });

  test('an exception\'s errorMessage selects the integration response; errorType is the class name', async () => {
    const response = await get('/plain?fail=nope');
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toEqual({ error: 'Bad Request: nope', type: 'Exception' });
  });
});

describe('TOKEN authorizer', () => {
  test('Allow: the request reaches the function', async () => {
    const response = await get('/secure', ['Authorization: allow']);
    expect(response.status).toBe(200);
  });

  test('Deny: 403', async () => {
    const response = await get('/secure', ['Authorization: deny']);
    expect(response.status).toBe(403);
    expect(response.body).toContain('not authorized');
  });

  test('raise Exception("Unauthorized"): 401', async () => {
    const response = await get('/secure', ['Authorization: boom']);
    expect(response.status).toBe(401);
  });
});

describe('REQUEST authorizer', () => {
  test('Allow and Deny by a header', async () => {
    expect((await get('/by-request', ['x-token: allow'])).status).toBe(200);
    expect((await get('/by-request', ['x-token: deny'])).status).toBe(403);
  });
});

describe('concurrency', () => {
  // (A function whose invocations were all quick lets requests wait inside its warm environments:
  // the pool's rule, the same for every family.)
  test('a slow request does not hold a quick one to the same function: each gets an environment of its own', async () => {
    const started = Date.now();
    const slow = get('/concurrent?mode=sleep&s=1.5');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const quick = await get('/concurrent');
    const quickMs = Date.now() - started;
    expect(quick.status).toBe(200);
    expect((await slow).body).toBe('slept');
    expect(quickMs).toBeLessThan(1200);
  }, 20_000);
});

describe('load', () => {
  test('200 concurrent requests to a Python function are all answered', async () => {
    const responses = await Promise.all(Array.from({ length: 200 }, () => fetch(`${base}/py`).then(async (r) => [r.status, await r.text()])));
    expect(responses.filter(([status]) => status !== 200)).toEqual([]);
  }, 60_000);
});

describe('reload', () => {
  test('new inline code is served after a reload; the old environments end', async () => {
    const before = await get('/inline');
    expect(before.body).toMatch(/^inline /);
    const next = synth((stack) => {
      const fn = new lambda.Function(stack, 'Inline', {
        runtime: lambda.Runtime.PYTHON_3_12,
        handler: 'index.handler',
        code: lambda.Code.fromInline('def handler(event, context):\n    return {"statusCode": 200, "body": "reloaded"}\n'),
      });
      const api = new apigw.RestApi(stack, 'Api', { deployOptions: { stageName: 'test' } });
      api.root.addResource('inline').addMethod('GET', new apigw.LambdaIntegration(fn));
    }, { stackName: 'PythonApp' });
    await running.server.reload(readLocalApp(next));
    expect((await get('/inline')).body).toBe('reloaded');
  }, 30_000);
});

describe('start-up notices', () => {
  test('python3.12 without a working python3.12 runs on the host python3, with a warning and a listing note', () => {
    const app = readLocalApp(assembly);
    const runtime = functionRuntime(app, undefined, assembly);
    const has312 = spawnSync('python3.12', ['-c', 'pass']).status === 0;
    const inline = [...app.functions.values()].find((fn) => fn.runtime === 'python3.12')!;
    if (has312) {
      expect(runtime.notes.get(inline.key)).toBeUndefined();
    } else {
      const host = execFileSync('python3', ['-c', 'import sys; print("%d.%d" % sys.version_info[:2])'], { encoding: 'utf8' }).trim();
      expect(runtime.warnings).toContain(`PythonApp/Inline: runtime python3.12 runs on this machine's Python ${host} (no working python3.12 on PATH); what differs between Python 3.12 and ${host} differs here`);
      expect(runtime.notes.get(inline.key)).toBe(`python3.12 on Python ${host}`);
    }
  });
});
