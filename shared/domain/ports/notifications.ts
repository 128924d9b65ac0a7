// Email and SMS to signers, and the record of every message sent.
import type { TNotificationRecord, TSentMessage } from '../notifications/notification';

export interface TEmailMessage {
  from: string;
  to: string[];
  cc?: string[];
  replyTo?: string[];
  subject: string;
  text: string;
  html?: string;
  /** Files sent with the message (the signed copies), each as it is named to the recipient. */
  attachments?: TEmailAttachment[];
}

export interface TEmailAttachment {
  fileName: string;
  contentType: string;
  bytes: Uint8Array;
}

export interface TMailer {
  /** Returns the provider's message id. */
  send(message: TEmailMessage): Promise<string>;
}

export interface TSmsSender {
  /** Returns the provider's message id. */
  send(phoneNumber: string, text: string): Promise<string>;
}

/** What the notifications worker sends, message by message (shared/domain/notifications/). */
export interface TNotificationStore {
  /**
   * Takes the right to send `record`'s message: granted when there is no record yet, the last
   * attempt failed, or a `sending` claim is older than `staleBefore` (ISO time). Otherwise
   * answers the stored record.
   */
  claim(
    record: TNotificationRecord,
    staleBefore: string,
  ): Promise<{ claimed: true } | { claimed: false; current: TNotificationRecord }>;
  get(
    accountId: string,
    bundleId: string,
    seq: number,
    recipient: string,
  ): Promise<TNotificationRecord | undefined>;
  /** Keeps the provider's id → the message (for bounce reports), then marks the claim sent. */
  markSent(record: TNotificationRecord, sent: TSentMessage): Promise<void>;
  markFailed(record: TNotificationRecord, error: string, at: string): Promise<void>;
  findSent(providerMessageId: string): Promise<TSentMessage | undefined>;
  /** Notes a report kind (bounce, complaint) as recorded on the bundle. */
  noteReport(providerMessageId: string, kind: string): Promise<void>;
}
