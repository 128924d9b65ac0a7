// The wire format's own words: the enumerations and formats a request is checked against. The
// schemas check them and the domain's types are built on them, so they live here, below both,
// each declared once.

import { ATTACHMENT_TYPES, type TVPattern, V_PATTERN_CHECKS } from '../text/value-rules.js';
export const FIELD_KINDS = [
  'sig',
  'ini',
  'snm',
  'sdt',
  'inp',
  'txt',
  'dat',
  'chk',
  'cbg',
  'sel',
  'att',
  'apr',
] as const;
export type TFieldKind = (typeof FIELD_KINDS)[number];

/**
 * How a signer gets their request. `email`, `phone` and `embed` are BlueInk's; `kiosk` is this
 * service's own: the signer signs in person on the sender's device (POST /packets/{id}/kiosk_url/).
 */
export const DELIVER_VIA = ['email', 'phone', 'embed', 'kiosk'] as const;
export type TDeliverVia = (typeof DELIVER_VIA)[number];
/** This service's own packet `role` (shared/domain/bundles/packet-roles.ts); `signer` by default. */
export const PACKET_ROLES = ['signer', 'approver', 'viewer'] as const;
export type TPacketRole = (typeof PACKET_ROLES)[number];

// The value patterns and attachment kinds are rules the signing page runs too: they live in
// shared/text/value-rules.js, served to the page as it is, and the wire's vocabulary names them.
export const V_PATTERNS = Object.keys(V_PATTERN_CHECKS) as [TVPattern, ...TVPattern[]];
export type { TVPattern };
export { ATTACHMENT_TYPES };

export const FEATURE_NAMES = [
  'teams',
  'reminders',
  'signing_brands',
  'early_data_access',
  'early_file_access',
  'envelope_templates',
  // The signed copies sent to signers and cc recipients carry the files, not only their link.
  'email_attachments',
] as const;
export type TFeatureName = (typeof FEATURE_NAMES)[number];

/**
 * What a new account has: envelope templates on (an operator selling plans turns them off, and
 * the API then answers 403), everything else off. Also fills in features an account stored before
 * they existed, so an account read always carries every feature.
 */
export function defaultFeatures(): Record<TFeatureName, boolean> {
  const features = Object.fromEntries(FEATURE_NAMES.map((f) => [f, false])) as Record<TFeatureName, boolean>;
  features.envelope_templates = true;
  return features;
}

export const WEBHOOK_EVENT_TYPES = [
  'bundle_sent',
  'bundle_complete',
  'bundle_docs_ready',
  'bundle_error',
  'bundle_cancelled',
  'packet_viewed',
  'packet_complete',
  'packet_declined',
  // This service's own: a signer handed their packet to another person (allow_reassign).
  'packet_reassigned',
] as const;

export type TWebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/**
 * Types BlueInk added to its API after the spec this service follows, which its official
 * clients offer: a webhook may subscribe to them, so those clients work unchanged. The
 * document-template types fire on a template's create, update and delete
 * (shared/domain/templates/publish-template-event.ts);
 * bundle_signer_reassigned never fires: BlueInk publishes no payload for it, so a handover fires
 * this service's own packet_reassigned instead.
 */
export const NEWER_EVENT_TYPES = [
  'bundle_signer_reassigned',
  'doc_template_created',
  'doc_template_updated',
  'doc_template_deleted',
  // This service's own: a bulk send's rows are all done (shared/domain/bulk/process-bulk-chunk.ts).
  'bulk_completed',
] as const;

export const SUBSCRIBABLE_EVENT_TYPES = [...WEBHOOK_EVENT_TYPES, ...NEWER_EVENT_TYPES] as const;
export type TSubscribableEventType = (typeof SUBSCRIBABLE_EVENT_TYPES)[number];

/** A calendar date written YYYY-MM-DD that exists. */
export function isIsoDate(v: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(v);
}
