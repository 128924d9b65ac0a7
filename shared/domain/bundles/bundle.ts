// The Bundle aggregate: a set of documents and the signers (packets) who sign them.
import type { TDeliverVia, TFieldKind, TPacketRole, TVPattern } from '#shared/schemas/vocabulary';
import type { TConditionGroup } from '../../text/field-conditions.js';
import type { TRetentionDays } from '../accounts/account';
import type { TOutboxEntry } from '../outbox/outbox-entry';
import type { TActor } from './actor';

import type { TBundleStatus, TPacketStatus } from './lifecycle/status';

// How a signer gets their request: the wire's words (schemas/vocabulary.ts).
export type { TDeliverVia } from '#shared/schemas/vocabulary';
// The statuses and what they allow: lifecycle/status.ts; how a bundle moves: lifecycle/transitions.ts.
export type { TBundleStatus, TPacketStatus } from './lifecycle/status';

export interface TField {
  key: string;
  kind: TFieldKind;
  label: string;
  required: boolean;
  /** 1-based; attachment fields have none (gathered in a separate step). */
  page?: number;
  /** Percent of the page, from its top-left corner to the field's top-left corner. */
  x: number;
  y: number;
  w: number;
  h: number;
  vPattern?: TVPattern;
  vMin?: number;
  vMax?: number;
  vAttachmentTypes?: string[];
  vRegex?: string;
  vRegexMsg?: string;
  format: string;
  initialValue?: string;
  /** Given by the sender (initial value or the bundle's data); signers see it and cannot change it. */
  readOnly?: true;
  /** Signer keys; a `-` prefix makes the field optional for that signer. */
  editors: string[];
  /** Set when the field came from an auto placement's search text. */
  search?: string;
  /** A data flow tag (template fields; a bundle field made from one keeps it). */
  tag?: string;
  /** A calculated field's formula (shared/text/formula.js): the signer never fills it. */
  formula?: string;
  /** Shown only when these hold; hidden, it is not filled and its value is dropped (field-conditions.js). */
  visibleWhen?: TConditionGroup;
  /** Required exactly when these hold, instead of `required`. */
  requiredWhen?: TConditionGroup;
}

export interface TPage {
  width: number;
  height: number;
}

export interface TDocument {
  key: string;
  name: string;
  templateId?: string;
  /** Where the original PDF is kept, and its fingerprint. */
  blobKey: string;
  sha256: string;
  size: number;
  pages: TPage[];
  fields: TField[];
  /**
   * Which stored copy of the document holds its fields: absent for the one written at creation;
   * a draft's fields saved again (save-draft-fields.ts) are a new copy, named here by the bundle.
   */
  rev?: string;
}

export interface TPacket {
  id: string;
  key: string;
  name: string;
  email?: string;
  phone?: string;
  authSms: boolean;
  authSelfie: boolean;
  authId: boolean;
  suppressAll: boolean;
  suppressDocsReady: boolean;
  suppressSigning: boolean;
  suppressReminder: boolean;
  deliverVia: TDeliverVia;
  order: number;
  personId: string;
  status: TPacketStatus;
  emailMessage?: string;
  smsMessage?: string;
  /**
   * The language this signer reads (an IETF tag the service has a catalog for,
   * shared/i18n/languages.ts): pages and messages; else the bundle's, else their browser's.
   */
  language?: string;
  /** The sender lets this signer hand the packet to another person (reassign-packet.ts). */
  allowReassign?: boolean;
  /**
   * What this person does (packet-roles.ts): kept only when the request named a role, so a
   * client that never sends one gets today's answers.
   */
  role?: TPacketRole;
  /**
   * Each time the packet was handed to another signer, oldest first. Its length is the packet's
   * signer generation: a link, session or signing record of an earlier generation belongs to a
   * signer who handed it on and no longer counts.
   */
  handovers?: THandover[];
  signingCompleteRedirect?: string;
  completedAt?: string;
  lastAccessedAt?: string;
  lastReminderAt?: string;
  /**
   * When the service sent this signer's signing request (its latest `ps` audit event; set by
   * changeBundle for every change that appends one). Automatic reminders count from it; a signer
   * never sent one (moved off embedded signing) gets none (shared/domain/scheduler/schedule.ts).
   */
  sentAt?: string;
}

/** Who a signer is, as the packet named them. */
export interface TSignerIdentity {
  name: string;
  email?: string;
  phone?: string;
}

/** A signer handed their packet to another person (reassign-packet.ts). */
export interface THandover {
  from: TSignerIdentity;
  to: TSignerIdentity;
  reason: string;
  at: string;
}

