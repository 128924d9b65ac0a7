import * as z from 'zod';
import { optional, zBoolean, zText } from './common';
import { ZLanguageSchema } from './language';
import { PERSON_LIMITS } from './person';

export const ZPacketPatchSchema = z.object({
  name: zText(255).trim().min(1, 'This field may not be blank.').optional(),
  email: optional(z.email('Enter a valid email address.').max(254)),
  phone: optional(zText(PERSON_LIMITS.phone).regex(/^\+?[0-9][0-9 ().-]*$/, 'Enter a valid phone number.')),
  auth_sms: zBoolean.optional(),
  auth_selfie: zBoolean.optional(),
  auth_id: zBoolean.optional(),
  signing_complete_redirect: optional(
    z.url({ protocol: /^https?$/, error: 'Enter a valid http(s) URL.' }).max(400),
  ),
  suppress_all: zBoolean.optional(),
  suppress_docs_ready: zBoolean.optional(),
  suppress_signing: zBoolean.optional(),
  suppress_reminder: zBoolean.optional(),
  // Embedded signing is chosen at creation; a packet can move to email, phone or in person (kiosk,
  // this service's own).
  deliver_via: z.enum(['email', 'phone', 'kiosk'], 'One of email, phone or kiosk.').optional(),
  // This service's own: the signer's language from now on (pages and the messages still to come).
  language: ZLanguageSchema.optional(),
  // This service's own: whether the signer may hand their packet to another person.
  allow_reassign: zBoolean.optional(),
});

export type TPacketPatch = z.output<typeof ZPacketPatchSchema>;
