// The single table's physical shape, declared once: infra/ creates it on AWS from this, the
// local runtime creates it in dynalite from this, and the entity files build keys for it.

export const TABLE_KEYS = { partitionKey: 'pk', sortKey: 'sk' } as const;

/**
 * Secondary indexes, each named after the query it serves.
 * - `by-list-order`: every listable entity of an account in list order (newest first), keys only,
 *   so counting a list for the pagination header reads ~100 bytes per item, and only the
 *   page itself is fetched in full (BatchGetItem on the base table).
 */
export const INDEXES = {
  byListOrder: { name: 'by-list-order', partitionKey: 'lpk', sortKey: 'lsk', projection: 'KEYS_ONLY' },
} as const;

export type TIndexName = (typeof INDEXES)[keyof typeof INDEXES]['name'];
