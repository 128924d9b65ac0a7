import { describe, expect, it } from 'vitest';
import { LocalUsagePlan } from '#infra/local/usage-plan';
import { DEFAULT_RATE_LIMITS } from '#infra/stage-config';
import { cachedUsageReader } from '#shared/adapters/apigateway/cached-usage-reader';
import { periodBounds } from '#shared/adapters/apigateway/usage-reader';
import type { TUsage } from '#shared/domain/ports/accounts';

describe('local usage plan', () => {
  it('knows the keys it registered, and a deleted one as deleted (API Gateway: INVALID_API_KEY)', async () => {
    const plan = new LocalUsagePlan('p', { quotaLimit: 10, quotaPeriod: 'DAY', rateLimit: 1, burstLimit: 1 });
    const keys = plan.keyRegistry();
    const [a, b] = [await keys.register('secret-a', 'a'), await keys.register('secret-b', 'b')];
    expect(a).not.toBe(b);
    await keys.remove(a);
    expect([plan.isDeleted(a), plan.isDeleted(b), plan.isDeleted('seeded-key-id')]).toEqual([
      true,
      false,
      false,
    ]);
  });
  it('lets a burst through, then refills at the rate', () => {
    const plan = new LocalUsagePlan('p', {
      quotaLimit: 100,
      quotaPeriod: 'DAY',
      rateLimit: 2,
      burstLimit: 2,
    });
    const t0 = new Date('2026-01-01T10:00:00Z');
    expect(plan.admit('k', t0).ok).toBe(true);
    expect(plan.admit('k', t0).ok).toBe(true);
    expect(plan.admit('k', t0)).toEqual({ ok: false, reason: 'throttle', retryAfterSeconds: 1 });
    expect(plan.admit('k', new Date(t0.getTime() + 500)).ok).toBe(true);
  });
  it("the stage's plan takes a 500-request burst, 50 a second after it, and refuses the 501st at once", () => {
    expect(DEFAULT_RATE_LIMITS).toEqual({
      quotaPerDay: 48_000,
      throttleRatePerSecond: 50,
      throttleBurst: 500,
    });
    const plan = new LocalUsagePlan('p', {
      quotaLimit: DEFAULT_RATE_LIMITS.quotaPerDay,
      quotaPeriod: 'DAY',
      rateLimit: DEFAULT_RATE_LIMITS.throttleRatePerSecond,
      burstLimit: DEFAULT_RATE_LIMITS.throttleBurst,
    });
    const t0 = new Date('2026-01-01T10:00:00Z');
    const admitted = (n: number, at: Date) =>
      Array.from({ length: n }, () => plan.admit('k', at)).filter((a) => a.ok).length;
    expect(admitted(500, t0)).toBe(500);
    expect(plan.admit('k', t0)).toEqual({ ok: false, reason: 'throttle', retryAfterSeconds: 1 });
    expect(admitted(60, new Date(t0.getTime() + 1000))).toBe(50);
  });
  it('stops at the quota until the period starts over', () => {
    const plan = new LocalUsagePlan('p', {
      quotaLimit: 2,
      quotaPeriod: 'DAY',
      rateLimit: 100,
      burstLimit: 100,
    });
    const t = new Date('2026-01-01T23:59:00Z');
    plan.admit('k', t);
    plan.admit('k', t);
    expect(plan.usage('k', t)).toEqual([2, 0]);
    expect(plan.admit('k', t)).toEqual({ ok: false, reason: 'quota', retryAfterSeconds: 60 });
    expect(plan.admit('k', new Date('2026-01-02T00:00:01Z')).ok).toBe(true);
  });
});

describe('quota periods', () => {
  it('follow the UTC calendar', () => {
    const now = new Date('2026-11-18T15:30:00Z'); // a Wednesday
    expect(periodBounds('DAY', now).end.toISOString()).toBe('2026-11-19T00:00:00.000Z');
    expect(periodBounds('WEEK', now).start.toISOString()).toBe('2026-11-16T00:00:00.000Z');
    expect(periodBounds('MONTH', now).end.toISOString()).toBe('2026-12-01T00:00:00.000Z');
  });
});

describe('usage cached for the rate limit headers', () => {
  const read = (remaining: number): TUsage => ({ limit: 100, remaining, reset: 600, window: 86_400 });

  it('reads once per key and cache time, counting the requests it answered meanwhile', async () => {
    let now = new Date('2026-01-01T23:50:00Z');
    let reads = 0;
    let remaining = 90;
    const reader = cachedUsageReader(
      {
        usageFor: async () => {
          reads += 1;
          return read(remaining);
        },
      },
      { now: () => now },
      10_000,
    );
    expect(await reader.usageFor('k')).toEqual(read(90));
    now = new Date(now.getTime() + 4_000);
    expect(await reader.usageFor('k')).toEqual({ limit: 100, remaining: 89, reset: 596, window: 86_400 });
    expect(await reader.usageFor('k')).toMatchObject({ remaining: 88 });
    expect(reads).toBe(1);
    // Another key has its own entry.
    await reader.usageFor('other');
    expect(reads).toBe(2);
    // Past the cache time the plan's own figure wins again.
    remaining = 70;
    now = new Date(now.getTime() + 6_000);
    expect(await reader.usageFor('k')).toEqual(read(70));
    expect(reads).toBe(3);
  });

  it('never reports below zero, and reads afresh once the quota day is over', async () => {
    let now = new Date('2026-01-01T23:59:58Z');
    let reads = 0;
    const reader = cachedUsageReader(
      {
        usageFor: async () => {
          reads += 1;
          return { limit: 100, remaining: 1, reset: 2, window: 86_400 };
        },
      },
      { now: () => now },
      10_000,
    );
    await reader.usageFor('k');
    expect(await reader.usageFor('k')).toMatchObject({ remaining: 0 });
    expect(await reader.usageFor('k')).toMatchObject({ remaining: 0 });
    now = new Date('2026-01-02T00:00:01Z');
    await reader.usageFor('k');
    expect(reads).toBe(2);
  });
});
