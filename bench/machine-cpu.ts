// The CPU time a page load costs the machine, beside its wall time. When every core is busy
// through a load (as on the two-core CI machine, for the signing page and for pdf.js alone
// alike), a page's wall time follows the CPU time all its processes spend: the browser's, the
// page's renderer and pdf.js's worker, the server's. So the signing bench adds up each load's
// CPU time, read from Linux's /proc, over every process the bench started and theirs
// (Chromium's processes, the local runtime, the bare page's server). Not the bench's own
// process: it runs Playwright's client and the bench's own requests, the measuring and not the
// measured. Elsewhere than on Linux there is no figure.
import { readdirSync, readFileSync } from 'node:fs';

/** The CPU time so far of each thread, `pid/tid` → ms. */
export type TCpuSnapshot = ReadonlyMap<string, number>;

/** The processes below `root` (its children, theirs, and so on), from each one's parent. Pure. */
export function descendantsOf(parents: ReadonlyMap<number, number>, root: number): number[] {
  const children = new Map<number, number[]>();
  for (const [pid, parent] of parents) {
    const siblings = children.get(parent);
    if (siblings) siblings.push(pid);
    else children.set(parent, [pid]);
  }
  const found: number[] = [];
  const seen = new Set([root]);
  const todo = [...(children.get(root) ?? [])];
  for (let pid = todo.pop(); pid !== undefined; pid = todo.pop()) {
    if (seen.has(pid)) continue;
    seen.add(pid);
    found.push(pid);
    todo.push(...(children.get(pid) ?? []));
  }
  return found;
}

/**
 * The ms of CPU spent between two snapshots: by the threads in both, and all of a thread's time
 * for one started since. A thread that ended in between is missed (a closed context's renderer):
 * the bench reads the second snapshot while the page it measures is still open. Pure.
 */
export function cpuBetween(before: TCpuSnapshot, after: TCpuSnapshot): number {
  let ms = 0;
  for (const [thread, t] of after) ms += t - (before.get(thread) ?? 0);
  return ms;
}

/** A /proc file's text, or undefined when it is gone (its process ended meanwhile) or unreadable. */
function read(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * The CPU time of every thread of every process below `root` (the bench's own process by
 * default); undefined where /proc does not tell (not Linux).
 */
export function cpuBelow(root: number = process.pid): TCpuSnapshot | undefined {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return undefined;
  }
  const parents = new Map<number, number>();
  for (const pid of entries) {
    if (!/^\d+$/.test(pid)) continue;
    const stat = read(`/proc/${pid}/stat`);
    // "pid (name) state ppid …": the name may hold spaces and parentheses, so split after its last ")".
    if (stat) parents.set(Number(pid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
  }
  const snapshot = new Map<string, number>();
  for (const pid of descendantsOf(parents, root)) {
    let threads: string[];
    try {
      threads = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of threads) {
      // Time on CPU in nanoseconds (stat's utime and stime count 10 ms ticks).
      const schedstat = read(`/proc/${pid}/task/${tid}/schedstat`);
      if (schedstat) snapshot.set(`${pid}/${tid}`, Number(schedstat.split(' ')[0]) / 1e6);
    }
  }
  return snapshot.size > 0 ? snapshot : undefined;
}

/** The CPU time spent below the bench's process since `before`; NaN when either side has no snapshot. */
export function cpuSince(before: TCpuSnapshot | undefined): number {
  const after = before ? cpuBelow() : undefined;
  return before && after ? cpuBetween(before, after) : Number.NaN;
}