/** How many times the packet changed hands: the generation its links and record must carry. */
export const signerGeneration = (p: Pick<TPacket, 'handovers'>) => p.handovers?.length ?? 0;

/** A packet changes hands at most this often: a longer chain of handovers is refused. */
export const MAX_HANDOVERS = 5;

/** Whether the packet may change hands once more (the sender's allow_reassign aside). */
export const mayHandOn = (p: Pick<TPacket, 'handovers'>) => signerGeneration(p) < MAX_HANDOVERS;

/**
 * An audit event as stored. `kind` is a code of event-kinds.ts (or one of a newer service);
 * `actor` says who acted. Every event written now has one (audit-event.ts, which also refuses a
 * change that appends one without); events stored before the service recorded it have none,
 * and the evidence reads them by the legacy rules of evidence/legacy-events.ts.
 */
export interface TBundleEvent {
  kind: string;
  description: string;
  timestamp: string;
  packetId?: string;
  actor?: TActor;
  /** Hash of the event before it in the bundle (audit-chain.ts). */
  prevHash?: string;
}

export interface TBundleError {
  code: string;
  message: string;
}

/**
 * due: not paid yet (also after a failed attempt is retried); refunded: given back in full (the
 * operator's refund-payment, or a refund made at the processor), final.
 */
export type TPaymentStatus = 'due' | 'paid' | 'failed' | 'refunded';

export interface TPayment {
  /** The key of the billed signer. */
  billedTo: string;
  /** In the currency's smallest unit (cents). */
  amountDue: number;
  /** From the account's payout settings when the bundle was created. */
  currency?: string;
  paymentMethodTypes: string[];
  /** Absent on bundles created before payments were processed: due. */
  status?: TPaymentStatus;
  /** The processor's reference (Stripe: the Checkout Session id) once the signer started paying. */
  reference?: string;
  /** The processor's events already recorded (the last few), so a repeated one changes nothing. */
  eventIds?: string[];
  /** Refunds the bank refused: each new refund asked after one is a new request to the processor. */
  refundFailures?: number;
}

export interface TBundle {
  id: string;
  accountId: string;
  label: string;
  inOrder: boolean;
  emailSubject: string;
  emailMessage: string;
  smsMessage: string;
  requesterName: string;
  requesterEmail: string;
  ccEmails: string[];
  /** The language of its signers who have none of their own (an IETF tag, as the packet's). */
  language?: string;
  customKey?: string;
  team?: string;
  isTest: boolean;
  status: TBundleStatus;
  payment?: TPayment;
  created: string;
  sent?: string;
  completedAt?: string;
  docsReady: boolean;
  errors: TBundleError[];
  packets: TPacket[];
  /** Without fields: those live with the document records (see the bundle store). */
  documents: Omit<TDocument, 'fields'>[];
  tags: string[];
  /** The latest audit events; older ones are kept apart by the store (see `archivedEvents`). */
  events: TBundleEvent[];
  /** How many of the oldest events the store has moved out of the bundle item. */
  archivedEvents?: number;
  /** Hash of the latest audit event: the head of the chain (audit-chain.ts). */
  chainHead?: string;
  /** Webhook events of past changes not yet published (see outbox/outbox.ts). */
  outbox?: TOutboxEntry[];
  /**
   * When the scheduler next has work for the bundle (its expiry, a signer's next automatic
   * reminder: scheduler/schedule.ts `nextDueAt`), set by every write (`withDueAt`), so the store's
   * by-due index follows the bundle without knowing the rule.
   */
  dueAt?: string;
  /** Settings a sender may change while the bundle is a draft or sent (PATCH). */
  expires?: string;
  ccSender: boolean;
  sendReminders: boolean;
  reminderOffset?: number;
  reminderInterval?: number;
  reminderExpires?: number;
  owner?: string;
  signingBrand?: string;
  /** Its retention policy, legal hold and what the policy deleted (retention.ts). */
  retention?: TBundleRetention;
  version: number;
}

/** The parts of a bundle's documents a retention policy deletes separately (TRetentionDays). */
export type TRetentionPart = keyof TRetentionDays;

export interface TBundleRetention {
  /** The account's policy when the bundle was made. */
  policy?: TRetentionDays;
  /** While set, nothing of the bundle is deleted by policy. */
  hold?: { at: string; actor: TActor };
  /** A deletion marked and under way: set in the write that checked the hold, cleared when done. */
  deleting?: { at: string; parts: TRetentionPart[] };
  /** When each part was deleted. */
  deleted?: Partial<Record<TRetentionPart, string>>;
}
