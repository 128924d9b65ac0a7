// What the mailbox keeps of each message the service tried to send: enough to read it the way the
// recipient would and to follow the links in it.

interface TMailboxCommon {
  /** Also the provider message id the SDK returned, so logs and stored records point here. */
  id: string;
  /** ISO 8601, when the stand-in accepted the message. */
  time: string;
  text: string;
}

export interface TMailboxEmail extends TMailboxCommon {
  kind: 'email';
  from: string;
  to: string[];
  cc: string[];
  bcc: string[];
  replyTo: string[];
  subject: string;
  html?: string;
  /** Files sent with the message: what they are, not their bytes (those are in the store's folder). */
  attachments?: TMailboxAttachment[];
  configurationSetName?: string;
}

export interface TMailboxAttachment {
  fileName: string;
  contentType: string;
  size: number;
  sha256: string;
}

export interface TMailboxSms extends TMailboxCommon {
  kind: 'sms';
  phone: string;
  /** The SenderID message attribute, if one was set. */
  from?: string;
  /** The SMSType message attribute (Transactional or Promotional), if one was set. */
  smsType?: string;
}

export type TMailboxMessage = TMailboxEmail | TMailboxSms;

export function isMailboxMessage(value: unknown): value is TMailboxMessage {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  if (typeof v.id !== 'string' || typeof v.time !== 'string' || typeof v.text !== 'string') return false;
  if (v.kind === 'email') return typeof v.subject === 'string' && Array.isArray(v.to);
  if (v.kind === 'sms') return typeof v.phone === 'string';
  return false;
}
