// A bulk send: one create body and its rows, each row becoming one bundle.
import { derivedSlug } from '../derived-ids';
import type { TFieldError } from '../errors';

export interface TBulkBatch {
  id: string;
  accountId: string;
  /** The API key's user, for document templates only its owner may use. */
  userId: string;
  created: string;
  total: number;
  /** Where the request (the body and its rows) is kept: a batch's rows outgrow an item. */
  requestKey: string;
  /** Set once, by the worker that found every row done; the webhook fires with it. */
  completed?: string;
}

export interface TBulkRowResult {
  accountId: string;
  batchId: string;
  /** 0-based, in the order of the request's rows. */
  row: number;
  status: 'created' | 'failed';
  bundleId?: string;
  errors?: TFieldError[];
}

/** Rows a worker job creates; the next chunk waits so that rows go out at the account's pace. */
export const BULK_CHUNK_ROWS = 25;

/**
 * The pace of bulk creates: half the account's API throttle rate, so a running batch leaves the
 * integrator half of their own rate (the worker's creates are not API calls and are not throttled).
 */
export const bulkRowsPerSecond = (throttleRatePerSecond: number) =>
  Math.max(1, Math.floor(throttleRatePerSecond / 2));

/** Half the default throttle (50 a second), for a worker whose stage sets no rate. */
export const DEFAULT_BULK_ROWS_PER_SECOND = 25;

export const bulkRequestKey = (accountId: string, batchId: string) =>
  `accounts/${accountId}/bulk/${batchId}/request.json`;

/**
 * The id of a row's bundle, derived from the batch (a random UUID) and the row: a retried chunk
 * creates the same id, which the bundle item's conditional put lets exist only once.
 */
export const bulkBundleId = (batchId: string, row: number): string => derivedSlug(`bulk:${batchId}:${row}`);
