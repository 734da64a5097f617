/**
 * One Lambda execution environment in a worker thread (started by host.ts for ES module
 * handlers): see environment-runtime.ts for what it runs and the limits it applies.
 */
import { parentPort, workerData } from 'worker_threads';
import { startRuntime } from './environment-runtime';
import { EnvironmentConfig, RuntimeInvocation } from './protocol';

const port = parentPort!;
const runtime = startRuntime(workerData as EnvironmentConfig, (batch) => port.postMessage(batch), (code) => process.exit(code), false);
port.on('message', (batch: RuntimeInvocation[]) => runtime.receive(batch));
