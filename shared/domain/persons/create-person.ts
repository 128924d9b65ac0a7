import type * as z from 'zod';
import { ZPersonWriteSchema } from '#shared/schemas/person';
import { createOnce } from '../create-once';
import { derivedUuid } from '../derived-ids';
import { parseInput } from '../parse-input';
import type { TPersonStore } from '../ports/persons';
import type { TClock, TIds } from '../ports/system';
import { replaceChannels } from './merge-channels';
import type { TPerson } from './person';

export async function createPerson(
  deps: { store: TPersonStore; clock: TClock; ids: TIds },
  accountId: string,
  body: unknown,
  /** Under an Idempotency-Key: the person's id follows from the request (create-once.ts). */
  retrySeed?: string,
): Promise<TPerson> {
  const input = parseInput(ZPersonWriteSchema, body);
  const id = retrySeed === undefined ? undefined : derivedUuid(`person:${retrySeed}`);
  return createOnce(
    id,
    (personId) => deps.store.get(accountId, personId),
    () => writePerson(deps, accountId, input, id ?? deps.ids.uuid()),
  );
}

async function writePerson(
  deps: { store: TPersonStore; clock: TClock; ids: TIds },
  accountId: string,
  input: z.output<typeof ZPersonWriteSchema>,
  id: string,
): Promise<TPerson> {
  const newId = () => deps.ids.uuid();
  const now = deps.clock.now().toISOString();
  // Ids a client puts on channels of a new person name nothing yet; they are ignored.
  const channels = replaceChannels(
    [],
    (input.channels ?? []).map(({ id: _id, ...c }) => c),
    newId,
  );
  const person: TPerson = {
    id,
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
