import type { TEnvelopeTemplatePatch, TEnvelopeTemplateWrite } from '#shared/schemas/envelope-template';
import { roleOf } from '../bundles/packet-roles';
import { type TFieldError, ValidationError } from '../errors';
import type { TEnvelopeDocument, TEnvelopeSigner, TEnvelopeTemplate } from './envelope-template';

/** What the envelope needs to know of one of its document templates. */
export interface TDocumentTemplateOutline {
  /** Its role keys: a bundle made from the envelope assigns each to the signer role of that key. */
  roles: string[];
  /** The role keys its fields name among their editors (a `-` prefix dropped). */
  filledBy: string[];
}

/** A document template of the account that the user sees, undefined when there is none. */
export interface TDocumentTemplateCheck {
  outline(
    caller: { accountId: string; userId: string },
    templateId: string,
  ): Promise<TDocumentTemplateOutline | undefined>;
}

type TSettings = Omit<TEnvelopeTemplate, 'id' | 'accountId' | 'created' | 'updated' | 'version'>;

const toDocuments = (docs: TEnvelopeTemplateWrite['documents']): TEnvelopeDocument[] =>
  docs.map((d, i) => ({
    key: d.key ?? `doc-${i + 1}`,
    templateId: d.template_id.toLowerCase(),
    name: d.name ?? '',
    order: d.order ?? i,
  }));

const toSigners = (signers: TEnvelopeTemplateWrite['signers']): TEnvelopeSigner[] =>
  signers.map((s, i) => ({
    key: s.key,
    label: s.label ?? s.key,
    order: s.order ?? i,
    authSms: s.auth_sms ?? false,
    authSelfie: s.auth_selfie ?? false,
    authId: s.auth_id ?? false,
    ...(s.language ? { language: s.language } : {}),
    ...(s.role ? { role: s.role } : {}),
  }));

/** The settings a POST (no `current`) or a PATCH (over `current`) asks for, checked as a whole. */
export async function applyEnvelopeInput(
  deps: { documentTemplates?: TDocumentTemplateCheck },
  caller: { accountId: string; userId: string },
  input: TEnvelopeTemplatePatch,
  current: TSettings | undefined,
): Promise<TSettings> {
  const d = current?.defaults;
  const next: TSettings = {
    name: input.name ?? current?.name ?? '',
    description: input.description ?? current?.description ?? '',
    isShared: input.is_shared ?? current?.isShared ?? false,
    isPortal: input.is_portal ?? current?.isPortal ?? false,
    allowDirectSigning: input.allow_direct_signing ?? current?.allowDirectSigning ?? false,
    enabled: input.enabled ?? current?.enabled ?? true,
    documents: input.documents ? toDocuments(input.documents) : (current?.documents ?? []),
    signers: input.signers ? toSigners(input.signers) : (current?.signers ?? []),
    defaults: {
      label: input.label ?? d?.label,
      emailSubject: input.email_subject ?? d?.emailSubject,
      emailMessage: input.email_message ?? d?.emailMessage,
      smsMessage: input.sms_message ?? d?.smsMessage,
      inOrder: input.in_order ?? d?.inOrder ?? false,
      sendReminders: input.send_reminders ?? d?.sendReminders ?? false,
      reminderOffset: input.reminder_offset ?? d?.reminderOffset,
      reminderInterval: input.reminder_interval ?? d?.reminderInterval,
      reminderExpires: input.reminder_expires ?? d?.reminderExpires,
    },
  };
  // Absent keys would be stored as undefined attributes; drop them.
  for (const k of Object.keys(next.defaults) as (keyof TSettings['defaults'])[]) {
    if (next.defaults[k] === undefined) delete next.defaults[k];
  }

  const errors: TFieldError[] = [];
  const seenDocs = new Set<string>();
  next.documents.forEach((doc, i) => {
    if (seenDocs.has(doc.key)) errors.push({ field: `documents[${i}].key`, message: 'Keys must be unique.' });
    seenDocs.add(doc.key);
  });
  const seenSigners = new Set<string>();
  next.signers.forEach((s, i) => {
    if (seenSigners.has(s.key)) errors.push({ field: `signers[${i}].key`, message: 'Keys must be unique.' });
    seenSigners.add(s.key);
  });
  if (next.allowDirectSigning && !next.isPortal) {
    errors.push({ field: 'allow_direct_signing', message: 'Direct signing is for portal templates only.' });
  }
  // Whoever opens the smart link fills the one role there is: nobody else could be asked.
  if (next.isPortal && next.allowDirectSigning && next.signers.length !== 1) {
    errors.push({
      field: 'signers',
      message: 'A portal template with direct signing has exactly one signer role.',
    });
  }
  if (deps.documentTemplates && (input.documents || input.signers)) {
    const check = deps.documentTemplates;
    const found = await Promise.all(next.documents.map((doc) => check.outline(caller, doc.templateId)));
    found.forEach((outline, i) => {
      const doc = next.documents[i]!;
      const roles = outline?.roles;
      if (!roles)
        errors.push({
          field: `documents[${i}].template_id`,
          message: `No document template has the id "${doc.templateId}".`,
        });
      const missing = (roles ?? []).filter((r) => !seenSigners.has(r));
      if (missing.length > 0)
        errors.push({
          field: `documents[${i}].template_id`,
          message: `The document template's roles need signer roles of the same key: ${missing.join(', ')}.`,
        });
    });
    errors.push(...readerRoleErrors(next.signers, next.documents, found));
  }
  if (errors.length > 0) throw new ValidationError('Invalid input.', errors);
  return next;
}

/**
 * Signer roles whose people only read (`approver`, `viewer`) while a document template has
 * fields for them: refused when the template is saved, as a bundle with such a field would be
 * (packet-roles.ts), so the envelope never holds a bundle nobody could send.
 */
function readerRoleErrors(
  signers: readonly TEnvelopeSigner[],
  documents: readonly TEnvelopeDocument[],
  outlines: readonly (TDocumentTemplateOutline | undefined)[],
): TFieldError[] {
  return signers.flatMap((s, i) => {
    const role = roleOf(s);
    if (role === 'signer') return [];
    const named = documents.filter((_, d) => outlines[d]?.filledBy.includes(s.key)).map((d) => d.key);
    if (named.length === 0) return [];
    return [
      {
        field: `signers[${i}].role`,
        message: `"${s.key}" is ${role === 'approver' ? 'an approver' : 'a viewer'}, but fields of ${named.map((k) => `"${k}"`).join(', ')} are for "${s.key}": only signers fill fields. Give "${s.key}" the role "signer", or use document templates without fields for it.`,
      },
    ];
  });
}
