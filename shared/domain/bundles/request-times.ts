import type { TBundle } from './bundle';
import { EVENT_KINDS } from './event-kinds';

/**
 * `next` with `sentAt` set on each packet whose signing request (`ps`) is among the audit events
 * appended since `previous`, whoever appended it (sending, a signer's turn coming in order).
 */
export function withRequestTimes(previous: TBundle, next: TBundle): TBundle {
  const requested = new Map<string, string>();
  for (const e of next.events.slice(previous.events.length)) {
    if (e.kind === EVENT_KINDS.packetSent.code && e.packetId) requested.set(e.packetId, e.timestamp);
  }
  if (requested.size === 0) return next;
  return {
    ...next,
    packets: next.packets.map((p) => {
      const at = requested.get(p.id);
      return at && p.sentAt !== at ? { ...p, sentAt: at } : p;
    }),
  };
}
