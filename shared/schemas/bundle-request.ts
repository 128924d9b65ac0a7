import * as z from 'zod';
import { optional, zBoolean, zList, zText } from './common';
import {
  FORM_FIELD_EDITORS_DESCRIPTION,
  FORM_FIELDS_DESCRIPTION,
  TEXT_TAGS_DESCRIPTION,
  ZAutoPlacementRequestSchema,
  ZFieldRequestSchema,
  zInt,
  zKey,
} from './field';
import { ZLanguageSchema } from './language';
import { PERSON_LIMITS } from './person';
import { DELIVER_VIA, PACKET_ROLES } from './vocabulary';

/** Limits the spec leaves open, decided here and documented in ARCHITECTURE.md. */
export const BUNDLE_LIMITS = {
  packets: 20,
  documents: 20,
  fieldsPerDocument: 300,
  autoPlacementsPerDocument: 50,
  ccEmails: 20,
  tags: 50,
  tagLength: 100,
  /** Bytes of one document, however it arrives. */
  documentBytes: 25 * 1024 * 1024,
  /** Bytes of all documents of one bundle. */
  bundleBytes: 100 * 1024 * 1024,
  pagesPerDocument: 500,
  /** A Lambda request body cannot exceed 6 MB on AWS; the same limit applies locally. */
  requestBytes: 6 * 1024 * 1024,
} as const;

const email = z.email('Enter a valid email address.').max(254);
const phone = zText(PERSON_LIMITS.phone).regex(/^\+?[0-9][0-9 ().-]*$/, 'Enter a valid phone number.');

export const ZPacketRequestSchema = z.object({
  name: zText(255).trim().min(1, 'This field may not be blank.'),
  email: optional(email),
  phone: optional(phone),
  auth_sms: optional(zBoolean),
  auth_selfie: optional(zBoolean),
  auth_id: optional(zBoolean),
  suppress_all: optional(zBoolean),
  suppress_docs_ready: optional(zBoolean),
  suppress_signing: optional(zBoolean),
  suppress_reminder: optional(zBoolean),
  key: optional(zKey(2, 20)),
  person_id: optional(z.uuid('Must be a valid UUID.')),
  // `kiosk` is this service's own: signed in person on the sender's device.
  deliver_via: optional(z.enum(DELIVER_VIA, `Must be one of ${DELIVER_VIA.join(', ')}.`)),
  order: optional(zInt.pipe(z.number().min(0).max(1000))),
  email_message: optional(zText(5000)),
  sms_message: optional(zText(1000)),
  // This service's own: the language of the signer's pages and messages (else the bundle's).
  language: optional(ZLanguageSchema),
  // This service's own: the signer may hand their packet to another person (default false).
  allow_reassign: optional(zBoolean),
  role: optional(
    z
      .enum(PACKET_ROLES, `Must be one of ${PACKET_ROLES.join(', ')}.`)
      .describe(
        "This service's own. `signer` (the default) fills and signs. `approver` reads everything and approves, or rejects with a reason: a rejection ends the bundle as a decline does (webhooks see `packet_declined` and `bundle_cancelled`). `viewer` gets a link when their step comes and only reads: they are done once they open it. Approvers and viewers fill nothing, so no field may name them among its `editors`; a field without editors belongs to the signers. With `in_order`, packets sharing an `order` are one step, whatever their roles.",
      ),
  ),
});

/** Form field name (or "*") → the signer who fills it, or null to leave the field in the form. */
export const ZFormFieldEditorsSchema = z
  .record(zText(1000), z.union([zKey(2, 20), z.null()]))
  .refine((m) => Object.keys(m).length <= BUNDLE_LIMITS.fieldsPerDocument + 1, {
    message: `At most ${BUNDLE_LIMITS.fieldsPerDocument} form fields.`,
  });

export const ZDocumentRequestSchema = z.object({
  key: optional(zKey(2, 12)),
  name: optional(zText(255)),
  file_url: optional(
    zText(2048).describe(
      "An https URL the service downloads the document from: a PDF, or a JPEG or PNG image, which becomes a one-page PDF fitted to the account's page size (A4 or Letter) the right way up. The local runtime also takes http URLs and addresses on its own machine.",
    ),
  ),
  file_b64: optional(
    z
      .string()
      .describe(
        'The document, base64-encoded: a PDF, or a JPEG or PNG image (made a one-page PDF as for file_url).',
      ),
  ),
  file_index: optional(
    zInt
      .pipe(z.number().min(0).max(1000))
      .describe('With multipart: the document is the part `files[<file_index>]`, a PDF, JPEG or PNG.'),
  ),
  fields: optional(zList(ZFieldRequestSchema)),
  auto_placements: optional(zList(ZAutoPlacementRequestSchema)),
  text_tags: optional(zBoolean.describe(TEXT_TAGS_DESCRIPTION)),
  form_fields: optional(zBoolean.describe(FORM_FIELDS_DESCRIPTION)),
  form_field_editors: optional(ZFormFieldEditorsSchema.describe(FORM_FIELD_EDITORS_DESCRIPTION)),
  converted_adobe_fields_to: optional(zText(10)),
});

export const ZTemplateRequestSchema = z.object({
  key: optional(zKey(2, 12)),
  template_id: z.union([z.string(), z.number()]).transform(String),
  assignments: zList(z.object({ role: zText(100), signer: zKey(2, 20) })),
  field_values: optional(zList(z.object({ key: zText(100), initial_value: zText(10_000) }))),
});

