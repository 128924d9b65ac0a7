import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { TSigningToken, TSigningTokenStore } from '#shared/domain/ports/signing';
import { getItem } from './batch';
import { signingKeys, signingTokenEntity } from './entities/signing';
import { putNew, setOnce } from './versioned';

/** Sessions one function instance remembers (the oldest forgotten first): a few hundred kilobytes. */
const SESSIONS_KEPT = 1000;

/**
 * A session's item never changes once written (only links are consumed; a session's expiry and
 * its signer's generation are checked on every call against the clock and the bundle), so a
 * function instance keeps the sessions it wrote or read, and each later call of a signer it
 * serves waits for one DynamoDB request less. Links are always read.
 */
export function createSigningTokenStore(db: DynamoDBDocumentClient, table: string): TSigningTokenStore {
  const sessions = new Map<string, TSigningToken>();
  const keep = (token: TSigningToken) => {
    if (token.kind !== 'session') return;
    sessions.delete(token.hash);
    sessions.set(token.hash, token);
    if (sessions.size > SESSIONS_KEPT) sessions.delete(sessions.keys().next().value!);
  };
  return {
    async create(token) {
      await putNew(db, table, signingTokenEntity.toItem(token));
      keep(token);
    },

    async get(hash) {
      const kept = sessions.get(hash);
      if (kept) return kept;
      const token = await getItem(db, table, signingKeys.token(hash), signingTokenEntity.fromItem, true);
      if (token) keep(token);
      return token;
    },

    consume: (hash, at) => setOnce(db, table, signingKeys.token(hash), 'usedAt', at),
  };
}
