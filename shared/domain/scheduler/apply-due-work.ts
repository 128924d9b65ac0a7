import { SCHEDULER } from '../bundles/actor';
import { event } from '../bundles/audit-event';
import type { TBundle } from '../bundles/bundle';
import { AUTOMATIC_REMINDER_MARK } from '../bundles/event-kinds';
import { isPastExpiry } from '../bundles/expiry';
import { expire } from '../bundles/lifecycle/transitions';
import { reminderDueAt } from './schedule';

export interface TDueWork {
  /** The bundle with the work done; the very object given when nothing was due. */
  next: TBundle;
  expired: boolean;
  /** Ids of the packets reminded. */
  reminded: string[];
}

/**
 * What is due at `now`, applied to the bundle as it is (the scheduler calls this inside
 * changeBundle, so a retry after a lost race decides again on the newer state):
 * - past its expiry the bundle and its open packets become `ex`, with the `ex` audit event (no
 *   webhook event: the spec has no type for it), and no reminder goes out;
 * - otherwise each signer whose reminder is due (schedule.ts) gets one: `lastReminderAt` is set
 *   and an `rm` audit event appended, which puts the reminder message in the bundle's outbox in
 *   this same write (outbox/outbox.ts). The event's actor is the scheduler (its words also say
 *   "automatic", for people reading the description).
 */
export function applyDueWork(b: TBundle, now: Date): TDueWork {
  const at = now.toISOString();
  if (isPastExpiry(b, now)) {
    return { next: expire(b, now), expired: true, reminded: [] };
  }
  const due = b.packets.filter((p) => {
    const t = reminderDueAt(b, p);
    return t !== undefined && t <= now.getTime();
  });
  if (due.length === 0) return { next: b, expired: false, reminded: [] };
  const ids = new Set(due.map((p) => p.id));
  const next: TBundle = {
    ...b,
    packets: b.packets.map((p) => (ids.has(p.id) ? { ...p, lastReminderAt: at } : p)),
    events: [
      ...b.events,
      ...due.map((p) => event('reminderSent', at, SCHEDULER, p.id, `${p.name}${AUTOMATIC_REMINDER_MARK}`)),
    ],
  };
  return { next, expired: false, reminded: [...ids] };
}
