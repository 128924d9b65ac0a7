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

const nullableDays = z.number().nullable();
const nullableAt = z.string().nullable();

export const ZRetentionPolicyResponseSchema = z
  .object({ originals_days: nullableDays, finals_days: nullableDays, images_days: nullableDays })
  .meta({ id: 'RetentionPolicy' });

/** A bundle's retention: its policy, its legal hold and when each part was deleted. */
export const ZBundleRetentionResponseSchema = z
  .object({
    bundle_id: z.string(),
    policy: ZRetentionPolicyResponseSchema.nullable(),
    legal_hold: z.object({ set_at: z.string(), set_by: z.string() }).nullable(),
    deleted: z.object({ originals: nullableAt, finals: nullableAt, images: nullableAt }),
  })
  .meta({ id: 'BundleRetention' });

export type TRetentionPolicyResponse = z.output<typeof ZRetentionPolicyResponseSchema>;
export type TBundleRetentionResponse = z.output<typeof ZBundleRetentionResponseSchema>;
