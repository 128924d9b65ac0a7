// The CPU time a page load costs the machine, beside its wall time. When every core is busy
// through a load (as on the two-core CI machine, for the signing page and for pdf.js alone
// alike), a page's wall time follows the CPU time all its processes spend: the browser's, the
// page's renderer and pdf.js's worker, the server's. So the signing bench adds up each load's
// CPU time, read from Linux's /proc, over every process the bench started and theirs
// (Chromium's processes, the local runtime, the bare page's server). Not the bench's own
// process: it runs Playwright's client and the bench's own requests, the measuring and not the
// measured. Elsewhere than on Linux there is no figure. Each thread's time is also told by the
// part of the load it belongs to (TCpuPart), so a difference between the pages shows where it is.
import { readdirSync, readFileSync } from 'node:fs';
import { percentile } from './stats';

/** The parts of a load's CPU time, each a set of threads. */
export const CPU_PARTS = {
  pageMain: "the page's main thread",
  pageWorkers: "the page's workers (pdf.js's)",
  pageOther: "the page's other threads (script compiling, compositing, I/O)",
  browser: "Chromium's browser process",
  gpu: "Chromium's GPU process",
  utility: "Chromium's utility processes (the network service)",
  servers: "the servers (the runtime, the bare page's)",
} as const;
export type TCpuPart = keyof typeof CPU_PARTS;

/** A thread's CPU time so far, and its part. */
export interface TThreadCpu {
  ms: number;
  part: TCpuPart;
}

/** The CPU time so far of each thread, by `pid/tid`. */
export type TCpuSnapshot = ReadonlyMap<string, TThreadCpu>;

/** What the CPU time between two snapshots was spent on: in all, and by part. */
export interface TCpuSpent {
  total: number;
  parts: Record<TCpuPart, number>;
}

/**
 * The part a thread belongs to, from its process's command line (as /proc gives it: arguments
 * NUL-separated, or space-separated where the process rewrote its title, as Chromium's child
 * processes do) and the thread's own name; `main` when it is its process's first thread.
 * Chromium's processes say their type (`--type=renderer`, none for the browser process); any
 * other process the bench started is a server. Pure.
 */
export function cpuPartOf(cmdline: string, threadName: string, main: boolean): TCpuPart {
  const args = cmdline.split(/[\0 ]/);
  if (!/chrom|headless_shell/i.test(args[0]?.split('/').pop() ?? '')) return 'servers';
  const type = args.find((a) => a.startsWith('--type='))?.slice('--type='.length);
  if (type === 'renderer') {
    if (main) return 'pageMain';
    return threadName.startsWith('DedicatedWorker') ? 'pageWorkers' : 'pageOther';
  }
  if (type === 'gpu-process') return 'gpu';
  if (type === 'utility') return 'utility';
  return 'browser';
}

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
export function cpuBetween(before: TCpuSnapshot, after: TCpuSnapshot): TCpuSpent {
  const parts = Object.fromEntries(Object.keys(CPU_PARTS).map((part) => [part, 0])) as Record<
    TCpuPart,
    number
  >;
  let total = 0;
  for (const [thread, t] of after) {
    const spent = t.ms - (before.get(thread)?.ms ?? 0);
    parts[t.part] += spent;
    total += spent;
  }
  return { total, parts };
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
  const snapshot = new Map<string, TThreadCpu>();
  for (const pid of descendantsOf(parents, root)) {
    let threads: string[];
    try {
      threads = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    const cmdline = read(`/proc/${pid}/cmdline`) ?? '';
    for (const tid of threads) {
      // Time on CPU in nanoseconds (stat's utime and stime count 10 ms ticks).
      const schedstat = read(`/proc/${pid}/task/${tid}/schedstat`);
      if (!schedstat) continue;
      const name = read(`/proc/${pid}/task/${tid}/comm`)?.trim() ?? '';
      snapshot.set(`${pid}/${tid}`, {
        ms: Number(schedstat.split(' ')[0]) / 1e6,
        part: cpuPartOf(cmdline, name, tid === String(pid)),
      });
    }
  }
  return snapshot.size > 0 ? snapshot : undefined;
}

/** The CPU time spent below the bench's process since `before`; undefined when either side has no snapshot. */
export function cpuSince(before: TCpuSnapshot | undefined): TCpuSpent | undefined {
  const after = before ? cpuBelow() : undefined;
  return before && after ? cpuBetween(before, after) : undefined;
}

/** The p50 of each part over loads; NaN for every part when there is no load. Pure. */
export function cpuPartsP50(loads: readonly TCpuSpent[]): Record<TCpuPart, number> {
  return Object.fromEntries(
    (Object.keys(CPU_PARTS) as TCpuPart[]).map((part) => [
      part,
      loads.length > 0
        ? percentile(
            loads.map((l) => l.parts[part]),
            50,
          )
        : Number.NaN,
    ]),
  ) as Record<TCpuPart, number>;
}
