/**
 * The items function bundled with the library (rest-items-api.lambda.ts, built by esbuild into
 * assets/). Internal: RestItemsApi creates it, users see it as `RestItemsApi.handler`.
 */
import * as path from 'path';
import { Token } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { ALLOW_ORIGINS_ENV } from './rest-items-api.lambda';

/**
 * The runtime when none is given: the newest Node.js runtime that aws-cdk-lib 2.189.1 (the
 * library's floor) names and that Lambda still lets you create (projected end of creation
 * 2027-06-01). `nodejs20.x` was deprecated on 2026-04-30; `nodejs24.x` is unknown to the floor.
 */
export const BUNDLED_FUNCTION_DEFAULT_RUNTIME = lambda.Runtime.NODEJS_22_X;

/** The oldest Node.js major the bundle runs on (esbuild's target in the bundle task). */
const OLDEST_NODE_MAJOR = 20;

/** Where the bundle task writes the function (relative to src/constructs and lib/constructs alike). */
const ASSET_DIR = path.join(__dirname, '..', '..', 'assets', 'constructs', 'rest-items-api.lambda');

/** Throws unless `runtime` can run the bundled JavaScript. */
export function checkBundledFunctionRuntime(constructPath: string, runtime: lambda.Runtime): void {
  if (Token.isUnresolved(runtime.name)) {
    return;
  }
  if (runtime.family !== lambda.RuntimeFamily.NODEJS) {
    throw new Error(`${constructPath}: runtime must be a Node.js runtime, because the bundled items function is JavaScript (got ${runtime.name}); `
      + 'to run other code, pass your own function as handler');
  }
  const major = /^nodejs(\d+)/.exec(runtime.name)?.[1];
  if (major !== undefined && Number(major) < OLDEST_NODE_MAJOR) {
    throw new Error(`${constructPath}: runtime ${runtime.name} is older than the bundled items function supports: `
      + `it is built for Node.js ${OLDEST_NODE_MAJOR} and newer, e.g. lambda.Runtime.NODEJS_22_X (the default)`);
  }
}

/** What the bundled function is configured with. */
export interface BundledFunctionOptions {
  readonly runtime: lambda.Runtime;
  /** Origins for the function's CORS headers. */
  readonly allowOrigins: string[];
}

/** Creates the bundled items function as `scope`'s child `id`. */
export function createBundledFunction(scope: Construct, id: string, options: BundledFunctionOptions): lambda.Function {
  return new lambda.Function(scope, id, {
    description: 'Items function of a RestItemsApi (cdk-vendor-outputs)',
    runtime: options.runtime,
    handler: 'index.handler',
    code: lambda.Code.fromAsset(ASSET_DIR),
    tracing: lambda.Tracing.ACTIVE,
    environment: { [ALLOW_ORIGINS_ENV]: JSON.stringify(options.allowOrigins) },
  });
}
