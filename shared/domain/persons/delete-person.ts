import type { TPersonStore } from '../../ports';
import { retryOnConflict } from '../retry-on-conflict';
import { getPerson } from './get-person';

export async function deletePerson(
  deps: { store: TPersonStore },
  accountId: string,
  id: string,
): Promise<void> {
  await retryOnConflict(async () => {
    const current = await getPerson(deps, accountId, id);
    await deps.store.delete(current);
  });
}
