// A bulk send: one create body and its rows, each row becoming one bundle.
import { derivedSlug } from '../derived-ids';
import type { TFieldError } from '../errors';

export interface TBulkBatch {
  id: string;
  accountId: string;
  /** The API key's user, for document templates only its owner may use. */
  userId: string;
  /**
   * The API key that sent the batch: its bundles' events say it acted. Absent on batches sent
   * before: their events name the user.
   */
  keyId?: string;
  created: string;
  total: number;
  /** Where the request (the body and its rows) is kept: a batch's rows outgrow an item. */
  requestKey: string;
  /** Set once, by the worker that found every row done; the webhook fires with it. */
  completed?: string;
  /**
   * The API key (its usage plan key) that sent the batch: every batch of a key shares one pace,
   * as the key's throttle is shared. Absent on batches sent before: their account's pace.
   */
  paceKey?: string;
  /**
   * When the retention policy erased the batch's own objects (its request, notes and shared
   * documents: erase-batch-documents.ts), with the SHA-256 of each shared document it erased.
   */
  documentsDeleted?: { at: string; sha256: string[] };
}

export interface TBulkRowResult {
  accountId: string;
  batchId: string;
  /** 0-based, in the order of the request's rows. */
  row: number;
  status: 'created' | 'failed';
  bundleId?: string;
  errors?: TFieldError[];
  /** When the retention policy erased the originals of the row's bundle. */
  originalsErased?: string;
}

/** Rows a worker job creates; the next chunk waits so that rows go out at the account's pace. */
export const BULK_CHUNK_ROWS = 25;

/**
 * The pace of bulk creates: half the API key's throttle rate, shared by all of the key's batches,
 * so running batches leave the integrator half of their own rate (the worker's creates are not
 * API calls and are not throttled). Half exactly: a throttle of 1 a second paces rows at one
 * every 2 seconds, not at the whole throttle.
 */
export const bulkRowsPerSecond = (throttleRatePerSecond: number) => throttleRatePerSecond / 2;

/** Half the default throttle (50 a second), for a worker whose stage sets no rate. */
export const DEFAULT_BULK_ROWS_PER_SECOND = 25;

export const bulkRequestKey = (accountId: string, batchId: string) =>
  `accounts/${accountId}/bulk/${batchId}/request.json`;

/**
 * The id of a row's bundle, derived from the batch (a random UUID) and the row: a retried chunk
 * creates the same id, which the bundle item's conditional put lets exist only once.
 */
export const bulkBundleId = (batchId: string, row: number): string => derivedSlug(`bulk:${batchId}:${row}`);
