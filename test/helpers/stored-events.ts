// Audit events as the service stored them before every event recorded who acted: the same
// kinds and words as audit-event.ts's `event`, without an `actor`. Tests of rendering, of the
// chain and of stored bundles use them; what reads them must treat them as it always did.
import { SYSTEM } from '#shared/domain/bundles/actor';
import { event as actedEvent } from '#shared/domain/bundles/audit-event';
import type { TBundleEvent } from '#shared/domain/bundles/bundle';
import type { TEventKind } from '#shared/domain/bundles/event-kinds';

export function event(kind: TEventKind, timestamp: string, packetId?: string, detail?: string): TBundleEvent {
  const { actor: _, ...stored } = actedEvent(kind, timestamp, SYSTEM, packetId, detail);
  return stored;
}
