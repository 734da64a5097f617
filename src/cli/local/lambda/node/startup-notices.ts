/**
 * What serve announces about the functions before the first request: runtimes that differ from
 * this machine's Node.js, and AWS SDK packages a function imports that do not resolve (which
 * the Lambda runtime would provide). Each comes with a note for the function's routes.
 */
import { FunctionSpec } from '../../model/local-app';
import { reservedInTemplate } from '../env-vars';
import { missingSdkPackages } from './runtime-modules';

export interface StartupNotices {
  /** One line each, without a prefix. */
  readonly warnings: string[];
  /** Function key → what its routes are marked with in the listing. */
  readonly notes: Map<string, string>;
}

export function functionLabel(fn: FunctionSpec): string {
  return fn.constructPath ?? `${fn.stackName}/${fn.logicalId}`;
}

function addNote(notes: Map<string, string>, key: string, note: string): void {
  const before = notes.get(key);
  notes.set(key, before === undefined ? note : `${before}; ${note}`);
}

/** `nodejs22.x` → 22; other runtimes → undefined. */
export function nodeMajorOf(runtime: string): number | undefined {
  const match = /^nodejs(\d+)\.x$/.exec(runtime);
  return match === null ? undefined : Number(match[1]);
}

export function startupNotices(
  functions: Iterable<FunctionSpec>, appFolder: string, nodeModules: string, hostVersion: string = process.version,
): StartupNotices {
  const warnings: string[] = [];
  const notes = new Map<string, string>();
  const hostMajor = Number(/^v(\d+)/.exec(hostVersion)?.[1]);
  const runnable = [...functions].filter((fn) => fn.code.kind !== 'unsupported');
  for (const fn of runnable) {
    const major = nodeMajorOf(fn.runtime);
    if (major !== undefined && major !== hostMajor) {
      warnings.push(`${functionLabel(fn)}: runtime ${fn.runtime} runs on this machine's Node.js ${hostVersion}; what differs between Node.js ${major} and ${hostMajor} differs here`);
      addNote(notes, fn.key, `${fn.runtime} on Node.js ${hostMajor}`);
    }
  }
  for (const fn of runnable) {
    const reserved = Object.keys(fn.environment).filter(reservedInTemplate);
    if (reserved.length > 0) {
      warnings.push(`${functionLabel(fn)}: Environment.Variables sets ${reserved.join(', ')}, reserved by the Lambda runtime (Lambda refuses the function at deploy); ignored here`);
    }
  }
  for (const group of missingSdkPackages(runnable, nodeModules)) {
    const packages = group.packages.join(' ');
    warnings.push(`${group.functions.map(functionLabel).join(', ')}: import${group.functions.length === 1 ? 's' : ''} ${packages}, which the Lambda runtime provides but ${nodeModules} does not hold; their requests fail at init (502) until you run in ${appFolder}: npm install --save-dev ${packages}`);
    for (const fn of group.functions) {
      addNote(notes, fn.key, `missing ${group.packages.join(', ')}`);
    }
  }
  return { warnings, notes };
}
