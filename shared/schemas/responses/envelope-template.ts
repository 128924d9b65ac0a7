// An Envelope Template as the API answers it: the spec's, plus this service's own settings.
import * as z from 'zod';
import { PACKET_ROLES } from '../vocabulary';

export const ZEnvelopeTemplateResponseSchema = z
  .object({
    id: z.string(),
    created: z.string(),
    name: z.string(),
    description: z.string(),
    is_shared: z.boolean(),
    is_portal: z.boolean(),
    allow_direct_signing: z.boolean(),
    enabled: z.boolean(),
    documents: z.array(
      z.object({ key: z.string(), name: z.string(), order: z.number().int(), template_id: z.string() }),
    ),
    signers: z.array(
      z.object({
        key: z.string(),
        label: z.string(),
        order: z.number().int(),
        auth_sms: z.boolean(),
        auth_selfie: z.boolean(),
        auth_id: z.boolean(),
        // This service's own: the language of this role's signers, null when the role names none.
        language: z.string().nullable(),
        role: z
          .enum(PACKET_ROLES)
          .describe(
            "This service's own: the packet `role` of the people who fill this signer role (`signer` unless the template names another).",
          ),
      }),
    ),
    label: z.string(),
    email_subject: z.string(),
    email_message: z.string(),
    sms_message: z.string(),
    in_order: z.boolean(),
    send_reminders: z.boolean(),
    reminder_offset: z.number().int().nullable(),
    reminder_interval: z.number().int().nullable(),
    reminder_expires: z.number().int().nullable(),
    /** Empty unless the template is an enabled portal that allows direct signing. */
    smart_link_url: z.string(),
  })
  .meta({ id: 'EnvelopeTemplate' });

export type TEnvelopeTemplateResponse = z.output<typeof ZEnvelopeTemplateResponseSchema>;
