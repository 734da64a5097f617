// A process and its descendants (a served app's runtime host processes), read from /proc (Linux):
// resident memory and CPU time.
const { execFileSync } = require('child_process');
const fs = require('fs');

/** Clock ticks per second, the unit of the CPU times in /proc/<pid>/stat. */
const CLOCK_TICKS = clockTicks();

function clockTicks() {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
}

/** Process ids of `pid` and its descendants. */
function tree(pid) {
  const out = [pid];
  for (let i = 0; i < out.length; i++) {
    let tasks = [];
    try {
      tasks = fs.readdirSync(`/proc/${out[i]}/task`);
    } catch {
      continue; // the process ended
    }
    for (const task of tasks) {
      try {
        out.push(...fs.readFileSync(`/proc/${out[i]}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number));
      } catch {
        // the task ended
      }
    }
  }
  return out;
}

/** VmRSS and VmHWM (peak) of a process, in MB. */
function memory(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)[1]);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

/** The summed RSS of a process and its descendants, in MB. */
function treeRss(pid) {
  let total = 0;
  for (const p of tree(pid)) {
    try {
      total += memory(p).rss;
    } catch {
      // the process ended
    }
  }
  return total;
}

/** Samples the RSS of a process tree every 25 ms; `stop()` returns the highest sum, in MB. */
function sampleTreeRss(pid) {
  let peak = 0;
  const sample = () => {
    peak = Math.max(peak, treeRss(pid));
  };
  sample();
  const timer = setInterval(sample, 25);
  return { stop: () => { clearInterval(timer); sample(); return peak; } };
}

/**
 * A process's CPU ticks from /proc/<pid>/stat: `own` is utime + stime (all its threads), `reaped`
 * is cutime + cstime (the children it has waited for, their whole lives).
 */
function cpuTicks(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces): state is field 3, utime field 14.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);
  return { own: fields[11] + fields[12], reaped: fields[13] + fields[14] };
}

/** CPU ticks of every process in the tree of `pid`, by pid. */
function cpuSnapshot(pid) {
  const snapshot = new Map();
  for (const p of tree(pid)) {
    try {
      snapshot.set(p, cpuTicks(p));
    } catch {
      // the process ended
    }
  }
  return { root: pid, processes: snapshot };
}

/**
 * CPU milliseconds that a process tree used between two snapshots: per-pid deltas (a pid that
 * appeared in between counts from 0). A process that ended in between is counted in its parent's
 * reaped time, whole life included, so what it had used before the first snapshot is taken off.
 * Returns the total and the part of the root process's own threads.
 */
function cpuMsBetween(before, after) {
  let ticks = 0;
  for (const [pid, end] of after.processes) {
    const start = before.processes.get(pid) ?? { own: 0, reaped: 0 };
    ticks += end.own - start.own + end.reaped - start.reaped;
  }
  for (const [pid, start] of before.processes) {
    if (!after.processes.has(pid)) {
      ticks -= start.own + start.reaped;
    }
  }
  const rootStart = before.processes.get(before.root);
  const rootEnd = after.processes.get(after.root);
  const rootTicks = rootStart && rootEnd ? rootEnd.own - rootStart.own : 0;
  return { total: (ticks * 1000) / CLOCK_TICKS, root: (rootTicks * 1000) / CLOCK_TICKS };
}

module.exports = { tree, memory, treeRss, sampleTreeRss, cpuSnapshot, cpuMsBetween };
