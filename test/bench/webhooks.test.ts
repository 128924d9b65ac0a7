import { describe, expect, it } from 'vitest';
import { summarizeArrivals, type TArrival } from '../../bench/webhooks';

const at = (
  bundleId: string,
  eventId: string,
  changedAt: number,
  answeredAt: number,
  eventType = 'bundle_sent',
) => ({ bundleId, eventId, eventType, changedAt, answeredAt }) satisfies TArrival;

describe('summarizeArrivals', () => {
  it('counts each event once at its first arrival, and the rest as duplicates', () => {
    const s = summarizeArrivals(
      [at('b1', 'e1', 1000, 1100), at('b2', 'e2', 1200, 1250), at('b1', 'e1', 1000, 1900)],
      new Set(['b1', 'b2']),
      'bundle_sent',
    );
    expect(s).toMatchObject({ expected: 2, delivered: 2, missing: 0, duplicates: 1, unexpected: 0 });
    // First state change 1000 → last first arrival 1250: the late duplicate does not stretch it.
    expect(s.elapsedMs).toBe(250);
    expect(s.eventsPerSecond).toBe(8);
    expect(s.latencyMs).toEqual([100, 50]);
  });

  it('starts the clock at `since` when given, and ignores other bundles and other types', () => {
    const s = summarizeArrivals(
      [
        at('b1', 'e1', 0, 5000, 'bundle_cancelled'),
        at('b1', 'e9', 0, 5100, 'bundle_sent'),
        at('other', 'e3', 0, 9000, 'bundle_cancelled'),
      ],
      new Set(['b1', 'b2']),
      'bundle_cancelled',
      4000,
    );
    expect(s).toMatchObject({ delivered: 1, missing: 1, duplicates: 0, unexpected: 0, elapsedMs: 1000 });
    expect(s.eventsPerSecond).toBe(1);
  });

  it('flags a second, different event for a bundle that fires the type once', () => {
    const s = summarizeArrivals(
      [at('b1', 'e1', 0, 10), at('b1', 'e2', 0, 20)],
      new Set(['b1']),
      'bundle_sent',
    );
    expect(s).toMatchObject({ delivered: 1, missing: 0, unexpected: 1 });
  });

  it('reports nothing delivered without dividing by zero', () => {
    const s = summarizeArrivals([], new Set(['b1']), 'bundle_sent');
    expect(s).toMatchObject({ delivered: 0, missing: 1, elapsedMs: 0, eventsPerSecond: 0, latencyMs: [] });
  });
});
