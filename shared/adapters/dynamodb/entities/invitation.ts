// Keys and entities of an admin's invitations: the invitation in its account's partition, and
// the lookup of it by the hash of its link's token.
import type { TInvitation } from '#shared/domain/users/invitation';
import { defineEntity } from '../entity';
import { accountPartition } from './account-partition';

export const invitationKeys = {
  item: (accountId: string, id: string) => ({ pk: accountPartition(accountId), sk: `INVITATION#${id}` }),
  childPrefix: 'INVITATION#',
  link: (hash: string) => ({ pk: `INVITELINK#${hash}`, sk: 'INVITELINK' }),
};

/**
 * Kept 30 days past its expiry (the table's TTL then removes it), so that a late click is told
 * the invitation expired rather than that the link is unknown.
 */
const ttlOf = (expires: string) => Math.ceil(Date.parse(expires) / 1000) + 30 * 86_400;

export const invitationEntity = defineEntity<TInvitation>({
  name: 'invitation',
  version: 1,
  key: (i) => invitationKeys.item(i.accountId, i.id),
  encode: (i) => ({ ...i, ttl: ttlOf(i.expires) }),
  decode: ({ ttl: _ttl, ...rest }) => rest as unknown as TInvitation,
});

export const invitationLinkEntity = defineEntity<{
  hash: string;
  accountId: string;
  invitationId: string;
  expires: string;
}>({
  name: 'invitation-link',
  version: 1,
  key: (l) => invitationKeys.link(l.hash),
  encode: (l) => ({ ...l, ttl: ttlOf(l.expires) }),
  decode: ({ ttl: _ttl, ...rest }) =>
    rest as unknown as { hash: string; accountId: string; invitationId: string; expires: string },
});
