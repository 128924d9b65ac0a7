// Keys and entity of an Idempotency-Key record, declared once. Each record is its own partition
// (the account and the key), so a busy account's retries never share one hot key, and another
// account's same key is another item.
import type { TIdempotencyRecord } from '#shared/domain/ports/idempotency';
import { defineEntity } from '../entity';

export const idempotencyKeys = {
  item: (accountId: string, key: string) => ({ pk: `IDEMPOTENCY#${accountId}#${key}`, sk: 'IDEMPOTENCY' }),
};

export type TIdempotencyItem = TIdempotencyRecord & {
  accountId: string;
  key: string;
  /** The claim's own random token (TIdempotencyClaim.owner); absent on records older than it. */
  owner?: string;
  /** Epoch milliseconds: a claim in progress holds the key until then. */
  lockedUntil: number;
  /** Epoch seconds, the table's TTL attribute; expiry is also checked on read (TTL deletes late). */
  ttl: number;
};

export const idempotencyEntity = defineEntity<TIdempotencyItem>({
  name: 'idempotency',
  version: 1,
  key: (r) => idempotencyKeys.item(r.accountId, r.key),
});
