// Keys and entities of the console users' passkeys and the WebAuthn challenges handed out for
// them. A passkey is found by its id (the hash of its credential id: a sign-in names no user
// before it is verified) and listed per user through the by-list-order index.
import type { TPasskey, TPasskeyChallenge } from '#shared/domain/console/passkey';
import { defineEntity } from '../entity';

export const passkeyKeys = {
  passkey: (id: string) => ({ pk: `PASSKEY#${id}`, sk: 'PASSKEY' }),
  /** The user's passkeys, in the order they were added. */
  listPartition: (accountId: string, userId: string) => `PASSKEYS#${accountId}#${userId}`,
  listOrder: (p: TPasskey) => ({
    lpk: passkeyKeys.listPartition(p.accountId, p.userId),
    lsk: `${p.created}#${p.id}`,
  }),
  challenge: (hash: string) => ({ pk: `PASSKEYCHALLENGE#${hash}`, sk: 'PASSKEYCHALLENGE' }),
};

export const passkeyEntity = defineEntity<TPasskey>({
  name: 'passkey',
  version: 1,
  key: (p) => passkeyKeys.passkey(p.id),
  indexes: { byListOrder: passkeyKeys.listOrder },
});

/** `ttl` (epoch seconds, the table's TTL attribute) removes challenges never answered. */
export const passkeyChallengeEntity = defineEntity<TPasskeyChallenge>({
  name: 'passkey-challenge',
  version: 1,
  key: (c) => passkeyKeys.challenge(c.hash),
  encode: (c) => ({ ...c, ttl: Math.ceil(Date.parse(c.expires) / 1000) }),
  decode: ({ ttl: _ttl, ...rest }) => rest as unknown as TPasskeyChallenge,
});
