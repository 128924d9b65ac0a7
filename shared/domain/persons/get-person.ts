import { NotFoundError } from '../errors';
import type { TPersonStore } from '../ports/persons';
import type { TPerson } from './person';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Another account's person and a malformed id answer the same: not found. */
export async function getPerson(
  deps: { store: TPersonStore },
  accountId: string,
  id: string,
): Promise<TPerson> {
  const person = UUID.test(id) ? await deps.store.get(accountId, id.toLowerCase()) : undefined;
  if (!person) throw new NotFoundError('Person not found.');
  return person;
}
