import { ZPersonWriteSchema } from '#shared/schemas/person';
import type { TActing } from '../bundles/actor';
import { parseInput } from '../parse-input';
import { changePerson, type TChangePersonDeps } from './change-person';
import { replaceChannels } from './merge-channels';

/** PUT: name, metadata and channels are replaced as given; what is left out is gone. */
export async function replacePerson(deps: TChangePersonDeps, caller: TActing, id: string, body: unknown) {
  const input = parseInput(ZPersonWriteSchema, body);
  return changePerson(deps, caller, id, (current) => ({
    ...current,
    name: input.name,
    metadata: input.metadata ?? {},
    channels: replaceChannels(current.channels, input.channels ?? [], () => deps.ids.uuid()),
  }));
}
