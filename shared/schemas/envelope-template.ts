import * as z from 'zod';
import { BUNDLE_LIMITS } from './bundle-request';
import { optional, zBoolean, zList, zText } from './common';
import { zInt, zKey } from './field';
import { ZLanguageSchema } from './language';
import { PACKET_ROLES } from './vocabulary';

const days = zInt.pipe(z.number().min(0, 'Between 0 and 30 days.').max(30, 'Between 0 and 30 days.'));
const order = zInt.pipe(z.number().min(0).max(1000));

export const ZEnvelopeDocumentSchema = z.object({
  key: optional(zKey(2, 12)),
  template_id: z.uuid('Must be a valid UUID.'),
  name: optional(zText(255)),
  order: optional(order),
});

export const ZEnvelopeSignerSchema = z.object({
  key: zKey(2, 20),
  label: optional(zText(100)),
  order: optional(order),
  auth_sms: optional(zBoolean),
  auth_selfie: optional(zBoolean),
  auth_id: optional(zBoolean),
  // This service's own: the language of the signers who fill this role (their packets' `language`).
  language: optional(ZLanguageSchema),
  role: optional(
    z
      .enum(PACKET_ROLES, `Must be one of ${PACKET_ROLES.join(', ')}.`)
      .describe(
        "This service's own: the packet `role` of the people who fill this signer role (`signer`, the default, `approver` or `viewer`), carried into their packets; a create request's packet `role` wins over it. Approvers and viewers fill nothing, so no field of the envelope's document templates may name this role among its editors.",
      ),
  ),
});

const fields = {
  name: zText(255).trim().min(1, 'This field may not be blank.'),
  description: optional(zText(2000)),
  is_shared: optional(zBoolean),
  is_portal: optional(zBoolean),
  allow_direct_signing: optional(zBoolean),
  enabled: optional(zBoolean),
  documents: zList(ZEnvelopeDocumentSchema, {
    min: 1,
    max: BUNDLE_LIMITS.documents,
    minMessage: 'An envelope template needs at least one document.',
  }),
  signers: zList(ZEnvelopeSignerSchema, {
    min: 1,
    max: BUNDLE_LIMITS.packets,
    minMessage: 'An envelope template needs at least one signer role.',
  }),
  label: optional(zText(255)),
  email_subject: optional(zText(400)),
  email_message: optional(zText(5000)),
  sms_message: optional(zText(1000)),
  in_order: optional(zBoolean),
  send_reminders: optional(zBoolean),
  reminder_offset: optional(days),
  reminder_interval: optional(days),
  reminder_expires: optional(days),
};

/** POST: name, documents and signers required. */
export const ZEnvelopeTemplateWriteSchema = z.object(fields);
/** PATCH: what is given replaces what is stored (documents and signers as whole lists). */
export const ZEnvelopeTemplatePatchSchema = z.object(fields).partial();

export type TEnvelopeTemplateWrite = z.output<typeof ZEnvelopeTemplateWriteSchema>;
export type TEnvelopeTemplatePatch = z.output<typeof ZEnvelopeTemplatePatchSchema>;
