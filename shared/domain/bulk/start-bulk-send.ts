import type { TBulkStore } from '../../ports/bulk';
import type { TBlobStore } from '../../ports/files';
import type { TQueue } from '../../ports/queue';
import type { TClock, TIds } from '../../ports/system';
import { ZBulkRequestSchema } from '../../schemas/bulk';
import { parseInput } from '../parse-input';
import { bulkRequestKey, type TBulkBatch } from './bulk-batch';

export interface TStartBulkDeps {
  bulk: TBulkStore;
  blobs: TBlobStore;
  queue: TQueue;
  clock: TClock;
  ids: TIds;
}

/**
 * Accepts a bulk send: its shape is checked here (the body is an object, 1 to 1,000 rows); each
 * row is checked as a single create would be when the worker creates it, so one bad row never
 * holds back the others. The request is kept as a file, the batch written, and its first chunk
 * queued.
 */
export async function startBulkSend(
  deps: TStartBulkDeps,
  auth: { accountId: string; userId: string },
  body: unknown,
): Promise<TBulkBatch> {
  const request = parseInput(ZBulkRequestSchema, body);
  const id = deps.ids.uuid();
  const requestKey = bulkRequestKey(auth.accountId, id);
  await deps.blobs.put(requestKey, Buffer.from(JSON.stringify(request)), 'application/json');
  const batch: TBulkBatch = {
    id,
    accountId: auth.accountId,
    userId: auth.userId,
    created: deps.clock.now().toISOString(),
    total: request.rows.length,
    requestKey,
  };
  await deps.bulk.create(batch);
  await deps.queue.send('bulkJobs', { accountId: auth.accountId, batchId: id, chunk: 0 });
  return batch;
}
