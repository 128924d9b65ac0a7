import { ZBulkRequestSchema } from '#shared/schemas/bulk';
import { parseInput } from '../parse-input';
import type { TBulkStore } from '../ports/bulk';
import type { TBlobStore } from '../ports/files';
import type { TQueue } from '../ports/queue';
import type { TClock, TIds } from '../ports/system';
import { keepBulkRequest } from './batch-request';
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
 * holds back the others. The request is kept as a file (its inline documents apart, once:
 * batch-request.ts), the batch written, and its first chunk
 * queued.
 */
export async function startBulkSend(
  deps: TStartBulkDeps,
  /**
   * `keyId`: the API key the bundles are made by; `usageKeyId`: the API key whose pace the batch
   * keeps (shared with its other batches).
   */
  auth: { accountId: string; userId: string; keyId?: string; usageKeyId?: string },
  body: unknown,
  /** An id derived from the request under its Idempotency-Key: a second run answers the first's batch. */
  made: { id?: string } = {},
): Promise<TBulkBatch> {
  const request = parseInput(ZBulkRequestSchema, body);
  const id = made.id ?? deps.ids.uuid();
  const before = made.id ? await deps.bulk.get(auth.accountId, id) : undefined;
  if (before) return resumed(deps, before);
  const requestKey = bulkRequestKey(auth.accountId, id);
  await keepBulkRequest(deps.blobs, { id, accountId: auth.accountId, requestKey }, request);
  const batch: TBulkBatch = {
    id,
    accountId: auth.accountId,
    userId: auth.userId,
    ...(auth.keyId ? { keyId: auth.keyId } : {}),
    created: deps.clock.now().toISOString(),
    total: request.rows.length,
    requestKey,
    ...(auth.usageKeyId ? { paceKey: auth.usageKeyId } : {}),
  };
  try {
    await deps.bulk.create(batch);
  } catch (err) {
    // Two runs of one request at once: the other's batch stands and runs.
    const first = made.id ? await deps.bulk.get(auth.accountId, id) : undefined;
    if (first) return first;
    throw err;
  }
  await deps.queue.send('bulkJobs', { accountId: auth.accountId, batchId: id, chunk: 0 });
  return batch;
}

/**
 * A batch this request already wrote. The run that wrote it may have died before queueing its
 * first chunk, so while no row has a result the first chunk is queued again: a chunk run twice
 * creates nothing twice (rows' bundle ids are derived, a row's result is put only once).
 */
async function resumed(deps: TStartBulkDeps, batch: TBulkBatch): Promise<TBulkBatch> {
  const started = await deps.bulk.rowResults(batch, { from: 0, to: 1 });
  if (started.length === 0 && !batch.completed) {
    await deps.queue.send('bulkJobs', { accountId: batch.accountId, batchId: batch.id, chunk: 0 });
  }
  return batch;
}
