// GET rate_limit/: the key's daily quota, as the X-RateLimit-* headers of every keyed answer.
import * as z from 'zod';

export const ZRateLimitResponseSchema = z
  .object({
    limit: z.number().int(),
    remaining: z.number().int(),
    /** Seconds until the quota day ends (UTC). */
    reset: z.number().int(),
    /** The quota's window in seconds (a day). */
    window: z.number().int(),
  })
  .meta({ id: 'RateLimit' });
