// The people an account sends to.
import type { TPage, TPageOf } from '../paging';
import type { TPerson, TPersonFilter } from '../persons/person';

export interface TPersonStore {
  get(accountId: string, id: string): Promise<TPerson | undefined>;
  /** `previous` undefined: create (fails if the id exists); else replace if its version still holds. */
  save(person: TPerson, previous: TPerson | undefined): Promise<void>;
  delete(person: TPerson): Promise<void>;
  list(accountId: string, filter: TPersonFilter, page: TPage): Promise<TPageOf<TPerson>>;
}
