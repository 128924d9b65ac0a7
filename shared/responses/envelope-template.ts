import { smartLinkUrl, type TEnvelopeTemplate } from '#shared/domain/envelope-templates/envelope-template';
import type { TEnvelopeTemplateResponse } from '#shared/schemas/responses/envelope-template';

/** The wire shape: the spec's Envelope Template, plus this service's own settings. */
export function toEnvelopeTemplateResponse(
  t: TEnvelopeTemplate,
  publicBaseUrl: string,
): TEnvelopeTemplateResponse {
  const d = t.defaults;
  return {
    id: t.id,
    created: t.created,
    name: t.name,
    description: t.description,
    is_shared: t.isShared,
    is_portal: t.isPortal,
    allow_direct_signing: t.allowDirectSigning,
    enabled: t.enabled,
    documents: t.documents.map((doc) => ({
      key: doc.key,
      name: doc.name,
      order: doc.order,
      template_id: doc.templateId,
    })),
    signers: t.signers.map((s) => ({
      key: s.key,
      label: s.label,
      order: s.order,
      auth_sms: s.authSms,
      auth_selfie: s.authSelfie,
      auth_id: s.authId,
      language: s.language ?? null,
      role: s.role ?? 'signer',
    })),
    label: d.label ?? '',
    email_subject: d.emailSubject ?? '',
    email_message: d.emailMessage ?? '',
    sms_message: d.smsMessage ?? '',
    in_order: d.inOrder,
    send_reminders: d.sendReminders,
    reminder_offset: d.reminderOffset ?? null,
    reminder_interval: d.reminderInterval ?? null,
    reminder_expires: d.reminderExpires ?? null,
    smart_link_url: smartLinkUrl(t, publicBaseUrl),
  };
}
