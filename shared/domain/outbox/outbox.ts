// The transactional outbox. A state change of a bundle appends its audit events; what they set
// off (effects.ts: webhook events, messages, evidence jobs) is also noted in the bundle's
// `outbox`, in the same conditional write. Whatever happens after that write (a crash, a timeout, a retried request),
// the note is there until a publisher has logged and queued the event, and a retried change that
// lost its race wrote nothing at all: each change is published once.

import type { TBundle } from '../bundles/bundle';
import { effectsOf } from './effects';
import type { TOutboxEntry } from './outbox-entry';

/**
 * `next` with the effects of its new audit events (effects.ts) added to its outbox. `previous` is
 * the state the change was applied to (undefined for a new bundle): events are only ever
 * appended, so the new ones are those past previous's count.
 */
export function withOutbox(previous: TBundle | undefined, next: TBundle): TBundle {
  const before = previous?.events.length ?? 0;
  const base = previous?.archivedEvents ?? 0;
  const added: TOutboxEntry[] = [];
  next.events.slice(before).forEach((e, i) => {
    const { webhook: type, notify, document } = effectsOf(e.kind);
    if (!type && !notify && !document) return;
    added.push({
      seq: base + before + i,
      ...(type ? { type } : {}),
      ...(notify ? { notify } : {}),
      ...(document ? { document } : {}),
      date: e.timestamp,
      ...(e.packetId ? { packetId: e.packetId } : {}),
    });
  });
  if (added.length === 0) return next;
  return { ...next, outbox: [...(next.outbox ?? []), ...added] };
}
