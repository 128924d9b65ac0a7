import { ZPersonFilterSchema } from '#shared/schemas/person';
import type { TPage, TPageOf } from '../paging';
import { parseInput } from '../parse-input';
import type { TPersonStore } from '../ports/persons';
import type { TPerson, TPersonFilter } from './person';

/** Newest first; filters combine (a person must match all of them). Returns the filter applied. */
export async function listPersons(
  deps: { store: TPersonStore },
  accountId: string,
  query: { search?: string; email?: string; phone?: string },
  page: TPage,
): Promise<TPageOf<TPerson> & { filter: TPersonFilter }> {
  const filter = parseInput(ZPersonFilterSchema, query);
  return { ...(await deps.store.list(accountId, filter, page)), filter };
}
