// A small, bounded load generator: `requests` calls of `request(i)` with at most `concurrency` in
// flight (closed loop: a worker starts its next call when the previous one ends, as a client
// pool would), stopping early at `maxMs` so a slow or wedged run cannot hold the bench hostage.
// It measures nothing itself but latency; what a call does and what counts as a failure is the
// caller's: `request` throws to report a failure, with a message that says why.
import { performance } from 'node:perf_hooks';

export interface TLoadOptions {
  requests: number;
  concurrency: number;
  /** No new call starts after this long; calls in flight are awaited. */
  maxMs?: number;
  /** Injected by tests; performance.now() otherwise. */
  now?: () => number;
}

export interface TLoadResult {
  /** Latency of each successful call, in completion order. */
  latenciesMs: number[];
  /** Failed calls. */
  failed: number;
  /** Distinct failure messages with how often each occurred, most frequent first. */
  failures: { message: string; count: number }[];
  /** Calls started (= successes + failures); less than `requests` only when `maxMs` cut the run. */
  started: number;
  elapsedMs: number;
  timedOut: boolean;
}

export async function runLoad(
  request: (index: number) => Promise<unknown>,
  opts: TLoadOptions,
): Promise<TLoadResult> {
  const { requests, concurrency } = opts;
  if (!Number.isInteger(requests) || requests < 0) throw new RangeError('requests must be an integer ≥ 0');
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError('concurrency must be an integer ≥ 1');
  }
  const now = opts.now ?? (() => performance.now());
  const maxMs = opts.maxMs ?? Number.POSITIVE_INFINITY;
  const latenciesMs: number[] = [];
  const failures = new Map<string, number>();
  let failed = 0;
  let next = 0;
  let timedOut = false;
  const start = now();

  async function worker() {
    while (next < requests) {
      if (now() - start >= maxMs) {
        timedOut = true;
        return;
      }
      const index = next++;
      const t0 = now();
      try {
        await request(index);
        latenciesMs.push(now() - t0);
      } catch (err) {
        failed++;
        const message = err instanceof Error ? err.message : String(err);
        failures.set(message, (failures.get(message) ?? 0) + 1);
      }
    }
  }

  await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(requests, 1)) }, worker));
  return {
    latenciesMs,
    failed,
    failures: [...failures].map(([message, count]) => ({ message, count })).sort((a, b) => b.count - a.count),
    started: next,
    elapsedMs: now() - start,
    timedOut,
  };
}
