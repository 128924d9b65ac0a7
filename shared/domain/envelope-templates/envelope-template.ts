import type { TPacketRole } from '#shared/schemas/vocabulary';

/** One document of an envelope template: a document template of the same account, in order. */
export interface TEnvelopeDocument {
  key: string;
  /** The document template (uuid) that produces this document. */
  templateId: string;
  name: string;
  order: number;
}

/** A signer role: packets of a bundle made from the template name their role by `key`. */
export interface TEnvelopeSigner {
  key: string;
  label: string;
  order: number;
  authSms: boolean;
  authSelfie: boolean;
  authId: boolean;
  /** The language of this role's signers (an IETF tag), carried into their packets. */
  language?: string;
  /**
   * The packet `role` of this role's people (packet-roles.ts), carried into their packets; absent:
   * `signer`. Not to be confused with the document templates' roles, which `key` names.
   */
  role?: TPacketRole;
}

/** What a bundle made from the template starts with (a create request may not override them). */
export interface TEnvelopeDefaults {
  label?: string;
  emailSubject?: string;
  emailMessage?: string;
  smsMessage?: string;
  inOrder: boolean;
  sendReminders: boolean;
  reminderOffset?: number;
  reminderInterval?: number;
  reminderExpires?: number;
}

export interface TEnvelopeTemplate {
  /** `T-` and 8 base62 characters. */
  id: string;
  accountId: string;
  /** The user whose API key created it: bundles from its smart link see documents as this user. */
  owner?: string;
  name: string;
  description: string;
  isShared: boolean;
  isPortal: boolean;
  allowDirectSigning: boolean;
  /** Disabled templates are absent from the list and cannot make bundles. */
  enabled: boolean;
  documents: TEnvelopeDocument[];
  signers: TEnvelopeSigner[];
  defaults: TEnvelopeDefaults;
  created: string;
  updated: string;
  version: number;
}

export const ENVELOPE_TEMPLATE_ID = /^T-[0-9A-Za-z]{8}$/;

/** The public page a portal template's smart link opens; empty unless anyone may sign from it. */
export function smartLinkUrl(t: TEnvelopeTemplate, publicBaseUrl: string): string {
  if (!t.isPortal || !t.allowDirectSigning || !t.enabled || !publicBaseUrl) return '';
  return `${publicBaseUrl.replace(/\/$/, '')}/portal/${t.id}`;
}
