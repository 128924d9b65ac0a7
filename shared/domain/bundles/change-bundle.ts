import { withOutbox } from '../outbox/outbox';
import type { TBundleStore } from '../ports/bundles';
import { retryOnConflict } from '../retry-on-conflict';
import { withDueAt } from '../scheduler/schedule';
import { withChain } from './audit-chain';
import { assertActed } from './audit-event';
import type { TBundle } from './bundle';
import { getBundle } from './get-bundle';
import { withRequestTimes } from './request-times';

/**
 * Every change of a bundle goes through here: read, apply, write conditional on the version
 * read, retried when another request won the race. `apply` returns the next state with its audit
 * events appended, so the events are part of the same write as the change; it may throw to
 * refuse the change (a 4xx), or return the bundle unchanged when there is nothing to do. Webhook
 * events among the new audit events go into the bundle's outbox in the same write, and a
 * signing request (`ps`) among them stamps its packet's `sentAt`, which automatic reminders count from.
 * New events are linked into the bundle's audit hash chain (audit-chain.ts).
 * A caller that has just read the bundle passes it as `read`: the first attempt applies to it
 * instead of reading it again, and its write is still conditional on that version, so a change
 * made in between only makes the attempt lose and read afresh.
 */
export async function changeBundle(
  deps: { bundles: TBundleStore },
  accountId: string,
  id: string,
  apply: (current: TBundle) => TBundle,
  read?: TBundle,
): Promise<TBundle> {
  let fresh = read?.accountId === accountId && read.id === id ? read : undefined;
  return retryOnConflict(async () => {
    const current = fresh ?? (await getBundle(deps, accountId, id));
    fresh = undefined;
    const next = apply(current);
    if (next === current) return current;
    const versioned = nextVersion(current, next);
    await deps.bundles.save(versioned, current);
    return versioned;
  });
}

/**
 * The bundle to write over `current` for the change `next`: its new audit events chained and
 * their effects in the outbox, its due work and request times brought up to date, the version
 * raised. A change written with another item (a signer's record) is built here too, so it
 * writes exactly what changeBundle would.
 */
export function nextVersion(current: TBundle, next: TBundle): TBundle {
  assertActed(current, next);
  return withDueAt({
    ...withOutbox(current, withChain(current, withRequestTimes(current, next))),
    version: current.version + 1,
  });
}
