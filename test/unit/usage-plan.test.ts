import { describe, expect, it } from 'vitest';
import { LocalUsagePlan } from '../../infra/local/usage-plan';
import { periodBounds } from '../../shared/adapters/apigateway/usage-reader';

describe('local usage plan', () => {
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
