// Keys and entity of the template preparation session, declared once. A session is found by its
// token's hash alone (the public page has no account), so it is its own partition.
import type { TPrepSession } from '#shared/domain/templates/prep-session';
import { defineEntity } from '../entity';

export const prepSessionKeys = {
  item: (hash: string) => ({ pk: `PREPSESSION#${hash}`, sk: 'PREPSESSION' }),
};

export const prepSessionEntity = defineEntity<TPrepSession>({
  name: 'prep-session',
  version: 1,
  key: (s) => prepSessionKeys.item(s.hash),
  // `ttl` (the table's TTL attribute) is housekeeping only: expiry is checked on every read,
  // never left to TTL.
  encode: (s) => ({ ...s, ttl: Math.floor(Date.parse(s.expires) / 1000) + 24 * 3600 }),
  decode: ({ ttl: _ttl, ...session }) => session as unknown as TPrepSession,
});
