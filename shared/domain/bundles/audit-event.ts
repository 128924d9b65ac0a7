import type { TActor } from './actor';
import type { TBundle, TBundleEvent } from './bundle';
import { codeOf, EVENT_KINDS, type TEventCode, type TEventKind } from './event-kinds';

/** An event as the service writes it now: a known kind, and who acted (reads may lack it). */
export type TActedEvent = TBundleEvent & { kind: TEventCode; actor: TActor };

/** An audit event of the bundle's history (event-kinds.ts names each kind), by `by`. */
export function event(
  kind: TEventKind,
  timestamp: string,
  by: TActor,
  packetId?: string,
  detail?: string,
): TActedEvent {
  const text = EVENT_KINDS[kind].text;
  // Details name fields, tags or signers; they are cut so that an event stays small.
  const shown = detail && detail.length > 300 ? `${detail.slice(0, 299)}…` : detail;
  return {
    kind: codeOf(kind),
    description: shown ? `${text}: ${shown}` : text,
    timestamp,
    ...(packetId ? { packetId } : {}),
    actor: by,
  };
}

/**
 * Refuses a change whose new events do not all say who acted: only events stored before actors
 * were recorded may lack one, and a write must never add such an event (a bug, not bad input).
 */
export function assertActed(previous: Pick<TBundle, 'events'>, next: Pick<TBundle, 'events'>): void {
  const missing = next.events.slice(previous.events.length).find((e) => !e.actor);
  if (missing) throw new Error(`The audit event "${missing.kind}" is written without its actor.`);
}
