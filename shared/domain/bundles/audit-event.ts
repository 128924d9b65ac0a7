import type { TBundleEvent } from './bundle';
import { EVENT_KINDS } from './event-kinds';

/** An audit event of the bundle's history (event-kinds.ts names each kind). */
export function event(
  kind: keyof typeof EVENT_KINDS,
  timestamp: string,
  packetId?: string,
  detail?: string,
): TBundleEvent {
  const k = EVENT_KINDS[kind];
  // Details name fields, tags or signers; they are cut so that an event stays small.
  const shown = detail && detail.length > 300 ? `${detail.slice(0, 299)}…` : detail;
  return {
    kind: k.code,
    description: shown ? `${k.text}: ${shown}` : k.text,
    timestamp,
    ...(packetId ? { packetId } : {}),
  };
}
