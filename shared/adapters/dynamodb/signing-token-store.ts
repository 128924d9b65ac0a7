import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { TLinkTarget, TSigningToken, TSigningTokenStore } from '#shared/domain/ports/signing';
import { remember } from '../remember';
import { getItem } from './batch';
import { signingKeys, signingTokenEntity } from './entities/signing';
import { putNew, setOnce } from './versioned';

/** Sessions one function instance remembers (the oldest forgotten first): a few hundred kilobytes. */
const SESSIONS_KEPT = 1000;
/** Links' targets one function instance remembers, the same way. */
const LINKS_KEPT = 1000;

/**
 * A session's item never changes once written (only links are consumed; a session's expiry and
 * its signer's generation are checked on every call against the clock and the bundle), so a
 * function instance keeps the sessions it wrote or read, and each later call of a signer it
 * serves waits for one DynamoDB request less. Links are always read, since their use is marked
 * on them; what they point at never changes, so the instance keeps that (`targetOf`): the page a
 * link opens reads it, and the session's exchange that follows can start its own reads beside
 * the link's instead of after it.
 */
export function createSigningTokenStore(db: DynamoDBDocumentClient, table: string): TSigningTokenStore {
  const sessions = new Map<string, TSigningToken>();
  const links = new Map<string, TLinkTarget>();
  const keep = (token: TSigningToken) => {
    if (token.kind === 'session') return remember(sessions, token.hash, token, SESSIONS_KEPT);
    const { accountId, bundleId, packetId, kind, kiosk } = token;
    remember(
      links,
      token.hash,
      { accountId, bundleId, packetId, kind, ...(kiosk ? { kiosk } : {}) },
      LINKS_KEPT,
    );
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

    targetOf: (hash) => links.get(hash),

    consume: (hash, at) => setOnce(db, table, signingKeys.token(hash), 'usedAt', at),
  };
}