/**
 * The payment methods a bundle may offer its billed signer (Stripe's names). us_bank_account
 * needs the currency usd and sepa_debit eur (create-bundle checks against the account's payout
 * currency).
 */
export const PAYMENT_METHOD_TYPES = ['card', 'us_bank_account', 'sepa_debit'] as const;

export const ZPaymentRequestSchema = z.object({
  billed_to: zKey(2, 20),
  // In the currency's smallest unit; Stripe takes at most eight digits.
  amount_due: zInt.pipe(z.number().min(1).max(99_999_999)),
  payment_method_types: optional(
    zList(
      z.enum(PAYMENT_METHOD_TYPES, {
        message: `Must be one of ${PAYMENT_METHOD_TYPES.join(', ')}.`,
      }),
      { min: 1, max: PAYMENT_METHOD_TYPES.length },
    ),
  ),
});

/** At most this many names in a bundle's `data`; each value as long as an initial value. */
export const DATA_LIMITS = { names: 500, nameLength: 255, valueLength: 10_000 } as const;

/**
 * This service's own: values for the bundle's fields, by field key or label (prefill.ts decides
 * which fields a name fills). Numbers and booleans are taken as their text.
 */
export const ZBundleDataSchema = z
  .preprocess(
    (v, ctx) => {
      // Each name checked here, said plainly on `data.<name>`; a record would drop `__proto__`
      // without a word, and a name must never be ignored.
      if (v && typeof v === 'object' && !Array.isArray(v))
        for (const name of Object.keys(v)) {
          const problem =
            name.trim() === ''
              ? 'A name may not be blank.'
              : name.length > DATA_LIMITS.nameLength
                ? `A name has at most ${DATA_LIMITS.nameLength} characters.`
                : name === '__proto__'
                  ? 'No field has the key or the label "__proto__".'
                  : undefined;
          if (problem) ctx.addIssue({ code: 'custom', message: problem, path: [name] });
        }
      return v;
    },
    z.record(
      z.string(),
      z
        .union(
          [zText(DATA_LIMITS.valueLength), z.number(), z.boolean()],
          'Give text, a number or true/false.',
        )
        .transform(String),
    ),
  )
  .refine((d) => Object.keys(d).length <= DATA_LIMITS.names, `At most ${DATA_LIMITS.names} names.`)
  .describe(
    "This service's own: values for the bundle's fields, each name a field's `key` or `label`, each value what the field gets as its `initial_value`. A name that is some field's key fills the fields of that key (one per document at most) and is never read as a label; otherwise it fills every field whose label it is (case and surrounding spaces aside). A name no field has, or two names reaching one field, is a 400 on `data.<name>`, and each value is checked by the rules of the fields it fills, as a signer's value would be. A value in `data` wins over the field's own `initial_value` and over `field_values`.",
  );

export const ZBundleRequestSchema = z.object({
  label: optional(zText(255)),
  in_order: optional(
    zBoolean.describe(
      'Sign in `order`: packets that share an `order` are one step, sent their requests together; the next step starts once every packet of the step is done. For example `order` 1 for Ann and Bob and 2 for Dan: Ann and Bob sign side by side, and Dan is asked once both have signed. Each email request and Certificate of Evidence says the step ("Step 2 of 3, alongside …").',
    ),
  ),
  email_subject: optional(zText(400)),
  email_message: optional(zText(5000)),
  sms_message: optional(zText(1000)),
  requester_name: optional(zText(255)),
  requester_email: optional(email),
  cc_emails: optional(zList(email).pipe(z.array(z.string()).max(BUNDLE_LIMITS.ccEmails))),
  custom_key: optional(zText(200)),
  team: optional(z.uuid('Must be a valid UUID.')),
  is_test: optional(zBoolean),
  // This service's own: the language of signers whose packet names none.
  language: optional(ZLanguageSchema),
  // '' sends the bundle; null and absent mean the same (see `optional`).
  status: z.preprocess((v) => (v === null || v === undefined ? '' : v), z.enum(['', 'dr'])),
  payment: optional(ZPaymentRequestSchema),
  data: optional(ZBundleDataSchema),
  packets: zList(ZPacketRequestSchema, {
    min: 1,
    max: BUNDLE_LIMITS.packets,
    minMessage: 'A bundle needs at least one signer.',
  }),
  // Each item is a DocumentRequest or a TemplateRequest; create-bundle parses them one by one
  // so that errors name the item (`documents[1].fields[0].page`).
  documents: zList(z.record(z.string(), z.unknown()), {
    min: 1,
    max: BUNDLE_LIMITS.documents,
    minMessage: 'A bundle needs at least one document.',
  }),
});

export type TBundleRequest = z.output<typeof ZBundleRequestSchema>;
export type TPacketRequest = z.output<typeof ZPacketRequestSchema>;
export type TDocumentRequest = z.output<typeof ZDocumentRequestSchema>;
export type TTemplateRequest = z.output<typeof ZTemplateRequestSchema>;

/** The envelope-template part of a create request (spec: template_id and field_values). */
export const ZEnvelopeTemplateRequestSchema = z.object({
  template_id: zText(100).min(1, 'This field may not be blank.'),
  field_values: optional(zList(z.object({ key: zText(100), initial_value: zText(10_000) }))),
});
