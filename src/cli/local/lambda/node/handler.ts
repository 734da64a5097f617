/**
 * Loading a Node.js handler (`FILE.EXPORT`) and calling it the way the Node.js runtime does:
 * async handlers, callback handlers and the legacy `context.done/succeed/fail`.
 */
import * as fs from 'fs';
import * as path from 'path';
import { pathToFileURL } from 'url';
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

/** Loads `directory/FILE.(js|mjs|cjs)` and returns its `EXPORT` (dots walk nested exports). */
export async function loadHandler(directory: string, spec: string): Promise<Handler> {
  const slash = spec.lastIndexOf('/');
  const dot = spec.indexOf('.', slash + 1);
  if (dot < 0) {
    throw runtimeError('Runtime.MalformedHandlerName', `Bad handler ${spec}: expected FILE.EXPORT`);
  }
  const moduleBase = path.resolve(directory, spec.slice(0, dot));
  const file = ['.js', '.mjs', '.cjs'].map((ext) => moduleBase + ext).find((f) => fs.existsSync(f));
  if (file === undefined) {
    throw runtimeError('Runtime.ImportModuleError', `Cannot find module ${JSON.stringify(spec.slice(0, dot))} in ${directory}`);
  }
  let handler: any = await importModule(file);
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

async function importModule(file: string): Promise<unknown> {
  if (file.endsWith('.mjs')) {
    return dynamicImport(pathToFileURL(file).href);
  }
  try {
    // The handler's own module system: CommonJS first, as the Node.js runtime does.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException | undefined)?.code === 'ERR_REQUIRE_ESM') {
      return dynamicImport(pathToFileURL(file).href);
    }
    throw error;
  }
}

/** Calls the handler; resolves with its result or rejects with its error, whichever style it uses. */
export function callHandler(handler: Handler, event: unknown, context: Record<string, unknown>): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const done = (error?: unknown, value?: unknown): void => {
      if (settled) {
        return;
      }
      settled = true;
      if (error !== undefined && error !== null) {
        reject(error);
      } else {
        resolve(value);
      }
    };
    context.done = done;
    context.succeed = (value: unknown) => done(null, value);
    context.fail = (error: unknown) => done(error ?? new Error('handled'));
    try {
      const result = handler(event, context, done) as any;
      if (result && typeof result.then === 'function') {
        result.then((value: unknown) => done(null, value), (error: unknown) => done(error ?? new Error('rejected')));
      } else if (handler.length < 3) {
        done(null, result);
      }
    } catch (error) {
      done(error);
    }
  });
}
