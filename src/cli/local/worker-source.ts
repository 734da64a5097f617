/**
 * The JavaScript a function worker runs (passed to `new Worker(source, { eval: true })`, so the
 * same code works from the TypeScript sources and from the compiled package).
 *
 * Like a Lambda execution environment it loads the handler module once ("init"), then runs one
 * invocation at a time. Console output is sent to the main thread tagged with the request id.
 *
 * Messages to the worker:   [[request id, event input (see event.ts)], ...] (queued, then run one at a time)
 * Messages from the worker: { t: 'ready' } | { t: 'init-error', error }
 *                           { t: 'log', id, level, text }
 *                           { t: 'results', results: [[id, payload JSON text | undefined, error | undefined], ...] }
 * Both directions batch what is ready in one turn of the event loop into one message.
 */
import { buildEvent } from './event';

/** The worker's source text, with {@link buildEvent} included. */
export function workerSource(): string {
  return `${WORKER_SOURCE}\nconst buildEvent = ${buildEvent.toString()};\n`;
}

const WORKER_SOURCE = String.raw`
'use strict';
const { parentPort, workerData } = require('worker_threads');
const path = require('path');
const fs = require('fs');
const util = require('util');
const { pathToFileURL } = require('url');

let currentId = null;
const LEVELS = [['log', 'INFO'], ['info', 'INFO'], ['warn', 'WARN'], ['error', 'ERROR'], ['debug', 'DEBUG'], ['trace', 'TRACE']];
for (const [method, level] of LEVELS) {
  console[method] = (...args) => {
    parentPort.postMessage({ t: 'log', id: currentId, level, text: util.format(...args) });
  };
}

function describeError(error) {
  if (error instanceof Error) {
    return { errorType: error.name || 'Error', errorMessage: error.message, trace: String(error.stack || '').split('\n') };
  }
  return { errorType: typeof error, errorMessage: String(error), trace: [] };
}

async function loadHandler() {
  const spec = workerData.handler;
  const slash = spec.lastIndexOf('/');
  const dot = spec.indexOf('.', slash + 1);
  if (dot < 0) {
    throw Object.assign(new Error('Bad handler ' + spec + ': expected FILE.EXPORT'), { name: 'Runtime.MalformedHandlerName' });
  }
  const moduleBase = path.resolve(workerData.directory, spec.slice(0, dot));
  const exportPath = spec.slice(dot + 1).split('.');
  let file;
  for (const ext of ['.js', '.mjs', '.cjs']) {
    if (fs.existsSync(moduleBase + ext)) {
      file = moduleBase + ext;
      break;
    }
  }
  if (file === undefined) {
    throw Object.assign(new Error('Cannot find module ' + JSON.stringify(spec.slice(0, dot)) + ' in ' + workerData.directory), { name: 'Runtime.ImportModuleError' });
  }
  let mod;
  if (file.endsWith('.mjs')) {
    mod = await import(pathToFileURL(file).href);
  } else {
    try {
      mod = require(file);
    } catch (error) {
      if (error && error.code === 'ERR_REQUIRE_ESM') {
        mod = await import(pathToFileURL(file).href);
      } else {
        throw error;
      }
    }
  }
  let handler = mod;
  for (const key of exportPath) {
    handler = handler == null ? undefined : handler[key];
  }
  if (typeof handler !== 'function') {
    throw Object.assign(new Error(spec + ' is undefined or not exported'), { name: 'Runtime.HandlerNotFound' });
  }
  return handler;
}

function invoke(handler, event, context) {
  return new Promise((resolve, reject) => {
    let settled = false;
    const done = (error, value) => {
      if (settled) return;
      settled = true;
      if (error !== undefined && error !== null) reject(error); else resolve(value);
    };
    context.done = done;
    context.succeed = (value) => done(null, value);
    context.fail = (error) => done(error === undefined || error === null ? new Error('handled') : error);
    try {
      const result = handler(event, context, done);
      if (result && typeof result.then === 'function') {
        result.then((value) => done(null, value), (error) => done(error === undefined || error === null ? new Error('rejected') : error));
      } else if (handler.length < 3) {
        done(null, result);
      }
    } catch (error) {
      done(error);
    }
  });
}

let outbox = [];
function flush() {
  const results = outbox;
  outbox = [];
  parentPort.postMessage({ t: 'results', results });
}
function reply(id, payload, error) {
  if (outbox.length === 0) setImmediate(flush);
  outbox.push([id, payload, error]);
}

async function runOne(handler, id, input) {
  currentId = id;
  const deadline = Date.now() + workerData.timeoutMs;
  const context = Object.assign({}, workerData.context, {
    awsRequestId: id,
    callbackWaitsForEmptyEventLoop: true,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
  });
  try {
    const value = await invoke(handler, buildEvent(input), context);
    let payload;
    try {
      payload = value === undefined ? undefined : JSON.stringify(value);
    } catch (error) {
      reply(id, undefined, describeError(error));
      return;
    }
    reply(id, payload, undefined);
  } catch (error) {
    reply(id, undefined, describeError(error));
  }
}

loadHandler().then((handler) => {
  // Like a Lambda execution environment: one invocation at a time, the next waits for the last.
  const queue = [];
  let running = false;
  const next = async () => {
    running = true;
    while (queue.length > 0) {
      const [id, input] = queue.shift();
      await runOne(handler, id, input);
    }
    running = false;
  };
  parentPort.on('message', (batch) => {
    for (const invocation of batch) queue.push(invocation);
    if (!running) next();
  });
  parentPort.postMessage({ t: 'ready' });
}, (error) => {
  parentPort.postMessage({ t: 'init-error', error: describeError(error) });
});
`;
