import type { TConfig } from '#shared/config';
import type { TUsage, TUsageReader } from '#shared/domain/ports/accounts';
import type { TClock } from '#shared/domain/ports/system';
import { systemClock } from '../system';
import { usageReaderFor } from './usage-reader';

/** How long one read of a key's usage serves the rate limit headers of its later requests. */
export const RATE_LIMIT_CACHE_MS = 10_000;

interface TEntry {
  usage: TUsage;
  readAt: number;
  /** Requests answered from this entry since it was read. */
  served: number;
}

/**
 * A key's usage read at most once per `ttlMs` (and afresh when its quota period has ended), so
 * the rate limit headers on every answer cost no API Gateway call per request. Between reads,
 * each request this instance answers for the key takes one off Remaining: exact while one
 * instance serves the key (as locally), and on AWS behind by what other Lambda instances served
 * in the meantime, at most the cache time.
 */
export function cachedUsageReader(
  reader: TUsageReader,
  clock: TClock,
  ttlMs = RATE_LIMIT_CACHE_MS,
): TUsageReader {
  const entries = new Map<string, TEntry>();
  return {
    async usageFor(usageKeyId) {
      const now = clock.now().getTime();
      const hit = entries.get(usageKeyId);
      if (hit) {
        const elapsedMs = now - hit.readAt;
        if (elapsedMs < ttlMs && elapsedMs < hit.usage.reset * 1000) {
          hit.served += 1;
          return {
            ...hit.usage,
            remaining: Math.max(0, hit.usage.remaining - hit.served),
            reset: Math.max(0, Math.ceil(hit.usage.reset - elapsedMs / 1000)),
          };
        }
      }
      const usage = await reader.usageFor(usageKeyId);
      // Keys are few per instance; the bound only guards memory against a flood of them.
      if (entries.size >= 10_000) entries.clear();
      entries.set(usageKeyId, { usage, readAt: now, served: 0 });
      return usage;
    },
  };
}

/** What a keyed API Lambda's rate limit headers read: its usage plan, cached as above. */
export function rateLimitUsageFor(config: TConfig): TUsageReader {
  return cachedUsageReader(usageReaderFor(config), systemClock);
}
