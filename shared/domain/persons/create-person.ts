import type { TPersonStore } from '../../ports/persons';
import type { TClock, TIds } from '../../ports/system';
import { ZPersonWriteSchema } from '../../schemas/person';
import { parseInput } from '../parse-input';
import { replaceChannels } from './merge-channels';
import type { TPerson } from './person';

export async function createPerson(
  deps: { store: TPersonStore; clock: TClock; ids: TIds },
  accountId: string,
  body: unknown,
): Promise<TPerson> {
  const input = parseInput(ZPersonWriteSchema, body);
  const newId = () => deps.ids.uuid();
  const now = deps.clock.now().toISOString();
  // Ids a client puts on channels of a new person name nothing yet; they are ignored.
  const channels = replaceChannels(
    [],
    (input.channels ?? []).map(({ id: _id, ...c }) => c),
    newId,
  );
  const person: TPerson = {
    id: deps.ids.uuid(),
    accountId,
    name: input.name,
    metadata: input.metadata ?? {},
    isUser: false,
    channels,
    created: now,
    updated: now,
    version: 1,
  };
  await deps.store.save(person, undefined);
  return person;
}
