import type { TChannel, TPerson } from '../persons/person';
import type { TBundleStore } from '../ports/bundles';
import { normalizeEmail, normalizePhone } from '../ports/contact-keys';
import type { TClock } from '../ports/system';
import type { TActor } from './actor';
import { event } from './audit-event';
import type { TBundleEvent } from './bundle';
import { changeBundle } from './change-bundle';
import { isFinished } from './lifecycle/status';

interface TChange {
  kind: 'em' | 'mp';
  from: string;
  to: string;
}

/** Channels updated in place (same id, same kind, new value). */
function changedChannels(before: TChannel[], after: TChannel[]): TChange[] {
  return after.flatMap((c) => {
    const old = before.find((b) => b.id === c.id);
    if (!old || old.kind !== c.kind) return [];
    const from = c.kind === 'em' ? old.email! : old.phone!;
    const to = c.kind === 'em' ? c.email! : c.phone!;
    const same =
      c.kind === 'em'
        ? normalizeEmail(from) === normalizeEmail(to)
        : normalizePhone(from) === normalizePhone(to);
    return same ? [] : [{ kind: c.kind, from, to }];
  });
}

/**
 * A Person's channel updated by id: live bundles sending to that email or phone follow (spec,
 * "Partially update a Person"). Finished bundles keep what they sent to, as evidence. `by`
 * changed the Person, so the bundles' events are theirs.
 */
export async function followPersonChanges(
  deps: { bundles: TBundleStore; clock: TClock },
  before: TPerson,
  after: TPerson,
  by: TActor,
): Promise<void> {
  const changes = changedChannels(before.channels, after.channels);
  if (changes.length === 0) return;
  for (const bundleId of await deps.bundles.bundlesOfPerson(after.accountId, after.id)) {
    await changeBundle(deps, after.accountId, bundleId, (b) => {
      if (isFinished(b.status)) return b;
      const now = deps.clock.now().toISOString();
      const events: TBundleEvent[] = [];
      const packets = b.packets.map((p) => {
        if (p.personId !== after.id) return p;
        let next = p;
        for (const c of changes) {
          if (c.kind === 'em' && p.email && normalizeEmail(p.email) === normalizeEmail(c.from))
            next = { ...next, email: c.to };
          if (c.kind === 'mp' && p.phone && normalizePhone(p.phone) === normalizePhone(c.from))
            next = { ...next, phone: c.to };
        }
        if (next !== p) events.push(event('packetUpdated', now, by, p.id, 'contact changed on the Person'));
        return next;
      });
      return events.length === 0 ? b : { ...b, packets, events: [...b.events, ...events] };
    }).catch((err) => {
      // A bundle the link points at but that was never written is nothing to follow.
      if ((err as Error).name !== 'NotFoundError') throw err;
    });
  }
}
