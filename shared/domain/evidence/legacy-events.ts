// LEGACY READING, for audit events stored before every event recorded who acted (`actor`).
// Those events say who acted only through their kind and, for a reminder, the words of their
// description. They are sealed in audit chains and printed in evidence already made, so they
// must keep rendering exactly as they did: this file is the one place that reads them so. An
// event with an actor never comes here (audit-trail.ts, stored-words.ts).
import type { TBundleEvent } from '../bundles/bundle';
import { AUTOMATIC_REMINDER_MARK, EVENT_KINDS } from '../bundles/event-kinds';

/** Audit kinds a signer does themselves (opening, starting in person, finishing, declining, handing on). */
export const SIGNER_KINDS = new Set<string>(
  [
    EVENT_KINDS.viewed,
    EVENT_KINDS.inPerson,
    EVENT_KINDS.packetCompleted,
    EVENT_KINDS.declined,
    EVENT_KINDS.reassigned,
  ].map((k) => k.code),
);

/** What the sender does through the API; the rest is the service's (requests, reminders it sends). */
const SENDER_KINDS = new Set<string>(
  [
    EVENT_KINDS.created,
    EVENT_KINDS.drafted,
    EVENT_KINDS.sent,
    EVENT_KINDS.updated,
    EVENT_KINDS.tagsChanged,
    EVENT_KINDS.cancelled,
    EVENT_KINDS.interimRequested,
    EVENT_KINDS.packetUpdated,
  ].map((k) => k.code),
);

/** Who acted on an event with no actor: the signer it names (by kind), the sender or the service. */
export function legacyActor(e: TBundleEvent, hasPacket: boolean): 'signer' | 'sender' | 'service' {
  if (hasPacket && SIGNER_KINDS.has(e.kind)) return 'signer';
  // Before actors, only the words told the scheduler's reminder from the sender's (anywhere in
  // the description, as this was always read).
  if (e.kind === EVENT_KINDS.reminderSent.code)
    return e.description.includes(AUTOMATIC_REMINDER_MARK.trim()) ? 'service' : 'sender';
  return SENDER_KINDS.has(e.kind) ? 'sender' : 'service';
}

/** A reminder's detail with no actor: `<name> (automatic)` was the scheduler's, else the sender's. */
export function legacyReminder(detail: string): { name: string; automatic: boolean } {
  return detail.endsWith(AUTOMATIC_REMINDER_MARK)
    ? { name: detail.slice(0, -AUTOMATIC_REMINDER_MARK.length), automatic: true }
    : { name: detail, automatic: false };
}
