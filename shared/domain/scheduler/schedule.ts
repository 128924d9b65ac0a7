// When a bundle has work for the scheduler: its expiry and each signer's next automatic reminder.
// Pure rules on the bundle alone, so the bundle store can derive the `by-due` index keys from the
// bundle in the same write as every change (entities/bundle.ts), and the scheduler can decide
// again, on the bundle it re-reads, exactly what is due.
import type { TBundle, TPacket } from '../bundles/bundle';
import { expiresAt } from '../bundles/expiry';
import { isOut, isPacketWaiting } from '../bundles/lifecycle/status';
import { retentionDueAt } from '../bundles/retention';

export const DAY_MS = 86_400_000;

/** No message to a signer within this long of the previous one (spec: one reminder an hour). */
export const REMINDER_GAP_MS = 3_600_000;

/**
 * Used when a bundle has `send_reminders` but leaves a setting out: the first reminder a day after
 * sending, no repeats, none later than 30 days after sending (the largest value the API takes).
 */
export const REMINDER_DEFAULTS = { offsetDays: 1, intervalDays: 0, expiresDays: 30 } as const;

/**
 * Whether the service reminds this signer by itself: the bundle has `send_reminders` and is sent
 * (`se`, `st`); the signer's turn has come and is not over (`se`, `st`), by email or phone, reminders
 * not suppressed (`suppress_reminder`, `suppress_all`), and the service sent its signing request
 * (`sentAt`): a signer moved off embedded signing got none, and the spec leaves its messages to the
 * client's reminder calls. The Reminders feature is checked when the settings are made (PATCH).
 */
export function remindsAutomatically(b: TBundle, p: TPacket): boolean {
  return (
    b.sendReminders &&
    b.sent !== undefined &&
    isOut(b.status) &&
    isPacketWaiting(p.status) &&
    (p.deliverVia === 'email' || p.deliverVia === 'phone') &&
    !p.suppressReminder &&
    !p.suppressAll &&
    p.sentAt !== undefined
  );
}

/**
 * When the signer's next automatic reminder is due (epoch ms), undefined when none will be.
 *
 * Reminder slots are `reminder_offset` days after the bundle was sent, then every
 * `reminder_interval` days (0: no repeats), up to and including `reminder_expires` days after
 * sending. The next reminder takes the first slot after the signer's last message — its signing
 * request or its last reminder, manual ones included — and never comes within an hour of it.
 * Slots missed while the scheduler was not running collapse into one reminder.
 */
export function reminderDueAt(b: TBundle, p: TPacket): number | undefined {
  if (!remindsAutomatically(b, p)) return undefined;
  const sent = Date.parse(b.sent!);
  const first = sent + (b.reminderOffset ?? REMINDER_DEFAULTS.offsetDays) * DAY_MS;
  const interval = (b.reminderInterval ?? REMINDER_DEFAULTS.intervalDays) * DAY_MS;
  const stop = sent + (b.reminderExpires ?? REMINDER_DEFAULTS.expiresDays) * DAY_MS;
  const lastMessage = Math.max(Date.parse(p.sentAt!), p.lastReminderAt ? Date.parse(p.lastReminderAt) : 0);
  let slot = first;
  if (slot <= lastMessage) {
    if (interval === 0) return undefined;
    slot = first + (Math.floor((lastMessage - first) / interval) + 1) * interval;
  }
  const due = Math.max(slot, lastMessage + REMINDER_GAP_MS);
  return due <= stop ? due : undefined;
}

/**
 * The earliest time anything of the bundle is due (ISO), or undefined when nothing ever will be
 * as it stands: a sent bundle (`se`, `st`) with an expiry or a reminder to come, or an ended one
 * with a part of its documents for its retention policy to delete (bundles/retention.ts).
 */
export function nextDueAt(b: TBundle): string | undefined {
  const retention = retentionDueAt(b);
  if (retention !== undefined) return new Date(retention).toISOString();
  if (!isOut(b.status)) return undefined;
  const times = b.packets.map((p) => reminderDueAt(b, p)).filter((t) => t !== undefined);
  const expiry = expiresAt(b);
  if (expiry !== undefined) times.push(expiry);
  return times.length > 0 ? new Date(Math.min(...times)).toISOString() : undefined;
}

/** The bundle as it is written: with `dueAt` worked out afresh (none when nothing is due). */
export function withDueAt(b: TBundle): TBundle {
  const { dueAt: _was, ...rest } = b;
  const due = nextDueAt(rest);
  return due ? { ...rest, dueAt: due } : rest;
}
