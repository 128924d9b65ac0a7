import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import { bundleStatus, type TBundleAnswer } from '../bundle-summary';
import type { TEsignApi } from '../esign-api';
import { asTool, MAKES_SOMETHING, toolResult } from '../tool-result';

const percent = z.number().min(0).max(100);

const FIELD_KINDS = {
  sig: 'signature',
  ini: 'initials',
  snm: "the signer's name, filled in",
  sdt: 'the signing date, filled in',
  inp: 'a one-line text input',
  dat: 'a date the signer enters',
  chk: 'a checkbox',
} as const;

export const ZSignerSchema = z.object({
  name: z.string().min(1).max(255).describe("The signer's full name."),
  email: z.string().email().optional().describe('Where the signing request is emailed.'),
  phone: z
    .string()
    .max(128)
    .optional()
    .describe(
      'Mobile number in international form (+1 555 010 3000); texted the request when there is no email.',
    ),
});

/**
 * The agent's own name for one send, passed on as the API's Idempotency-Key: an agent that lost
 * a tool's answer (a dropped connection, a restarted session) can call again without sending twice.
 */
export const ZRequestIdSchema = z
  .string()
  .regex(/^[\x21-\x7e](?:[\x20-\x7e]{0,253}[\x21-\x7e])?$/, 'Use 1 to 255 printable ASCII characters.')
  .optional()
  .describe(
    'Your own unique id for this send, e.g. a UUID. If you are not sure an earlier call went through, ' +
      'call again with the same request_id and the same inputs: the bundle is created only once, and ' +
      'you get its answer.',
  );

const ZCondition = z.object({
  field: z.string().max(32),
  equals: z.string().max(255).optional(),
  not_empty: z.literal(true).optional(),
  one_of: z.array(z.string().max(255)).max(100).optional(),
});
/** Conditions on other fields' values, passed to the API as they are (it checks them). */
const ZConditions = z
  .object({
    all: z.array(ZCondition).optional(),
    any: z.array(ZCondition).optional(),
  })
  .describe(
    'Give `all` (every condition holds) or `any` (one does). Each condition names a field by its `key`: ' +
      '{ "field": "has_pets", "equals": "true" }, { "field": "phone", "not_empty": true } or ' +
      '{ "field": "plan", "one_of": ["Pro", "Team"] }. A checkbox reads "true" when ticked, "false" otherwise.',
  );

/** A signer as the create request takes it: by email when there is one, else by text message. */
export const packetOf = (s: z.output<typeof ZSignerSchema>, key: string) => ({
  key,
  name: s.name,
  ...(s.email ? { email: s.email } : {}),
  ...(s.phone ? { phone: s.phone } : {}),
  ...(!s.email && s.phone ? { deliver_via: 'phone' } : {}),
});

/** A signer of this tool: also their role and, with in_order, their step (packet-roles.ts). */
const ZSendSignerSchema = ZSignerSchema.extend({
  role: z
    .enum(['signer', 'approver', 'viewer'])
    .optional()
    .describe(
      'signer (the default) signs; approver reads and approves or rejects with a reason (a rejection ends the bundle); viewer only reads, done once they open the link. Give fields to signers only.',
    ),
  step: z
    .number()
    .int()
    .min(1)
    .max(1000)
    .optional()
    .describe(
      'With in_order: signers with the same step sign side by side, and the next step starts once all of them are done. Default: each signer is a step of their own, in the order listed.',
    ),
});

