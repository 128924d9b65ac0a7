import { NotFoundError } from '../errors';
import type { TBulkStore } from '../ports/bulk';
import type { TBulkBatch, TBulkRowResult } from './bulk-batch';

export interface TBulkProgress {
  batch: TBulkBatch;
  results: TBulkRowResult[];
}

/** A batch of the account with its row results; another account's id is not found. */
export async function getBulkBatch(
  deps: { bulk: TBulkStore },
  accountId: string,
  id: string,
): Promise<TBulkProgress> {
  const batch = await deps.bulk.get(accountId, id.toLowerCase());
  if (!batch) throw new NotFoundError();
  return { batch, results: await deps.bulk.rowResults(batch) };
}
