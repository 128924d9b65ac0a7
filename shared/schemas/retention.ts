// A retention policy as the API and the operator's command take it, and the retention state of
// a bundle as they answer it (shared/domain/bundles/retention.ts).
import * as z from 'zod';

/** At most a century: a longer wait is "keep", which leaving the part out says. */
export const RETENTION_MAX_DAYS = 36_500;

const days = z
  .int('Days are a whole number.')
  .min(0, 'Days are 0 or more.')
  .max(RETENTION_MAX_DAYS, `Days are at most ${RETENTION_MAX_DAYS}; leave the part out to keep it.`)
  .nullable()
  .optional();

/** PUT /account/retention/: the whole policy; a part left out or null is kept for ever. */
export const ZRetentionPolicySchema = z.strictObject({
  originals_days: days,
  finals_days: days,
  images_days: days,
});
