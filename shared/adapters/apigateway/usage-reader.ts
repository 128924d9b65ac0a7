import { type APIGatewayClient, GetUsageCommand, GetUsagePlanCommand } from '@aws-sdk/client-api-gateway';
import type { TConfig } from '#shared/config';
import type { TUsage, TUsageReader } from '#shared/domain/ports/accounts';
import type { TClock } from '#shared/domain/ports/system';
import { createApiGatewayClient } from '../aws/clients';
import { systemClock } from '../system';

const DAY = 86_400;

interface TQuota {
  limit: number;
  period: string;
}

/** When the quota period that contains `now` ends (UTC, API Gateway's own calendar). */
export function periodBounds(period: string, now: Date): { start: Date; end: Date } {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  const d = now.getUTCDate();
  if (period === 'MONTH') return { start: new Date(Date.UTC(y, m, 1)), end: new Date(Date.UTC(y, m + 1, 1)) };
  if (period === 'WEEK') {
    const sinceMonday = (now.getUTCDay() + 6) % 7;
    const start = new Date(Date.UTC(y, m, d - sinceMonday));
    return { start, end: new Date(start.getTime() + 7 * DAY * 1000) };
  }
  return { start: new Date(Date.UTC(y, m, d)), end: new Date(Date.UTC(y, m, d + 1)) };
}

const ymd = (d: Date) => d.toISOString().slice(0, 10);

/** A key's standing at `now`: what is left of `limit` and when its quota period ends. */
export function usageAt(limit: number, remaining: number, period: string, now: Date): TUsage {
  const { start, end } = periodBounds(period, now);
  return {
    limit,
    remaining: Math.max(0, remaining),
    reset: Math.max(0, Math.ceil((end.getTime() - now.getTime()) / 1000)),
    window: Math.round((end.getTime() - start.getTime()) / 1000),
  };
}

/**
 * Reads the caller's standing from API Gateway's usage plan: the quota from the plan, what is
 * left from GetUsage. The plan rarely changes, so it is cached for a few minutes.
 */
export function createApiGatewayUsageReader(
  client: APIGatewayClient,
  usagePlanId: string,
  clock: TClock,
  planTtlMs = 300_000,
): TUsageReader {
  let cached: { quota: TQuota; at: number } | undefined;

  async function quota(): Promise<TQuota> {
    const now = clock.now().getTime();
    if (cached && now - cached.at < planTtlMs) return cached.quota;
    const plan = await client.send(new GetUsagePlanCommand({ usagePlanId }));
    const q: TQuota = { limit: plan.quota?.limit ?? 0, period: plan.quota?.period ?? 'DAY' };
    cached = { quota: q, at: now };
    return q;
  }

  return {
    async usageFor(usageKeyId: string): Promise<TUsage> {
      const now = clock.now();
      const q = await quota();
      const usage = await client.send(
        new GetUsageCommand({ usagePlanId, keyId: usageKeyId, startDate: ymd(now), endDate: ymd(now) }),
      );
      const days = usage.items?.[usageKeyId] ?? [];
      const remaining = days.length > 0 ? Number(days[days.length - 1]![1]) : q.limit;
      return usageAt(q.limit, remaining, q.period, now);
    },
  };
}

/** The reader of the Lambda's own usage plan (USAGE_PLAN_ID), through API Gateway's API. */
export function usageReaderFor(config: TConfig): TUsageReader {
  return createApiGatewayUsageReader(createApiGatewayClient(config), config.usagePlanId, systemClock);
}
