// Bulk send batches and their per-row results.
import type { TBulkBatch, TBulkRowResult } from '../bulk/bulk-batch';

export interface TBulkStore {
  /** Fails if the id exists. */
  create(batch: TBulkBatch): Promise<void>;
  get(accountId: string, id: string): Promise<TBulkBatch | undefined>;
  /** The account's batches not completed yet, read consistently (a key's destruction waits for them). */
  unfinishedOfAccount(accountId: string): Promise<TBulkBatch[]>;
  /** The row results of the batch, in row order: every one, or those of rows `from` to `to` - 1. */
  rowResults(batch: TBulkBatch, rows?: { from: number; to: number }): Promise<TBulkRowResult[]>;
  /** Records a row's result unless it has one: false when it had (a retried chunk). */
  recordRow(result: TBulkRowResult): Promise<boolean>;
  /** Marks the batch completed unless it is: false when it was (another worker finished it). */
  complete(batch: TBulkBatch, at: string): Promise<boolean>;
  /** Records that the retention policy erased the originals of the row's bundle (again: no change). */
  markOriginalsErased(row: TBulkRowResult, at: string): Promise<void>;
  /** Records the batch's own objects erased unless they are: false when they were. */
  markDocumentsDeleted(
    batch: TBulkBatch,
    deleted: NonNullable<TBulkBatch['documentsDeleted']>,
  ): Promise<boolean>;
  /**
   * Reserves the time `rows` rows take at `rowsPerSecond` on the pace shared by every batch of
   * `paceKey`, from `now` (epoch ms) or the end of the last reservation if later; answers when
   * the reserved time starts.
   */
  reservePace(paceKey: string, rows: number, rowsPerSecond: number, now: number): Promise<number>;
}
