import type { TBundleStore } from '../../ports/bundles';
import type { TPersonStore } from '../../ports/persons';
import type { TClock, TIds } from '../../ports/system';
import { ZPersonWriteSchema } from '../../schemas/person';
import { followPersonChanges } from '../bundles/follow-person';
import { parseInput } from '../parse-input';
import { retryOnConflict } from '../retry-on-conflict';
import { getPerson } from './get-person';
import { replaceChannels } from './merge-channels';
import type { TPerson } from './person';

/** PUT: name, metadata and channels are replaced as given; what is left out is gone. */
export async function replacePerson(
  deps: { store: TPersonStore; bundles: TBundleStore; clock: TClock; ids: TIds },
  accountId: string,
  id: string,
  body: unknown,
): Promise<TPerson> {
  const input = parseInput(ZPersonWriteSchema, body);
  return retryOnConflict(async () => {
    const current = await getPerson(deps, accountId, id);
    const next: TPerson = {
      ...current,
      name: input.name,
      metadata: input.metadata ?? {},
      channels: replaceChannels(current.channels, input.channels ?? [], () => deps.ids.uuid()),
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
