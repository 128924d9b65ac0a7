import type { TActing } from '../bundles/actor';
import { followPersonChanges } from '../bundles/follow-person';
import { changeVersioned } from '../change-versioned';
import type { TBundleStore } from '../ports/bundles';
import type { TPersonStore } from '../ports/persons';
import type { TClock, TIds } from '../ports/system';
import { getPerson } from './get-person';
import type { TPerson } from './person';

export type TChangePersonDeps = { store: TPersonStore; bundles: TBundleStore; clock: TClock; ids: TIds };

/**
 * A change of a stored person (changeVersioned) by the caller, which the bundles that name the
 * person follow once it is saved (their events are the caller's).
 */
export async function changePerson(
  deps: TChangePersonDeps,
  { accountId, by }: TActing,
  id: string,
  change: (current: TPerson) => TPerson,
): Promise<TPerson> {
  const { current, next } = await changeVersioned(deps.clock, {
    read: () => getPerson(deps, accountId, id),
    change,
    save: (n, c) => deps.store.save(n, c),
  });
  await followPersonChanges(deps, current, next, by);
  return next;
}
