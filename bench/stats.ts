// Summary statistics for the benchmark. Kept free of I/O so they can be unit-tested.

/**
 * The p-th percentile (0 ≤ p ≤ 100) by linear interpolation between closest ranks (the method
 * numpy and most spreadsheets use by default): it is continuous in p, so p50 of an even-sized
 * sample is the usual median, and p99 of a small sample does not jump to the maximum.
 * The input need not be sorted and is not modified.
 */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) throw new RangeError('percentile of an empty sample');
  if (!(p >= 0 && p <= 100)) throw new RangeError(`percentile must be within 0..100, got ${p}`);
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  const low = sorted[lo]!;
  return low + (sorted[hi]! - low) * (rank - lo);
}

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

export interface TLatencySummary {
  /** Requests that completed successfully (their latencies are the sample). */
  ok: number;
  failed: number;
  /** Successful requests per second of wall-clock time for the whole run. */
  rps: number;
  p50Ms: number;
  p99Ms: number;
}

/**
 * Throughput counts successes only, over the run's wall-clock time: failures that answer fast
 * (a 429, a 500) must not make a run look quicker.
 */
export function summarize(
  latenciesMs: readonly number[],
  failed: number,
  elapsedMs: number,
): TLatencySummary {
  const ok = latenciesMs.length;
  return {
    ok,
    failed,
    rps: elapsedMs > 0 ? (ok * 1000) / elapsedMs : 0,
    p50Ms: ok > 0 ? percentile(latenciesMs, 50) : Number.NaN,
    p99Ms: ok > 0 ? percentile(latenciesMs, 99) : Number.NaN,
  };
}

/** Rounds for display and for results.json, so figures do not carry noise digits. */
export function round(value: number, digits = 2): number {
  if (!Number.isFinite(value)) return value;
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