const inputSchema = {
  file_base64: z
    .string()
    .optional()
    .describe('The PDF, base64-encoded (requests are limited to 6 MB; use file_url for larger files).'),
  file_url: z
    .string()
    .url()
    .optional()
    .describe(
      'A public https URL the service downloads the PDF from (up to 25 MB). Give this or file_base64.',
    ),
  file_name: z.string().max(255).optional().describe('The document name signers see, e.g. "lease.pdf".'),
  signers: z
    .array(ZSendSignerSchema)
    .min(1)
    .max(20)
    .describe('Who signs, approves or reads, each with an email or a phone.'),
  label: z.string().max(255).optional().describe('A title for the bundle, shown to signers and in lists.'),
  message: z
    .string()
    .max(5000)
    .optional()
    .describe('A message to the signers, included in the signing request email.'),
  email_subject: z.string().max(400).optional().describe('Subject of the signing request email.'),
  in_order: z.boolean().optional().describe('Signers sign one after another, in the order listed.'),
  is_test: z.boolean().optional().describe('A test bundle: marked as not legally binding, not counted.'),
  fields: z
    .array(
      z.object({
        signer: z.number().int().min(1).describe('Which signer fills it: 1 for the first of `signers`.'),
        kind: z
          .enum(Object.keys(FIELD_KINDS) as [keyof typeof FIELD_KINDS])
          .default('sig')
          .describe(
            Object.entries(FIELD_KINDS)
              .map(([k, v]) => `${k} = ${v}`)
              .join(', '),
          ),
        page: z.number().int().min(1).describe('Page number, from 1.'),
        x: percent.describe("Left edge, in percent of the page's width from its left side."),
        y: percent.describe("Top edge, in percent of the page's height from its top."),
        w: percent.describe("Width, in percent of the page's width."),
        h: percent.describe("Height, in percent of the page's height."),
        label: z.string().max(255).optional(),
        required: z.boolean().optional(),
        key: z
          .string()
          .regex(/^[-\w]{2,32}$/)
          .optional()
          .describe(
            'A name for the field (2 to 32 letters, digits, "-" or "_"), which a formula or the conditions of another field can use.',
          ),
        number: z.boolean().optional().describe('For inp: the signer must type a number.'),
        formula: z
          .string()
          .max(500)
          .optional()
          .describe(
            'For inp: a calculated field the signer does not fill, e.g. "round(qty * price, 2)". It names ' +
              'number fields by key, with + - * / ( ) and sum, min, max, round; an empty field counts as 0.',
          ),
        format: z
          .string()
          .max(100)
          .optional()
          .describe('For a formula: "currency:USD" (any ISO 4217 code) or "decimals:2" (0 to 6).'),
        visible_when: ZConditions.optional().describe(
          'Show the field only when these conditions hold; hidden, it is not filled and its value is dropped.',
        ),
        required_when: ZConditions.optional().describe('The field is required exactly when these hold.'),
      }),
    )
    .max(300)
    .optional()
    .describe(
      'Fields placed on the PDF by coordinates. Without any, signers review and sign the document as a whole.',
    ),
  form_fields: z
    .boolean()
    .optional()
    .describe(
      'The PDF is a fillable form (a tax form, an application): its own form fields become fields at their places, each keeping its name, choices and current value. With one signer, that signer fills them all; with more, say who fills which in form_field_signers.',
    ),
  form_field_signers: z
    .record(z.string().max(1000), z.number().int().min(1))
    .optional()
    .describe(
      'With form_fields: which signer fills each form field, by the field\'s name in the PDF (1 for the first of `signers`); "*" for every field not named. A field no signer is given is refused, naming it.',
    ),
  request_id: ZRequestIdSchema,
};

export function registerSendDocument(server: McpServer, api: TEsignApi) {
  server.registerTool(
    'send_document_for_signature',
    {
      title: 'Send a PDF for signature',
      description:
        'Creates and sends a bundle: one PDF to one or more signers, who each get a signing link by ' +
        'email (or text message when only a phone is given). Give the PDF as file_base64 or ' +
        'file_url. Optionally place fields (signature, initials, dates, text) by page coordinates ' +
        'in percent, or use the fields of a fillable PDF with form_fields. Answers the new bundle id and its signers; follow it with get_bundle_status.',
      inputSchema,
      annotations: MAKES_SOMETHING,
    },
    (input) =>
      asTool(async () => {
        if (!input.file_base64 === !input.file_url) {
          return {
            isError: true,
            content: [{ type: 'text', text: 'Give the PDF as exactly one of file_base64 or file_url.' }],
          };
        }
        const keys = input.signers.map((_, i) => `signer-${i + 1}`);
        // An out-of-range signer number stays visible to the API's check as an unknown key.
        const keyOf = (n: number) => keys[n - 1] ?? `signer-${n}`;
        const body = {
          ...(input.label !== undefined ? { label: input.label } : {}),
          ...(input.message !== undefined ? { email_message: input.message } : {}),
          ...(input.email_subject !== undefined ? { email_subject: input.email_subject } : {}),
          ...(input.in_order !== undefined ? { in_order: input.in_order } : {}),
          ...(input.is_test !== undefined ? { is_test: input.is_test } : {}),
          packets: input.signers.map((s, i) => ({
            ...packetOf(s, keys[i]!),
            ...(s.role ? { role: s.role } : {}),
            ...(s.step !== undefined ? { order: s.step } : {}),
          })),
          documents: [
            {
              key: 'document',
              ...(input.file_name ? { name: input.file_name } : {}),
              ...(input.file_base64 ? { file_b64: input.file_base64 } : { file_url: input.file_url }),
              fields: (input.fields ?? []).map(({ signer, number, ...f }) => ({
                ...f,
                ...(number ? { v_pattern: 'numbers' } : {}),
                editors: [keyOf(signer)],
              })),
              ...(input.form_fields ? { form_fields: true } : {}),
              ...(input.form_field_signers
                ? {
                    form_field_editors: Object.fromEntries(
                      Object.entries(input.form_field_signers).map(([name, n]) => [name, keyOf(n)]),
                    ),
                  }
                : {}),
            },
          ],
        };
        const created = await api.call('POST', '/bundles/', {
          json: body,
          ...(input.request_id ? { idempotencyKey: input.request_id } : {}),
        });
        const b = created.body as TBundleAnswer;
        return toolResult(`Bundle ${b.id} created (status ${b.status}).`, bundleStatus(b));
      }),
  );
}
