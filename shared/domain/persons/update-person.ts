import type { TBundleStore } from '../../ports/bundles';
import type { TPersonStore } from '../../ports/persons';
import type { TClock, TIds } from '../../ports/system';
import { ZPersonPatchSchema } from '../../schemas/person';
import { followPersonChanges } from '../bundles/follow-person';
import { parseInput } from '../parse-input';
import { retryOnConflict } from '../retry-on-conflict';
import { getPerson } from './get-person';
import { patchChannels } from './merge-channels';
import type { TPerson } from './person';

/** PATCH: fields given replace the stored ones; channels merge (see patchChannels). */
export async function updatePerson(
  deps: { store: TPersonStore; bundles: TBundleStore; clock: TClock; ids: TIds },
  accountId: string,
  id: string,
  body: unknown,
): Promise<TPerson> {
  const input = parseInput(ZPersonPatchSchema, body);
  return retryOnConflict(async () => {
    const current = await getPerson(deps, accountId, id);
    const next: TPerson = {
      ...current,
      name: input.name ?? current.name,
      metadata: input.metadata ?? current.metadata,
      channels: input.channels
        ? patchChannels(current.channels, input.channels, () => deps.ids.uuid())
        : current.channels,
      updated: deps.clock.now().toISOString(),
      version: current.version + 1,
    };
    await deps.store.save(next, current);
    return { next, current };
  }).then(async ({ next, current }) => {
    await followPersonChanges(deps, current, next);
    return next;
  });
}
