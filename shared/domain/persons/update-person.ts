import { ZPersonPatchSchema } from '#shared/schemas/person';
import type { TActing } from '../bundles/actor';
import { parseInput } from '../parse-input';
import { changePerson, type TChangePersonDeps } from './change-person';
import { patchChannels } from './merge-channels';

/** PATCH: fields given replace the stored ones; channels merge (see patchChannels). */
export async function updatePerson(deps: TChangePersonDeps, caller: TActing, id: string, body: unknown) {
  const input = parseInput(ZPersonPatchSchema, body);
  return changePerson(deps, caller, id, (current) => ({
    ...current,
    name: input.name ?? current.name,
    metadata: input.metadata ?? current.metadata,
    channels: input.channels
      ? patchChannels(current.channels, input.channels, () => deps.ids.uuid())
      : current.channels,
  }));
}
