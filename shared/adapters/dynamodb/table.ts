// The single table's physical shape, declared once: infra/ creates it on AWS from this, the
// local runtime creates it in dynalite from this, and the entity files build keys for it.

export const TABLE_KEYS = { partitionKey: 'pk', sortKey: 'sk' } as const;

/**
 * Secondary indexes, each named after the query it serves. All are keys only: a list reads
 * ~160 bytes per match to count it for the pagination header, and only the page itself is
 * fetched in full (BatchGetItem on the base table).
 * - `by-list-order`: every listable entity of an account in list order (newest first).
 * - `by-status`: an account's bundles of one status, by created. The keys sit on the bundle
 *   item itself, so a status change moves the bundle between lists in the same write.
 * - `by-sent`, `by-completed`: an account's bundles by sent / completed time. Sparse: a bundle
 *   has these keys only once it was sent / completed.
 * - `by-outbox`: bundles whose webhook events wait to be published, for the sweeper that
 *   publishes what the outbox relay did not. Sparse (only while waiting) and spread over
 *   OUTBOX_SHARDS partitions so that busy accounts never share one hot key.
 * - `by-due`: sent bundles with work for the scheduler (expiry, a signer's next automatic
 *   reminder), by the time it is due. Sparse (only while something is due) and spread over
 *   DUE_SHARDS partitions like by-outbox.
 * - `by-log`: webhook events and deliveries of an account, newest first. It projects the
 *   attributes the log filters read, so a filtered list counts its matches from the index alone.
 */
export const INDEXES = {
  byListOrder: { name: 'by-list-order', partitionKey: 'lpk', sortKey: 'lsk', projection: 'KEYS_ONLY' },
  byStatus: { name: 'by-status', partitionKey: 'statusPk', sortKey: 'statusSk', projection: 'KEYS_ONLY' },
  bySent: { name: 'by-sent', partitionKey: 'sentPk', sortKey: 'sentSk', projection: 'KEYS_ONLY' },
  byCompleted: {
    name: 'by-completed',
    partitionKey: 'completedPk',
    sortKey: 'completedSk',
    projection: 'KEYS_ONLY',
  },
  byOutbox: { name: 'by-outbox', partitionKey: 'outboxPk', sortKey: 'outboxSk', projection: 'KEYS_ONLY' },
  byDue: { name: 'by-due', partitionKey: 'duePk', sortKey: 'dueSk', projection: 'KEYS_ONLY' },
  byLog: {
    name: 'by-log',
    partitionKey: 'logPk',
    sortKey: 'logSk',
    projection: 'INCLUDE',
    nonKeyAttributes: ['webhookId', 'eventId', 'eventType', 'status', 'success'],
  },
} as const;

export const OUTBOX_SHARDS = 4;
export const DUE_SHARDS = 4;

export type TIndexName = (typeof INDEXES)[keyof typeof INDEXES]['name'];
