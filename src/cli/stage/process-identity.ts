/**
 * Which process a PID stands for, so that a PID reused by an unrelated process after a stage run
 * died is not taken for that run.
 */
import * as fs from 'fs';
import { isPlainObject } from '../../outputs/cdk-free/json-data';

/** A process: its PID and, where the system tells it (Linux), when it started. */
export interface ProcessIdentity {
  readonly pid: number;
  /** Start time in clock ticks since boot (field 22 of /proc/PID/stat); absent elsewhere. */
  readonly start?: string;
}

/** Fields 3 and on of /proc/PID/stat (Linux), or undefined when there is no such file. */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: split after it.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

function startTime(pid: number): string | undefined {
  return statFields(pid)?.[19]; // field 22
}

/** This process. */
export function currentProcess(): ProcessIdentity {
  const start = startTime(process.pid);
  return start === undefined ? { pid: process.pid } : { pid: process.pid, start };
}

/** Whether the process is still running (a process of another user counts as running). */
export function isRunning(identity: ProcessIdentity): boolean {
  try {
    process.kill(identity.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') {
      return false;
    }
  }
  const fields = statFields(identity.pid);
  if (fields === undefined) {
    return true; // no /proc: the PID is all there is to go by
  }
  // A zombie (state Z, or X while it is reaped) has ended; its parent has not collected it yet.
  if (fields[0] === 'Z' || fields[0] === 'X') {
    return false;
  }
  return identity.start === undefined || fields[19] === identity.start;
}

/** Reads an identity from parsed JSON; undefined when it is not one. */
export function parseIdentity(value: unknown): ProcessIdentity | undefined {
  if (!isPlainObject(value) || !Number.isSafeInteger(value.pid) || (value.pid as number) <= 0) {
    return undefined;
  }
  const pid = value.pid as number;
  return typeof value.start === 'string' ? { pid, start: value.start } : { pid };
}
