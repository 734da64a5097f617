/**
 * What serve announces about the Node.js functions before the first request: runtimes that differ
 * from this machine's Node.js, and AWS SDK packages a function imports that do not resolve (which
 * the Lambda runtime would provide). Each comes with a note for the function's routes.
 */
import { missingSdkPackages } from './runtime-modules';
import type { FunctionSpec } from '../../model/function-spec';
import { functionLabel } from '../function-label';
import type { RuntimeNotices } from '../runtime-family';

function addNote(notes: Map<string, string>, key: string, note: string): void {
  const before = notes.get(key);
  notes.set(key, before === undefined ? note : `${before}; ${note}`);
}

/** `nodejs22.x` → 22; other runtimes → undefined. */
export function nodeMajorOf(runtime: string): number | undefined {
  const match = /^nodejs(\d+)\.x$/.exec(runtime);
  return match === null ? undefined : Number(match[1]);
}

/** Notices for runnable Node.js functions; `nodeModules` is where the app's AWS SDK comes from. */
export function startupNotices(
  functions: readonly FunctionSpec[], appFolder: string, nodeModules: string, hostVersion: string = process.version,
): RuntimeNotices {
  const warnings: string[] = [];
  const notes = new Map<string, string>();
  const hostMajor = Number(/^v(\d+)/.exec(hostVersion)?.[1]);
  for (const fn of functions) {
    const major = nodeMajorOf(fn.runtime);
    if (major !== undefined && major !== hostMajor) {
      warnings.push(`${functionLabel(fn)}: runtime ${fn.runtime} runs on this machine's Node.js ${hostVersion}; what differs between Node.js ${major} and ${hostMajor} differs here`);
      addNote(notes, fn.key, `${fn.runtime} on Node.js ${hostMajor}`);
    }
  }
  for (const group of missingSdkPackages(functions, nodeModules)) {
    const packages = group.packages.join(' ');
    warnings.push(`${group.functions.map(functionLabel).join(', ')}: import${group.functions.length === 1 ? 's' : ''} ${packages}, which the Lambda runtime provides but ${nodeModules} does not hold; their requests fail at init (502) until you run in ${appFolder}: npm install --save-dev ${packages}`);
    for (const fn of group.functions) {
      addNote(notes, fn.key, `missing ${group.packages.join(', ')}`);
    }
  }
  return { warnings, notes };
}
