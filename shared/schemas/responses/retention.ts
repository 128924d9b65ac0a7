// The retention answers: the account's policy, and a bundle's retention (shared/domain/bundles/retention.ts).
import * as z from 'zod';

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
