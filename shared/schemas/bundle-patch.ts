import * as z from 'zod';
import { zBoolean, zList, zText } from './common';
import { zInt } from './field';
import { isIsoDate } from './vocabulary';

const days = zInt.pipe(z.number().min(0, 'Between 0 and 30 days.').max(30, 'Between 0 and 30 days.'));
/** null clears, as the spec says for team, owner and signing_brand. */
const uuidOrNull = z.union([z.uuid('Must be a valid UUID.'), z.null()]);

export const ZBundlePatchSchema = z.object({
  // This service's own: the sender's name for the bundle, as given when it was created ("" clears it).
  label: zText(255).optional(),
  team: uuidOrNull.optional(),
  expires: z
    .string()
    .refine(
      // A real calendar date, or a date-time that starts with one.
      (v) =>
        /^\d{4}-\d{2}-\d{2}$/.test(v)
          ? isIsoDate(v)
          : isIsoDate(v.slice(0, 10)) && !Number.isNaN(Date.parse(v)),
      'An ISO 8601 date-time or YYYY-MM-DD.',
    )
    .optional(),
  cc_sender: zBoolean.optional(),
  cc_emails: zList(z.email('Enter a valid email address.').max(254), { max: 20 }).optional(),
  send_reminders: zBoolean.optional(),
  reminder_offset: days.optional(),
  reminder_interval: days.optional(),
  reminder_expires: days.optional(),
  owner: uuidOrNull.optional(),
  signing_brand: uuidOrNull.optional(),
});

export type TBundlePatch = z.output<typeof ZBundlePatchSchema>;
