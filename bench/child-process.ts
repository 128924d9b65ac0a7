// What the evidence bench's children share: each kind of work runs in a fresh Node process (a
// bench module run with tsx's loader, its JSON answer on stdout), so the process's peak memory is
// that work's; and how a child's runs and peak are summed up.
import { execFile } from 'node:child_process';
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

/** Runs `file` (a bench module with a child entry) in a fresh Node process with tsx; its stdout is its JSON answer. */
export function runTsxChild<T>(file: string, args: string[], timeoutMs: number): Promise<T> {
  // Only what the work needs: not the bench's own loader options.
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: process.env.TMPDIR };
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
