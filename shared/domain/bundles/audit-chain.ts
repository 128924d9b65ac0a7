// The audit trail is a hash chain: each event records the hash of the event before it in its
// bundle, and the bundle keeps the hash of its latest event (the head). Changing, removing or
// reordering any event breaks every link after it, which verifyChain finds.
import { createHash } from 'node:crypto';
import { actorCode } from './actor';
import type { TBundle, TBundleEvent } from './bundle';

/** The first event of every bundle links to this. */
export const CHAIN_START = '0'.repeat(64);

/**
 * SHA-256 over an event's own fields and its link, in a fixed order (JSON of an array). Who
 * acted is hashed too, as its one-line code (actor.ts) after the other fields, so the evidence's
 * "who" is as tamper-evident as its "what"; an event stored before events recorded it has no
 * such element, so its hash, and every chain made before, stays what it was.
 */
export function linkHash(f: {
  prevHash: string;
  kind: string;
  description: string;
  timestamp: string;
  packetId: string | null;
  actor: string | null;
}): string {
  const canonical = JSON.stringify([
    f.prevHash,
    f.kind,
    f.description,
    f.timestamp,
    f.packetId,
    ...(f.actor !== null ? [f.actor] : []),
  ]);
  return createHash('sha256').update(canonical).digest('hex');
}

/** The hash of a stored event (linkHash of its fields). */
export const eventHash = (e: TBundleEvent): string =>
  linkHash({
    prevHash: e.prevHash ?? CHAIN_START,
    kind: e.kind,
    description: e.description,
    timestamp: e.timestamp,
    packetId: e.packetId ?? null,
    actor: e.actor ? actorCode(e.actor) : null,
  });

/**
 * `next` with its new events linked: each one gets the hash of the event before it, and the
 * bundle's `chainHead` moves to the last. `previous` undefined: a new bundle.
 */
export function withChain(previous: TBundle | undefined, next: TBundle): TBundle {
  const before = previous?.events.length ?? 0;
  if (next.events.length <= before) return next;
  let head = previous?.chainHead ?? CHAIN_START;
  const linked = next.events.slice(before).map((e) => {
    const event = { ...e, prevHash: head };
    head = eventHash(event);
    return event;
  });
  return { ...next, events: [...next.events.slice(0, before), ...linked], chainHead: head };
}

export interface TChainCheck {
  intact: boolean;
  /** The recomputed hash of the last event. */
  head: string;
  /** Index of the first event whose link does not hold. */
  brokenAt?: number;
}

/** Recomputes the chain over every event of a bundle (oldest first) against its recorded head. */
export function verifyChain(events: TBundleEvent[], recordedHead: string | undefined): TChainCheck {
  let head = CHAIN_START;
  for (const [i, e] of events.entries()) {
    if ((e.prevHash ?? CHAIN_START) !== head) return { intact: false, head, brokenAt: i };
    head = eventHash(e);
  }
  if (recordedHead !== undefined && recordedHead !== head)
    return { intact: false, head, brokenAt: events.length };
  return { intact: true, head };
}
