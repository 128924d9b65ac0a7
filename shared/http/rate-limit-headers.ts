import type { TUsage } from '#shared/domain/ports/accounts';

/**
 * The key's daily quota window, as GET /rate_limit/ reports it: Limit the quota, Remaining what
 * is left of it today, Reset the seconds until the quota day ends (UTC). The throttle's bucket is
 * not shown: it refills within seconds, and a throttled answer says so with Retry-After.
 */
export function rateLimitHeaders(usage: TUsage): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(usage.limit),
    'X-RateLimit-Remaining': String(usage.remaining),
    'X-RateLimit-Reset': String(usage.reset),
  };
}
