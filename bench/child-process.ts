// What the bench's children share: each kind of work runs in a fresh Node process (a bench module
// run with tsx's loader, its JSON answer on stdout), so the process's peak memory is that work's,
// and how a child's runs and peak are summed up (the evidence bench); and servers that run in a
// process of their own while the bench talks to them (the signing bench), as deployed, where the
// browser's driver and the bench's own clients do not share the service's CPU.
import { execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { percentile } from './stats';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Median, min and max of a sample; NaN for an empty one. Pure. */
export function spread(samplesMs: readonly number[]) {
  const n = samplesMs.length;
  return {
    runs: n,
    medianMs: n > 0 ? percentile(samplesMs, 50) : Number.NaN,
    minMs: n > 0 ? Math.min(...samplesMs) : Number.NaN,
    maxMs: n > 0 ? Math.max(...samplesMs) : Number.NaN,
  };
}

export type TPeakSource = 'VmHWM' | 'maxRSS';

/** VmHWM of a /proc/<pid>/status text, in MiB; undefined when absent. Pure. */
export function vmHwmMb(status: string): number | undefined {
  const m = /^VmHWM:\s+(\d+)\s+kB\s*$/m.exec(status);
  return m ? Number(m[1]) / 1024 : undefined;
}

/**
 * This process's peak resident set: VmHWM where there is /proc (Linux; its own since exec), else
 * resourceUsage().maxRSS (which on Linux would include the forking parent's mark).
 */
export function peakRss(): { mb: number; source: TPeakSource } {
  try {
    const mb = vmHwmMb(readFileSync('/proc/self/status', 'utf8'));
    if (mb !== undefined) return { mb, source: 'VmHWM' };
  } catch {
    // no /proc here
  }
  return { mb: process.resourceUsage().maxRSS / 1024, source: 'maxRSS' };
}

/** Only what a child's work needs: not the bench's own loader options. */
const childEnv = () => ({
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  TMPDIR: process.env.TMPDIR,
  // As bench/run.ts sets it: the pinned SDK's warning about Node 20 says nothing about the bench.
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
});

/** Runs `file` (a bench module with a child entry) in a fresh Node process with tsx; its stdout is its JSON answer. */
export function runTsxChild<T>(file: string, args: string[], timeoutMs: number): Promise<T> {
  const env = childEnv();
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', file, ...args],
      { cwd: REPO_ROOT, env, timeout: Math.max(1, timeoutMs), maxBuffer: 1024 * 1024 },
      (err, stdout, stderr) => {
        if (err) {
          const why = err.killed ? `killed after ${Math.round(timeoutMs / 1000)} s` : err.message;
          reject(
            new Error(`${args[0]} child: ${why} ${String(stderr).trim().split('\n').slice(-3).join(' | ')}`),
          );
          return;
        }
        try {
          resolve(JSON.parse(stdout) as T);
        } catch {
          reject(new Error(`${args[0]} child: unreadable answer ${stdout.slice(0, 160)}`));
        }
      },
    );
  });
}

/**
 * A bench module's entry when run as a child (`node --import tsx bench/<module>.ts <kind> …`):
 * when `moduleUrl` is the file Node was started with, runs `main` with the arguments, and a
 * failure becomes the child's stderr and exit code 1.
 */
export async function runAsChild(moduleUrl: string, main: (argv: string[]) => Promise<void>): Promise<void> {
  if (!process.argv[1] || path.resolve(process.argv[1]) !== fileURLToPath(moduleUrl)) return;
  try {
    await main(process.argv.slice(2));
  } catch (err) {
    console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
    process.exit(1);
  }
}

/** The line a server child writes on stdout once it serves: this prefix, then its JSON answer. */
export const SERVING_PREFIX = 'bench-serving ';

export interface TServerChild<T> {
  /** What the child said once it served (its URLs). */
  serving: T;
  pid: number;
  /** Closes the child's stdin (its cue to stop cleanly) and waits for it to end; kills it if it lingers. */
  stop(): Promise<void>;
}

/**
 * Starts `file` (a bench module whose child entry calls `serveUntilStdinEnds`) in a Node process
 * of its own with tsx, and answers once it writes its serving line. The child lives until its
 * stdin closes: on `stop`, or when this process ends however it ends.
 */
export function startTsxServer<T>(file: string, args: string[], timeoutMs: number): Promise<TServerChild<T>> {
  const child = spawn(process.execPath, ['--import', 'tsx', file, ...args], {
    cwd: REPO_ROOT,
    env: childEnv(),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const ended = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    child.stdin.end();
    const lingered = await Promise.race([
      ended.then(() => false),
      new Promise<boolean>((r) => setTimeout(() => r(true), 15_000).unref()),
    ]);
    if (lingered) {
      child.kill('SIGKILL');
      await ended;
    }
  };
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    stderr = (stderr + d).slice(-4000);
  });
  return new Promise((resolve, reject) => {
    let out = '';
    let done = false;
    const fail = (why: string) => {
      if (done) return;
      done = true;
      void stop();
      reject(new Error(`${args[0]} child: ${why} ${stderr.trim().split('\n').slice(-3).join(' | ')}`));
    };
    const timer = setTimeout(() => fail(`not serving after ${Math.round(timeoutMs / 1000)} s`), timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(`ended (exit code ${code}) before serving`);
    });
    // Read to the end, so a chatty child never blocks on a full pipe.
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      if (done) return;
      out += d;
      const line = out.split('\n').find((l) => l.startsWith(SERVING_PREFIX));
      if (line === undefined) return;
      done = true;
      clearTimeout(timer);
      try {
        resolve({ serving: JSON.parse(line.slice(SERVING_PREFIX.length)) as T, pid: child.pid!, stop });
      } catch {
        void stop();
        reject(new Error(`${args[0]} child: unreadable serving line ${line.slice(0, 160)}`));
      }
    });
  });
}

/**
 * A server child's body: writes its serving line, then stops (`stop`) and ends the process when
 * its stdin closes: the parent said so, or the parent is gone.
 */
export function serveUntilStdinEnds(serving: unknown, stop: () => Promise<void>): Promise<void> {
  process.stdout.write(`${SERVING_PREFIX}${JSON.stringify(serving)}\n`);
  return new Promise((resolve) => {
    process.stdin.resume();
    process.stdin.once('end', () => {
      void stop().finally(() => {
        resolve();
        process.exit(0);
      });
    });
  });
}
