// The wire shape of a bundle, its packets, events, data and files as the API answers them. The
// mappers of shared/responses/bundle.ts are typed by these schemas, so the published API
// description (shared/openapi) and the answers cannot drift apart without the typecheck noticing.
import * as z from 'zod';
import { BUNDLE_STATUSES } from '../bundle-list-query';
import { DELIVER_VIA, PACKET_ROLES } from '../vocabulary';

const timestamp = z.string().meta({ format: 'date-time' });
const nullableText = z.string().nullable();

export const ZPacketResponseSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    phone: z.string(),
    auth_sms: z.boolean(),
    auth_selfie: z.boolean(),
    auth_id: z.boolean(),
    suppress_all: z.boolean(),
    suppress_docs_ready: z.boolean(),
    suppress_signing: z.boolean(),
    suppress_reminder: z.boolean(),
    person_id: z.string(),
    deliver_via: z.enum(DELIVER_VIA),
    order: z.number().int(),
    // The two-letter codes of docs/api-decisions.md ("Enumerations").
    status: z.string(),
    completed_at: timestamp.nullable(),
    last_accessed_at: timestamp.nullable(),
    signing_complete_redirect: z.string(),
    // This service's own field: the signer's language as the sender set it (an IETF tag).
    language: nullableText,
    // This service's own field: whether the signer may hand their packet to another person.
    allow_reassign: z.boolean(),
    // This service's own field, only when the request named a role (packet-roles.ts).
    role: z.enum(PACKET_ROLES).optional(),
  })
  .meta({ id: 'Packet' });

export const ZBundleEventResponseSchema = z
  .object({
    kind: z.string(),
    description: z.string(),
    timestamp,
    packet_id: nullableText,
    // This service's own, only with `include_actor=true`: who acted (actor.ts), with a name where
    // the service knows one (a signer's, a user's); null for events recorded before actors were.
    actor: z
      .object({
        type: z.enum(['signer', 'api_key', 'user', 'portal', 'operator', 'scheduler', 'system']),
        id: nullableText.meta({
          description: "The packet's id for a signer, the key's, user's or portal template's id; else null.",
        }),
        name: nullableText.meta({ description: "The signer's or the user's name, where known." }),
      })
      .nullable()
      .optional(),
  })
  .meta({ id: 'BundleEvent' });

const ZPaymentResponseSchema = z.object({
  billed_to: z.string(),
  amount_due: z.number().int(),
  currency: nullableText,
  payment_method_types: z.array(z.string()),
  status: z.enum(['due', 'paid', 'failed', 'refunded']),
  reference: nullableText,
});

export const ZBundleResponseSchema = z
  .object({
    id: z.string(),
    label: z.string(),
    in_order: z.boolean(),
    email_subject: z.string(),
    email_message: z.string(),
    sms_message: z.string(),
    requester_name: z.string(),
    requester_email: z.string(),
    cc_emails: z.array(z.string()),
    custom_key: z.string(),
    team: nullableText,
    is_test: z.boolean(),
    status: z.enum(BUNDLE_STATUSES),
    payment: ZPaymentResponseSchema.nullable(),
    created: timestamp,
    sent: timestamp.nullable(),
    completed_at: timestamp.nullable(),
    docs_ready: z.boolean(),
    errors: z.array(z.object({ code: z.string(), message: z.string() })),
    packets: z.array(ZPacketResponseSchema),
    documents: z.array(z.object({ template_id: nullableText, key: z.string(), name: z.string() })),
    tags: z.array(z.string()),
    expires: nullableText,
    cc_sender: z.boolean(),
    send_reminders: z.boolean(),
    reminder_offset: z.number().int().nullable(),
    reminder_interval: z.number().int().nullable(),
    reminder_expires: z.number().int().nullable(),
    owner: nullableText,
    signing_brand: nullableText,
    // This service's own field: the signers' language unless a packet sets its own.
    language: nullableText,
  })
  .meta({ id: 'Bundle' });

/** One field's value (GET data/, `include=data`). */
export const ZBundleDataItemSchema = z
  .object({
    doc_key: z.string(),
    field_key: z.string(),
    label: z.string(),
    kind: z.string(),
    value: z.string(),
    filled_by: z.string(),
    packet_id: nullableText,
    attachments: z.array(
      z.object({
        url: z.string(),
        name: z.string(),
        size: z.number().int(),
        num: z.number().int(),
        ext: z.string(),
        is_image: z.boolean(),
      }),
    ),
  })
  .meta({ id: 'BundleDataItem' });

/** A time-limited link to one of the bundle's files (GET files/, `include=files`). */
export const ZBundleFileItemSchema = z
  .object({
    file_url: z.string(),
    expires: timestamp,
    doc_key: z.string(),
    kind: z.enum(['final', 'attachment', 'certificate', 'interim', 'original']),
    name: z.string(),
    sha256: z.string().optional(),
    field_key: z.string().optional(),
    packet_id: z.string().optional(),
    generated_at: timestamp.optional(),
  })
  .meta({ id: 'BundleFileItem' });

/** GET bundles/{id}/ with `include=`: the bundle and each extra named, data and files null while unavailable. */
export const ZBundleWithExtrasResponseSchema = ZBundleResponseSchema.extend({
  events: z.array(ZBundleEventResponseSchema).optional(),
  data: z.array(ZBundleDataItemSchema).nullable().optional(),
  files: z.array(ZBundleFileItemSchema).nullable().optional(),
}).meta({ id: 'BundleWithExtras' });

export const ZValidateDraftResponseSchema = z
  .object({ can_send: z.boolean(), msg: z.string(), n_docs: z.number().int() })
  .meta({ id: 'ValidateDraft' });

export const ZInterimFilesResponseSchema = z
  .object({ detail: z.string() })
  .meta({ id: 'InterimFilesAccepted' });

export const ZEmbedUrlResponseSchema = z
  .object({ url: z.string(), expires: timestamp })
  .meta({ id: 'EmbedUrl' });

export const ZCoeResponseSchema = z
  .object({ file_url: z.string(), expires: timestamp, sha256: z.string() })
  .meta({ id: 'CertificateOfEvidence' });

/** POST verify/: is this a file the service sealed for the caller's account? */
export const ZVerifyResponseSchema = z
  .object({
    match: z.boolean(),
    kind: z.enum(['final', 'certificate']).nullable(),
    sha256: z.string(),
    bundle: z
      .object({ id: z.string(), label: z.string(), status: z.string(), completed_at: nullableText })
      .nullable(),
    doc_key: nullableText,
    packet_id: nullableText,
    issued_at: nullableText,
    signers: z.array(
      z.object({
        packet_id: z.string(),
        key: z.string(),
        name: z.string(),
        email: nullableText,
        phone: nullableText,
        status: z.string(),
        completed_at: nullableText,
      }),
    ),
    audit_chain_intact: z.boolean().nullable(),
    sealed: z.boolean(),
    // When the account's retention policy deleted the file (the hash and the record stay).
    content_deleted_at: nullableText,
    // The offline verifier's report (esign-verify), described in docs rather than here.
    checks: z.record(z.string(), z.unknown()).nullable(),
  })
  .meta({ id: 'VerifyAnswer' });

export type TPacketResponse = z.output<typeof ZPacketResponseSchema>;
export type TBundleEventResponse = z.output<typeof ZBundleEventResponseSchema>;
export type TBundleResponse = z.output<typeof ZBundleResponseSchema>;
