import type { TPacketRequest } from '#shared/schemas/bundle-request';
import { ValidationError } from '../errors';
import { patchChannels } from '../persons/merge-channels';
import type { TPerson } from '../persons/person';
import type { TPersonStore } from '../ports/persons';
import type { TClock, TIds } from '../ports/system';
import { retryOnConflict } from '../retry-on-conflict';

type TDeps = { persons: TPersonStore; clock: TClock; ids: TIds };

/** What a signer's Person is found or made from. */
type TSignerRequest = Pick<TPacketRequest, 'name' | 'email' | 'phone' | 'person_id'>;

function newChannels(p: { email?: string; phone?: string }) {
  return [...(p.email ? [{ email: p.email }] : []), ...(p.phone ? [{ phone: p.phone }] : [])];
}

/**
 * Every signer is a Person of the account: the one named by person_id (its name follows the
 * packet's, new email or phone become channels), else the first with the same email, else with
 * the same phone (new channels added), else a new Person.
 */
export async function linkPerson(
  deps: TDeps,
  accountId: string,
  p: TSignerRequest,
  path: string,
): Promise<string> {
  const found = await findPerson(deps, accountId, p, path);
  if (!found) {
    const now = deps.clock.now().toISOString();
    const person: TPerson = {
      id: deps.ids.uuid(),
      accountId,
      name: p.name,
      metadata: {},
      isUser: false,
      channels: patchChannels([], newChannels(p), () => deps.ids.uuid()),
      created: now,
      updated: now,
      version: 1,
    };
    await deps.persons.save(person, undefined);
    return person.id;
  }
  await updateLinkedPerson(
    deps,
    accountId,
    found.id,
    { ...(p.person_id ? { name: p.name } : {}), email: p.email, phone: p.phone },
    found,
  );
  return found.id;
}

/**
 * A new email or phone becomes a channel of the Person; the name changes only when given.
 * `read`: the Person as just found, used for the first attempt (a lost race reads it again).
 */
export async function updateLinkedPerson(
  deps: TDeps,
  accountId: string,
  personId: string,
  change: { name?: string; email?: string; phone?: string },
  read?: TPerson,
): Promise<void> {
  let known = read;
  await retryOnConflict(async () => {
    const current = known ?? (await deps.persons.get(accountId, personId));
    known = undefined;
    if (!current) return; // deleted meanwhile: nothing to follow
    const name = change.name ?? current.name;
    const channels = patchChannels(current.channels, newChannels(change), () => deps.ids.uuid());
    if (name === current.name && channels.length === current.channels.length) return;
    await deps.persons.save(
      { ...current, name, channels, updated: deps.clock.now().toISOString(), version: current.version + 1 },
      current,
    );
  });
}

async function findPerson(deps: TDeps, accountId: string, p: TSignerRequest, path: string) {
  if (p.person_id) {
    const person = await deps.persons.get(accountId, p.person_id.toLowerCase());
    if (!person)
      throw new ValidationError('Invalid input.', [
        { field: `${path}.person_id`, message: 'No person has this id.' },
      ]);
    return person;
  }
  const one = { page: 1, perPage: 1 };
  if (p.email) {
    const byEmail = await deps.persons.list(accountId, { email: p.email }, one);
    if (byEmail.items[0]) return byEmail.items[0];
  }
  if (p.phone) {
    const byPhone = await deps.persons.list(accountId, { phone: p.phone }, one);
    if (byPhone.items[0]) return byPhone.items[0];
  }
  return undefined;
}
