/**
 * What serve announces about the Node.js functions before the first request: runtimes whose own
 * Node.js cannot be had (they run on this machine's), and AWS SDK packages a function imports that do not resolve (which
 * the Lambda runtime would provide). Each comes with a note for the function's routes.
 */
import { missingSdkPackages } from './runtime-modules';
import type { FunctionSpec } from '../../model/function-spec';
import { functionLabel } from '../function-label';
import type { AppContext, RuntimeNotices } from '../runtime-family';
import { chooseNodeBinaries, hostNode, majorOf, nodeMajorOf } from './node-binaries';

function addNote(notes: Map<string, string>, key: string, note: string): void {
  const before = notes.get(key);
  notes.set(key, before === undefined ? note : `${before}; ${note}`);
}

/**
 * Notices for runnable Node.js functions: the Node.js each major runs on (fetched when missing,
 * see node-binaries.ts) and the AWS SDK packages that do not resolve in `nodeModules`.
 */
export function startupNotices(functions: readonly FunctionSpec[], app: Required<AppContext>, nodeModules: string): RuntimeNotices {
  const { appFolder } = app;
  const notes = new Map<string, string>();
  const majors = functions.map((fn) => nodeMajorOf(fn.runtime)).filter((m): m is number => m !== undefined);
  const fallbacks = chooseNodeBinaries(majors, app.hostRuntimes ? 'host' : 'runtime', app.shell, app.progress);
  const warnings: string[] = [];
  const host = hostNode();
  for (const [major, reason] of fallbacks) {
    const affected = functions.filter((fn) => nodeMajorOf(fn.runtime) === major);
    warnings.push(`${affected.map(functionLabel).join(', ')}: runtime nodejs${major}.x runs on this machine's Node.js ${host.version} (${reason}); what differs between Node.js ${major} and ${majorOf(host.version)} differs here`);
    affected.forEach((fn) => addNote(notes, fn.key, `nodejs${major}.x on Node.js ${majorOf(host.version)}`));
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
