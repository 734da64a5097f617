import { lambdaContext } from '../../../../../src/cli/local/lambda/node/lambda-context';
import type { FunctionContext } from '../../../../../src/cli/local/lambda/runtime-family';

const FN: FunctionContext = {
  functionName: 'Stack-Items',
  functionVersion: '$LATEST',
  invokedFunctionArn: 'arn:aws:lambda:us-east-1:123456789012:function:Stack-Items',
  memoryLimitInMB: '128',
  logGroupName: '/aws/lambda/Stack-Items',
  logStreamName: '2026/11/26/[$LATEST]abc',
};

describe('lambdaContext', () => {
  test('has the function fields, the request id and the remaining time, as own properties', () => {
    const context = lambdaContext(FN, 'req-1', Date.now() + 3000);
    expect(JSON.parse(JSON.stringify(context))).toEqual({ ...FN, awsRequestId: 'req-1', callbackWaitsForEmptyEventLoop: true });
    const remaining = (context.getRemainingTimeInMillis as () => number)();
    expect(remaining).toBeGreaterThan(2900);
    expect(remaining).toBeLessThanOrEqual(3000);
  });

  test('never gives a negative remaining time', () => {
    const context = lambdaContext(FN, 'req-1', Date.now() - 50);
    expect((context.getRemainingTimeInMillis as () => number)()).toBe(0);
  });

  test('without settle (Node.js 24) has no done, succeed or fail', () => {
    const context = lambdaContext(FN, 'req-1', Date.now());
    expect(context).not.toHaveProperty('done');
    expect(context).not.toHaveProperty('succeed');
    expect(context).not.toHaveProperty('fail');
  });

  test('with settle, done, succeed and fail end the invocation as the runtime does', () => {
    const calls: unknown[][] = [];
    const context = lambdaContext(FN, 'req-1', Date.now(), (error, value) => calls.push([error, value])) as Record<string, (...args: unknown[]) => void>;
    context.done(new Error('boom'));
    context.done(null, 'v1');
    context.succeed('v2');
    context.fail(new Error('bad'));
    context.fail(undefined);
    // Detached calls work as well (the functions are own closures, not methods).
    const { succeed } = context;
    succeed('v3');
    expect(calls).toEqual([[new Error('boom'), undefined], [null, 'v1'], [null, 'v2'], [new Error('bad'), undefined], ['handled', undefined], [null, 'v3']]);
  });

  test('every invocation gets an object of its own', () => {
    const first = lambdaContext(FN, 'a', 0);
    const second = lambdaContext(FN, 'b', 0);
    first.callbackWaitsForEmptyEventLoop = false;
    expect(second.callbackWaitsForEmptyEventLoop).toBe(true);
    expect(second.awsRequestId).toBe('b');
  });
});
