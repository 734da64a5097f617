/**
 * Loading a Node.js handler (`FILE.EXPORT`) and calling it the way Lambda's Node.js runtime of
 * the function does: async handlers, callback handlers and the legacy `context.done/succeed/fail`
 * up to Node.js 22, async handlers only from Node.js 24 (handler-style.ts).
 */
import * as fs from 'fs';
import * as path from 'path';
import { pathToFileURL } from 'url';
import { InvocationHandles } from './event-loop-drain';
import { CALLBACK_HANDLER_REMOVED, HandlerStyle } from './handler-style';
import type { Settle } from './lambda-context';
import { isStreamingHandler } from './response-stream';
import type { ErrorReport } from '../runtime-family';

export type Handler = (event: unknown, context: Record<string, unknown>, callback: (error?: unknown, value?: unknown) => void) => unknown;

export function describeError(error: unknown): ErrorReport {
  if (error instanceof Error) {
    return { errorType: error.name || 'Error', errorMessage: error.message, trace: String(error.stack ?? '').split('\n') };
  }
  return { errorType: typeof error, errorMessage: String(error), trace: [] };
}

function runtimeError(name: string, message: string): Error {
  const error = new Error(message);
  error.name = name;
  return error;
}

/** How an environment evaluates a CommonJS file (its own modules, scoped-modules.ts), or Node's `require`. */
export type RequireFile = (file: string) => unknown;

/** The file of a handler `FILE.EXPORT` in `directory` (`.js`, `.mjs`, `.cjs`), or undefined. */
export function handlerFile(directory: string, spec: string): string | undefined {
  const slash = spec.lastIndexOf('/');
  const dot = spec.indexOf('.', slash + 1);
  if (dot < 0) {
    return undefined;
  }
  const moduleBase = path.resolve(directory, spec.slice(0, dot));
  return ['.js', '.mjs', '.cjs'].map((ext) => moduleBase + ext).find((f) => fs.existsSync(f));
}

/** Loads `directory/FILE.(js|mjs|cjs)` and returns its `EXPORT` (dots walk nested exports). */
export async function loadHandler(directory: string, spec: string, requireFile: RequireFile = require): Promise<Handler> {
  const slash = spec.lastIndexOf('/');
  const dot = spec.indexOf('.', slash + 1);
  if (dot < 0) {
    throw runtimeError('Runtime.MalformedHandlerName', `Bad handler ${spec}: expected FILE.EXPORT`);
  }
  const file = handlerFile(directory, spec);
  if (file === undefined) {
    throw runtimeError('Runtime.ImportModuleError', `Cannot find module ${JSON.stringify(spec.slice(0, dot))} in ${directory}`);
  }
  let handler: any = await importModule(file, requireFile);
  for (const key of spec.slice(dot + 1).split('.')) {
    handler = handler == null ? undefined : handler[key];
  }
  if (typeof handler !== 'function') {
    throw runtimeError('Runtime.HandlerNotFound', `${spec} is undefined or not exported`);
  }
  return handler;
}

/** `import()` kept as a real dynamic import in the compiled CommonJS output. */
const dynamicImport = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<unknown>;

async function importModule(file: string, requireFile: RequireFile): Promise<unknown> {
  if (file.endsWith('.mjs')) {
    return dynamicImport(pathToFileURL(file).href);
  }
  try {
    // The handler's own module system: CommonJS first, as the Node.js runtime does.
    return requireFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException | undefined)?.code === 'ERR_REQUIRE_ESM') {
      return dynamicImport(pathToFileURL(file).href);
    }
    throw error;
  }
}

/**
 * Refuses at init what the runtime refuses: from Node.js 24, a handler that declares a callback
 * (three parameters or more); a streaming handler's third parameter is its context, not a callback.
 */
export function checkHandlerStyle(handler: Handler, style: HandlerStyle): Handler {
  if (!style.callbacks && handler.length >= 3 && !isStreamingHandler(handler)) {
    throw runtimeError('Runtime.CallbackHandlerDeprecated', CALLBACK_HANDLER_REMOVED);
  }
  return handler;
}

/**
 * Calls the handler as the runtime of its style does; resolves with the result, rejects with the
 * error. Without callbacks (Node.js 24 on) the result is the handler's return value, awaited. With
 * them (up to Node.js 22): a returned promise settles the invocation; otherwise the return value
 * is ignored and the invocation ends when `context.succeed/fail/done` is called (at once), when the
 * callback is called (once the invocation's event loop work is done, unless
 * `context.callbackWaitsForEmptyEventLoop` is false), or, when none is, with `null` once that work is done.
 */
export function callHandler(
  handler: Handler, event: unknown, contextFor: (settle?: Settle) => Record<string, unknown>, style: HandlerStyle,
): Promise<unknown> {
  if (!style.callbacks) {
    return new Promise((resolve) => resolve(handler(event, contextFor(), undefined as never)));
  }
  // An async function can only finish through its promise: no need to watch its event loop work.
  const handles = handler.constructor.name === 'AsyncFunction' ? undefined : new InvocationHandles().start();
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish: Settle = (error, value) => {
      if (settled) {
        return;
      }
      settled = true;
      handles?.stop();
      if (error !== undefined && error !== null) {
        reject(error);
      } else {
        resolve(value);
      }
    };
    const context = contextFor(finish);
    /** After the invocation's own event loop work, unless the handler said not to wait. */
    const afterDrain = (error: unknown, value: unknown): void => {
      if (handles === undefined || context.callbackWaitsForEmptyEventLoop === false) {
        finish(error, value);
      } else {
        void handles.drained().then(() => finish(error, value));
      }
    };
    let calledBack = false;
    const callback = (error?: unknown, value?: unknown): void => {
      if (!calledBack) {
        calledBack = true;
        afterDrain(error, value);
      }
    };
    try {
      const result = (handles !== undefined ? handles.run(() => handler(event, context, callback)) : handler(event, context, callback)) as any;
      if (result && typeof result.then === 'function') {
        result.then((value: unknown) => finish(null, value), (error: unknown) => finish(error ?? new Error('rejected'), undefined));
      } else {
        // The return value is not the result: nothing answered yet means `null` once the work is done.
        void (handles?.drained() ?? Promise.resolve()).then(() => {
          if (!calledBack) {
            finish(null, null);
          }
        });
      }
    } catch (error) {
      finish(error, undefined);
    }
  });
}
