import * as z from 'zod';
import { ZEnvelopeTemplateRequestSchema, ZPacketRequestSchema } from '#shared/schemas/bundle-request';
import { zList } from '#shared/schemas/common';
import { ENVELOPE_TEMPLATE_ID } from '../envelope-templates/envelope-template';
import { envelopeTemplateAccess } from '../envelope-templates/get-envelope-template';
import { NotFoundError, PermissionDeniedError, type TFieldError, ValidationError } from '../errors';
import { parseInput } from '../parse-input';
import type { TAccountStore } from '../ports/accounts';
import type { TDocTemplateStore, TEnvelopeTemplateStore } from '../ports/templates';
import type { TTemplateCaller } from '../templates/doc-template';
import type { TBundle } from './bundle';

/** The template's reminder settings, as the bundle holds them. */
export type TEnvelopeReminders = Pick<
  TBundle,
  'sendReminders' | 'reminderOffset' | 'reminderInterval' | 'reminderExpires'
>;

/**
 * A create-from-envelope-template packet: only these (spec, and this service's own
 * allow_reassign, and `language` and `role`, which win over the signer role's as the request's
 * bundle-level values win over the template's defaults); anything else sent is ignored.
 */
const ZEnvelopePacketSchema = ZPacketRequestSchema.pick({
  name: true,
  email: true,
  phone: true,
  deliver_via: true,
  allow_reassign: true,
  language: true,
  role: true,
}).extend({ key: ZPacketRequestSchema.shape.key.pipe(z.string('Name the signer role.')) });

export const ZEnvelopeCreateSchema = z.object({
  envelope_template: ZEnvelopeTemplateRequestSchema,
  packets: zList(ZEnvelopePacketSchema, { min: 1, minMessage: 'A bundle needs at least one signer.' }),
});

/** Bundle-level fields the template gives when the request does not (wire name → default). */
const DEFAULTS = [
  ['label', 'label'],
  ['email_subject', 'emailSubject'],
  ['email_message', 'emailMessage'],
  ['sms_message', 'smsMessage'],
  ['in_order', 'inOrder'],
] as const;

/**
 * A create request naming an envelope template, as the ordinary create request it stands for:
 * each packet fills the signer role its `key` names (taking the role's order, authentication, and
 * packet role and language unless the packet names its own),
 * each document of the template becomes a TemplateRequest whose roles go to the signers of the
 * same key, `field_values` go to the documents whose template has a field of that key, and the
 * template's bundle defaults apply where the request gives no value. The bundle-level fields of
 * the request pass through unchanged, so the result is checked by the same rules as any bundle.
 * An unknown template is a 400 on `envelope_template.template_id`, a disabled one 404, one not
 * shared with the caller (or an account without envelope templates) 403.
 */
export async function envelopeBundleRequest(
  deps: { envelopeTemplates: TEnvelopeTemplateStore; templates: TDocTemplateStore; accounts: TAccountStore },
  caller: TTemplateCaller,
  body: object,
): Promise<{ request: Record<string, unknown>; reminders?: TEnvelopeReminders }> {
  const { account, mayUse } = await envelopeTemplateAccess(deps, caller);
  const input = parseInput(ZEnvelopeCreateSchema, body);
  const id = input.envelope_template.template_id;
  const template = ENVELOPE_TEMPLATE_ID.test(id)
    ? await deps.envelopeTemplates.get(caller.accountId, id)
    : undefined;
  // Unknown: a 400 on the field, as for any id a create request names (the spec's 201 and 400).
  if (!template)
    throw new ValidationError('Invalid input.', [
      { field: 'envelope_template.template_id', message: `No envelope template has the id "${id}".` },
    ]);
  // Disabled: the template exists but makes no bundles (404 on create).
  if (!template.enabled) throw new NotFoundError('This envelope template is disabled.');
  if (!mayUse(template)) throw new PermissionDeniedError('This envelope template is not shared with you.');
  const errors: TFieldError[] = [];

  const roles = new Map(template.signers.map((s) => [s.key, s]));
  const filled = new Set<string>();
  const packets = input.packets.map((p, i) => {
    const role = roles.get(p.key);
    if (!role)
      errors.push({
        field: `packets[${i}].key`,
        message: `The envelope template has no signer role "${p.key}".`,
      });
    else if (filled.has(p.key))
      errors.push({ field: `packets[${i}].key`, message: `The signer role "${p.key}" is filled twice.` });
    filled.add(p.key);
    const language = p.language ?? role?.language;
    const packetRole = p.role ?? role?.role;
    return {
      ...p,
      ...(role
        ? { order: role.order, auth_sms: role.authSms, auth_selfie: role.authSelfie, auth_id: role.authId }
        : {}),
      ...(language ? { language } : {}),
      ...(packetRole ? { role: packetRole } : {}),
    };
  });
  const missing = template.signers.filter((s) => !filled.has(s.key)).map((s) => s.key);
  if (missing.length > 0)
    errors.push({
      field: 'packets',
      message: `Every signer role needs a signer; missing: ${missing.join(', ')}.`,
    });

  const values = input.envelope_template.field_values ?? [];
  const used = new Set<number>();
  const documents: Record<string, unknown>[] = [];
  for (const doc of [...template.documents].sort((a, b) => a.order - b.order)) {
    const docTemplate = await deps.templates.get(caller.accountId, doc.templateId);
    const fieldKeys = new Set(docTemplate?.fields.map((f) => f.key));
    const mine = values.filter((v, j) => fieldKeys.has(v.key) && used.add(j));
    documents.push({
      key: doc.key,
      template_id: doc.templateId,
      assignments: (docTemplate?.roles ?? []).map((r) => ({ role: r.key, signer: r.key })),
      ...(mine.length > 0 ? { field_values: mine } : {}),
    });
  }
  values.forEach((v, j) => {
    if (!used.has(j))
      errors.push({
        field: `envelope_template.field_values[${j}].key`,
        message: `No document of the envelope template has a field "${v.key}".`,
      });
  });
  if (errors.length > 0) throw new ValidationError('Invalid input.', errors);

  const {
    envelope_template: _template,
    packets: _packets,
    documents: _documents,
    ...bundleLevel
  } = body as Record<string, unknown>;
  const request: Record<string, unknown> = { ...bundleLevel, packets, documents };
  for (const [wire, name] of DEFAULTS) {
    const value = template.defaults[name];
    if (
      (request[wire] === undefined || request[wire] === null || request[wire] === '') &&
      value !== undefined
    )
      request[wire] = value;
  }
  // Reminders are not part of a create request: they are set on the bundle once it is made,
  // when the account has the Reminders feature (as a PATCH would need).
  const d = template.defaults;
  if (!d.sendReminders || !account?.features.reminders) return { request };
  return {
    request,
    reminders: {
      sendReminders: true,
      ...(d.reminderOffset !== undefined ? { reminderOffset: d.reminderOffset } : {}),
      ...(d.reminderInterval !== undefined ? { reminderInterval: d.reminderInterval } : {}),
      ...(d.reminderExpires !== undefined ? { reminderExpires: d.reminderExpires } : {}),
    },
  };
}
