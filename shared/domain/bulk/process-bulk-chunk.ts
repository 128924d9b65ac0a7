import type { TBulkRequest } from '#shared/schemas/bulk';
import { byApiKey, type TActor } from '../bundles/actor';
import type { TBundle } from '../bundles/bundle';
import type { TMadeAs } from '../bundles/create-bundle';
import type { TDocumentSharing } from '../bundles/document-sharing';
import { ConflictError, ValidationError } from '../errors';
import type { TBulkJob } from '../outbox/jobs/bulk-jobs';
import { listens, logAndQueue } from '../outbox/publish-events';
import type { TBulkStore } from '../ports/bulk';
import type { TBlobStore } from '../ports/files';
import type { TQueue } from '../ports/queue';
import type { TClock } from '../ports/system';
import type { TWebhookEventStore, TWebhookStore } from '../ports/webhooks';
import { type TWebhookEvent, webhookEventId } from '../webhooks/webhook-event';
import { batchDocuments } from './batch-documents';
import { readBulkRequest } from './batch-request';
import { BULK_CHUNK_ROWS, bulkBundleId, type TBulkBatch, type TBulkRowResult } from './bulk-batch';
import { rowRequest } from './row-request';

export interface TBulkChunkDeps {
  bulk: TBulkStore;
  blobs: TBlobStore;
  queue: TQueue;
  clock: TClock;
  webhooks: TWebhookStore;
  webhookEvents: TWebhookEventStore;
  /** The single create (create-bundle.ts), with the deps of the bundles function. */
  createBundle: (
    accountId: string,
    body: unknown,
    caller: { userId: string; by: TActor },
    made: TMadeAs,
  ) => Promise<TBundle>;
  getBundle: (accountId: string, id: string) => Promise<TBundle | undefined>;
  /** Rows a second (bulkRowsPerSecond). */
  rowsPerSecond: number;
}

/** SQS hides a message at most this long; a chunk whose time is further off is put back again. */
const MAX_DELAY_SECONDS = 900;

/**
 * Creates one chunk of a batch's rows, each once: a row with a result is skipped, a row's bundle
 * has an id derived from the batch and the row, so a chunk that dies half-way and runs again
 * finds the bundle it made. A chunk first reserves its rows' time on its API key's pace, shared
 * by every batch of that key (two batches at once go out at the key's pace together, not each at
 * it); a chunk whose time has not come goes back on the queue until it has, its reservation in
 * the job. Then queues the next chunk; after the last, marks the batch completed (once) and
 * fires bulk_completed.
 * A row refused as a single create would be records that create's errors and the batch goes on;
 * any other failure throws, and the queue runs the chunk again; on the chunk's last attempt such
 * a row is recorded failed instead, so that the batch still completes.
 */
export async function processBulkChunk(
  deps: TBulkChunkDeps,
  job: TBulkJob,
  lastAttempt = false,
): Promise<void> {
  const batch = await deps.bulk.get(job.accountId, job.batchId);
  if (!batch || batch.completed) return;
  const first = job.chunk * BULK_CHUNK_ROWS;
  const last = Math.min(batch.total, first + BULK_CHUNK_ROWS);
  if (first >= last) return;
  const now = Date.now();
  const slot =
    job.slot ??
    (await deps.bulk.reservePace(
      batch.paceKey ?? `account:${batch.accountId}`,
      last - first,
      deps.rowsPerSecond,
      now,
    ));
  if (slot > now) {
    const delaySeconds = Math.min(MAX_DELAY_SECONDS, Math.ceil((slot - now) / 1000));
    await deps.queue.send('bulkJobs', { ...job, slot }, { delaySeconds });
    return;
  }
  const { request, sharedStored } = await readBulkRequest(deps.blobs, batch);
  const done = new Set((await deps.bulk.rowResults(batch, { from: first, to: last })).map((r) => r.row));
  const documents = batchDocuments(deps.blobs, batch, sharedStored);
  for (let row = first; row < last; row++) {
    if (done.has(row)) continue;
    await deps.bulk.recordRow(await createRow(deps, batch, request, row, lastAttempt, documents));
  }
  if (last < batch.total) {
    // At once: the next chunk waits for its own reserved time.
    await deps.queue.send('bulkJobs', {
      accountId: job.accountId,
      batchId: job.batchId,
      chunk: job.chunk + 1,
    });
    return;
  }
  await completeBatch(deps, batch);
}

async function createRow(
  deps: TBulkChunkDeps,
  batch: TBulkBatch,
  request: TBulkRequest,
  row: number,
  lastAttempt: boolean,
  documents: TDocumentSharing,
): Promise<TBulkRowResult> {
  const about = { accountId: batch.accountId, batchId: batch.id, row };
  const { body, errors } = rowRequest(request.bundle, request.rows[row]!, row);
  if (errors.length > 0) return { ...about, status: 'failed', errors };
  const id = bulkBundleId(batch.id, row);
  if (await deps.getBundle(batch.accountId, id)) return { ...about, status: 'created', bundleId: id };
  try {
    // Made by the key that sent the batch (a batch sent before keys were kept: by its user).
    const by: TActor = batch.keyId ? byApiKey(batch.keyId) : { type: 'user', userId: batch.userId };
    await deps.createBundle(
      batch.accountId,
      body,
      { userId: batch.userId, by },
      { id, tags: [batch.id], documents },
    );
    return { ...about, status: 'created', bundleId: id };
  } catch (err) {
    if (err instanceof ValidationError) return { ...about, status: 'failed', errors: err.fieldErrors };
    // Another run of this chunk created the row's bundle between the read above and this create.
    if (err instanceof ConflictError && (await deps.getBundle(batch.accountId, id)))
      return { ...about, status: 'created', bundleId: id };
    if (!lastAttempt) throw err;
    const message = 'The bundle could not be created after several attempts; send this row again.';
    return { ...about, status: 'failed', errors: [{ field: 'non_field_errors', message }] };
  }
}

/** Once every row has its result: completed once, and the webhook event with the counts. */
async function completeBatch(deps: TBulkChunkDeps, batch: TBulkBatch): Promise<void> {
  const results = await deps.bulk.rowResults(batch);
  if (results.length < batch.total) return;
  const now = deps.clock.now().toISOString();
  if (!(await deps.bulk.complete(batch, now))) return;
  const payload = {
    batch_id: batch.id,
    total: batch.total,
    created: results.filter((r) => r.status === 'created').length,
    failed: results.filter((r) => r.status === 'failed').length,
  };
  const hooks = (await deps.webhooks.all(batch.accountId)).filter((w) => listens(w, 'bulk_completed'));
  await Promise.all(
    hooks.map((hook) => {
      const event: TWebhookEvent = {
        id: webhookEventId(`bulk:${batch.id}`, 0, hook.id),
        accountId: batch.accountId,
        webhookId: hook.id,
        type: 'bulk_completed',
        created: now,
        eventDate: now,
        payload: JSON.stringify(payload),
        status: 0,
        success: false,
        deliveries: [],
        queued: false,
      };
      return logAndQueue(deps, event, hook.enabled);
    }),
  );
}
