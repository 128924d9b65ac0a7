import { describe, expect, it } from 'vitest';
import { runLoad } from '../../bench/load';
import { median, percentile, round, summarize } from '../../bench/stats';

describe('percentile and median', () => {
  it('interpolates between closest ranks', () => {
    expect(median([1, 2, 3, 4])).toBe(2.5);
    expect(median([7, 1, 3])).toBe(3);
    const hundred = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(hundred, 99)).toBeCloseTo(99.01, 10);
    expect(percentile(hundred, 50)).toBe(50.5);
    expect(percentile([10, 20], 25)).toBe(12.5);
  });

  it('gives the extremes at 0 and 100, and the value itself for one sample', () => {
    const sample = [5, -2, 9, 3];
    expect(percentile(sample, 0)).toBe(-2);
    expect(percentile(sample, 100)).toBe(9);
    expect(percentile([42], 99)).toBe(42);
  });

  it('sorts numerically without modifying its input', () => {
    const sample = [10, 9, 100, 1];
    expect(median(sample)).toBe(9.5); // a string sort would put 100 before 9
    expect(sample).toEqual([10, 9, 100, 1]);
  });

  it('refuses an empty sample and a percentile outside 0..100', () => {
    expect(() => median([])).toThrow(RangeError);
    expect(() => percentile([1], -1)).toThrow(RangeError);
    expect(() => percentile([1], 100.5)).toThrow(RangeError);
    expect(() => percentile([1], Number.NaN)).toThrow(RangeError);
  });
});

describe('summarize', () => {
  it('counts successes only in throughput and latency', () => {
    const s = summarize([10, 20, 30, 40], 6, 2000);
    expect(s).toMatchObject({ ok: 4, failed: 6, rps: 2, p50Ms: 25 });
    expect(s.p99Ms).toBeCloseTo(39.7, 10);
  });

  it('reports no latency when nothing succeeded', () => {
    const s = summarize([], 3, 100);
    expect(s.rps).toBe(0);
    expect(s.p50Ms).toBeNaN();
  });

  it('rounds figures for display', () => {
    expect(round(1.23456)).toBe(1.23);
    expect(round(691.6, 0)).toBe(692);
  });
});

/** A clock the fake requests move forward, so latencies are exact. */
function fakeClock() {
  let t = 1000;
  return {
    now: () => t,
    advance: (ms: number) => {
      t += ms;
    },
  };
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('runLoad', () => {
  it('makes every request exactly once and never exceeds the concurrency', async () => {
    const seen: number[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    const result = await runLoad(
      async (i) => {
        seen.push(i);
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await tick();
        await tick();
        inFlight--;
      },
      { requests: 25, concurrency: 4 },
    );
    expect(seen.sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i));
    expect(maxInFlight).toBe(4);
    expect(result.started).toBe(25);
    expect(result.latenciesMs).toHaveLength(25);
    expect(result.failed).toBe(0);
    expect(result.timedOut).toBe(false);
  });

  it('records the latency of each success and the elapsed time of the run', async () => {
    const clock = fakeClock();
    const result = await runLoad(
      async (i) => {
        await tick();
        clock.advance(i + 1);
      },
      { requests: 4, concurrency: 1, now: clock.now },
    );
    expect(result.latenciesMs).toEqual([1, 2, 3, 4]);
    expect(result.elapsedMs).toBe(10);
  });

  it('counts failures apart, grouped by message, most frequent first', async () => {
    const clock = fakeClock();
    const result = await runLoad(
      async (i) => {
        clock.advance(5);
        if (i % 3 === 0) throw new Error('HTTP 500');
        if (i === 4) throw 'plain string';
      },
      { requests: 9, concurrency: 2, now: clock.now },
    );
    expect(result.failed).toBe(4);
    expect(result.failures).toEqual([
      { message: 'HTTP 500', count: 3 },
      { message: 'plain string', count: 1 },
    ]);
    expect(result.latenciesMs).toHaveLength(5);
    expect(result.started).toBe(9);
  });

  it('stops starting requests at the time bound', async () => {
    const clock = fakeClock();
    const result = await runLoad(
      async () => {
        clock.advance(10);
      },
      { requests: 100, concurrency: 1, maxMs: 35, now: clock.now },
    );
    // Started at 0, 10, 20 and 30 ms; the fifth would start at 40.
    expect(result.started).toBe(4);
    expect(result.latenciesMs).toEqual([10, 10, 10, 10]);
    expect(result.timedOut).toBe(true);
  });

  it('handles zero requests and rejects a bad concurrency', async () => {
    let calls = 0;
    const result = await runLoad(
      async () => {
        calls++;
      },
      { requests: 0, concurrency: 8 },
    );
    expect(calls).toBe(0);
    expect(result.started).toBe(0);
    await expect(runLoad(async () => undefined, { requests: 1, concurrency: 0 })).rejects.toThrow(RangeError);
  });
});
