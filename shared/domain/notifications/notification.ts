// Messages to people: what the notifications worker keeps of each one it sends, and the small
// rules about recipients it applies. See ARCHITECTURE.md, "Notifications".

import type { TNotificationType } from '../outbox/outbox-entry';

export type TChannel = 'email' | 'sms';

/** Where the messages come from when nothing is configured (the local runtime's sender). */
export const DEFAULT_MAIL_FROM = 'no-reply@esign.local';

/** Shown as the sender of messages that go to the sender themselves (a decline). */
export const SERVICE_NAME = 'Open eSignature';

/**
 * A `sending` claim older than this belongs to an attempt that died between claiming and
 * recording the outcome (a Lambda timeout): the message is sent again. Well above the worker's
 * own timeout, so a live attempt is never overtaken.
 */
export const STALE_SENDING_MS = 5 * 60_000;

/**
 * One message of one job to one recipient (`NOTIFY#<bundle>#<seq>#<recipient>`): claimed with a
 * conditional write before sending, so a job handed out twice sends once.
 */
export interface TNotificationRecord {
  accountId: string;
  bundleId: string;
  /** The job's audit event, which with the bundle names the job. */
  seq: number;
  /** A lower-cased email address or an E.164 phone number. */
  recipient: string;
  channel: TChannel;
  type: TNotificationType;
  packetId?: string;
  state: 'sending' | 'sent' | 'failed';
  /** The attempt holding the claim; outcomes are recorded only by their own attempt. */
  claimId: string;
  /** When the state was set. */
  updated: string;
  providerMessageId?: string;
  /** Why the last attempt failed (an error name, never a provider's whole message). */
  error?: string;
}

/** A sent message by its provider id: where a bounce or complaint report belongs. */
export interface TSentMessage {
  providerMessageId: string;
  accountId: string;
  bundleId: string;
  seq: number;
  packetId?: string;
  channel: TChannel;
  recipient: string;
  type: TNotificationType;
  sent: string;
  /** Report kinds already recorded on the bundle, so a report delivered twice is recorded once. */
  reported?: string[];
}

/** What a provider reported about a message after accepting it (SES bounce, complaint, reject). */
export interface TDeliveryReport {
  providerMessageId: string;
  kind: 'bounce' | 'complaint' | 'reject';
  recipients: string[];
  /** For the audit trail: the bounce type and the receiving server's diagnostic, cut short. */
  detail: string;
}

/** `ann@example.com` → `a***@example.com`; `+15550103000` → `+*******3000`. */
export function maskRecipient(recipient: string): string {
  const at = recipient.lastIndexOf('@');
  if (at > 0) return `${recipient[0]}***${recipient.slice(at)}`;
  if (recipient.length <= 4) return '*'.repeat(recipient.length);
  const lead = recipient.startsWith('+') ? '+' : '';
  return `${lead}${'*'.repeat(recipient.length - lead.length - 4)}${recipient.slice(-4)}`;
}

export const normalizeAddress = (email: string) => email.trim().toLowerCase();

/**
 * A stored phone as SNS takes it (E.164), or undefined. Only numbers written internationally
 * (`+…` or `00…`) are converted: guessing a country for a national number could text a stranger.
 */
export function toE164(phone: string): string | undefined {
  const trimmed = phone.trim();
  const digits = trimmed.replace(/\D/g, '');
  let e164: string | undefined;
  if (trimmed.startsWith('+')) e164 = `+${digits}`;
  else if (digits.startsWith('00')) e164 = `+${digits.slice(2)}`;
  return e164 && /^\+[1-9]\d{1,14}$/.test(e164) ? e164 : undefined;
}

/**
 * A mailbox for the From header: the display name quoted, or MIME encoded-word when it is not
 * plain ASCII (what SES asks for), line breaks removed so no header can be injected.
 */
export function formatMailbox(name: string, address: string): string {
  const clean = name
    .replace(/[\r\n\t]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 100);
  if (!clean) return address;
  if (/^[\x20-\x7e]*$/.test(clean)) return `"${clean.replace(/["\\]/g, '\\$&')}" <${address}>`;
  return `=?UTF-8?B?${Buffer.from(clean, 'utf8').toString('base64')}?= <${address}>`;
}
