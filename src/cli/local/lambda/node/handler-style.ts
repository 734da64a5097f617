/**
 * Which handler signatures a Node.js runtime accepts. Up to `nodejs22.x` a handler may finish
 * through its callback or `context.succeed/fail/done`; from `nodejs24.x` Lambda's runtime refuses
 * a handler that declares a callback (`Runtime.CallbackHandlerDeprecated`, at init) and takes the
 * handler's return value (awaited) as the result.
 */
import { nodeMajorOf } from './node-binaries';

/** The handler rules of a runtime. */
export interface HandlerStyle {
  /** Whether handlers may finish through the callback (and a non-promise return value is ignored). */
  readonly callbacks: boolean;
}

/** The first Node.js major whose Lambda runtime has no callback handlers. */
const FIRST_MAJOR_WITHOUT_CALLBACKS = 24;

/** The rules of `nodejsNN.x` (anything else that runs here follows the older rules). */
export function handlerStyleOf(runtime: string): HandlerStyle {
  const major = nodeMajorOf(runtime);
  return { callbacks: major === undefined || major < FIRST_MAJOR_WITHOUT_CALLBACKS };
}

/** What Lambda's Node.js 24 runtime says at init about a handler that declares a callback. */
export const CALLBACK_HANDLER_REMOVED = 'ERROR: AWS Lambda has removed support for callback-based function handlers starting with Node.js 24. '
  + 'You need to modify this function to use a supported handler signature to use Node.js 24 or later. '
  + 'For more information see https://docs.aws.amazon.com/lambda/latest/dg/nodejs-handler.html.';
