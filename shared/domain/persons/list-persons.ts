import type { TPage } from '../../http/pagination';
import type { TPageOf, TPersonStore } from '../../ports';
import { parseInput } from '../../schemas/common';
import { ZPersonFilterSchema } from '../../schemas/person';
import type { TPerson } from './person';

/** Newest first; filters combine (a person must match all of them). */
export async function listPersons(
  deps: { store: TPersonStore },
  accountId: string,
  query: { search?: string; email?: string; phone?: string },
  page: TPage,
): Promise<TPageOf<TPerson>> {
  const filter = parseInput(ZPersonFilterSchema, query);
  return deps.store.list(accountId, filter, page);
}
