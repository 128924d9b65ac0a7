import * as z from 'zod';
import { optional, zJsonObject, zList, zText } from './common';

export const PERSON_LIMITS = {
  name: 255,
  email: 254,
  phone: 128,
  channels: 50,
  /** metadata, serialized as JSON */
  metadataBytes: 16 * 1024,
} as const;

const phonePattern = /^\+?[0-9][0-9 ().-]*$/;

/** A phone number as a person's channel holds it (and an erasure names one). */
export const zPhoneNumber = zText(PERSON_LIMITS.phone)
  .regex(phonePattern, 'Enter a valid phone number.')
  .refine((p) => p.replace(/\D/g, '').length >= 4, 'Enter a valid phone number.');

export const ZChannelInputSchema = z
  .object({
    id: optional(z.uuid('Must be a valid UUID.')),
    email: optional(z.email('Enter a valid email address.').max(PERSON_LIMITS.email)),
    phone: optional(zPhoneNumber),
    kind: optional(z.enum(['em', 'mp'])),
  })
  .superRefine((c, ctx) => {
    if (!c.email && !c.phone) {
      ctx.addIssue({ code: 'custom', message: 'A channel needs an email or a phone.', path: ['email'] });
    } else if (c.email && c.phone) {
      ctx.addIssue({
        code: 'custom',
        message: 'A channel has an email or a phone, not both.',
        path: ['phone'],
      });
    } else if (c.kind && c.kind !== (c.email ? 'em' : 'mp')) {
      // The kind follows from what is given; a contradicting kind is a client bug worth reporting.
      ctx.addIssue({
        code: 'custom',
        message: `Kind "${c.kind}" does not match the value given.`,
        path: ['kind'],
      });
    }
  });

export type TChannelInput = z.output<typeof ZChannelInputSchema>;

const name = zText(PERSON_LIMITS.name).trim().min(1, 'This field may not be blank.');
const metadata = zJsonObject(PERSON_LIMITS.metadataBytes);
const channels = zList(ZChannelInputSchema).refine((l) => l.length <= PERSON_LIMITS.channels, {
  message: `Ensure this list has at most ${PERSON_LIMITS.channels} channels.`,
});

/** POST and PUT: the whole person. */
export const ZPersonWriteSchema = z.object({
  name,
  metadata: optional(metadata),
  channels: optional(channels),
});

/** PATCH: anything given is changed, anything left out stays. */
export const ZPersonPatchSchema = z.object({
  name: name.optional(),
  metadata: optional(metadata),
  channels: optional(channels),
});

export type TPersonWrite = z.output<typeof ZPersonWriteSchema>;
export type TPersonPatch = z.output<typeof ZPersonPatchSchema>;

export const ZPersonFilterSchema = z.object({
  search: optional(zText(200)),
  email: optional(zText(PERSON_LIMITS.email)),
  phone: optional(zText(PERSON_LIMITS.phone)),
});
