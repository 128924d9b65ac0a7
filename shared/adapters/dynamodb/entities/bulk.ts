// Keys and entities of bulk send: the batch and one item per row result, declared once.
import type { TBulkBatch, TBulkRowResult } from '#shared/domain/bulk/bulk-batch';
import { defineEntity } from '../entity';
import { accountPartition } from './account-partition';

export const bulkKeys = {
  batch: (accountId: string, id: string) => ({ pk: accountPartition(accountId), sk: `BULK#${id}` }),
  /** A batch's rows have a partition of their own: one Query reads them in row order. */
  rows: (accountId: string, batchId: string) => `${accountPartition(accountId)}#BULK#${batchId}`,
  row: (accountId: string, batchId: string, row: number) => ({
    pk: bulkKeys.rows(accountId, batchId),
    sk: `ROW#${String(row).padStart(5, '0')}`,
  }),
  /** The pace of every batch of one API key: its own partition, written once a chunk. */
  pace: (paceKey: string) => ({ pk: `BULKPACE#${paceKey}`, sk: 'PACE' }),
};

/** When the key's next chunk may start (epoch ms): every chunk reserved so far has its time. */
export interface TBulkPace {
  paceKey: string;
  nextAt: number;
}

export const bulkPaceEntity = defineEntity<TBulkPace>({
  name: 'bulk-pace',
  version: 1,
  key: (p) => bulkKeys.pace(p.paceKey),
});

export const bulkBatchEntity = defineEntity<TBulkBatch>({
  name: 'bulk-batch',
  // 2: `documentsDeleted` (erased by the retention policy); a version 1 item has none and reads as it is.
  version: 2,
  key: (b) => bulkKeys.batch(b.accountId, b.id),
});

export const bulkRowEntity = defineEntity<TBulkRowResult>({
  name: 'bulk-row',
  // 2: `originalsErased`; a version 1 item has none and reads as it is.
  version: 2,
  key: (r) => bulkKeys.row(r.accountId, r.batchId, r.row),
});
