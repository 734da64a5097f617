/**
 * One Lambda execution environment in a worker thread (started by host.ts): see
 * environment-runtime.ts for what it runs and the limits it applies.
 */
import { parentPort, workerData } from 'worker_threads';
import { startRuntime } from './environment-runtime';
import { EnvironmentConfig, RuntimeInvocation } from './protocol';

const port = parentPort!;
const receive = startRuntime(workerData as EnvironmentConfig, (batch) => port.postMessage(batch), (code) => process.exit(code), true);
port.on('message', (batch: RuntimeInvocation[]) => receive(batch));
