// Keys and entities of the Account aggregate (the account and its users, teams and signing
// brands, its monthly usage) and of API keys, declared once.
import type { TAccount, TApiKey, TBrand, TTeam, TUser } from '#shared/domain/accounts/account';
import { defineEntity } from '../entity';
import { accountPartition } from './account-partition';

export const accountKeys = {
  item: (accountId: string) => ({ pk: accountPartition(accountId), sk: 'ACCOUNT' }),
  /** by-list-order: all accounts, for the operator's listing. */
  listPartition: () => 'ACCOUNTS',
  listOrder: (accountId: string, created: string) => ({ lpk: 'ACCOUNTS', lsk: `${created}#${accountId}` }),
  user: (accountId: string, userId: string) => ({ pk: accountPartition(accountId), sk: `USER#${userId}` }),
  team: (accountId: string, teamId: string) => ({ pk: accountPartition(accountId), sk: `TEAM#${teamId}` }),
  brand: (accountId: string, brandId: string) => ({
    pk: accountPartition(accountId),
    sk: `BRAND#${brandId}`,
  }),
  /** Bundles sent in a month (test bundles excluded): the account's usage. */
  usage: (accountId: string, month: string) => ({ pk: accountPartition(accountId), sk: `USAGE#${month}` }),
  partition: accountPartition,
  childPrefix: { user: 'USER#', team: 'TEAM#', brand: 'BRAND#' },
};

export const apiKeyKeys = {
  /** Found by the hash of the presented key: the authorizer's single GetItem. */
  item: (hash: string) => ({ pk: `APIKEY#${hash}`, sk: 'APIKEY' }),
  /** by-list-order: an account's keys, oldest first. */
  listPartition: (accountId: string) => `${accountPartition(accountId)}#APIKEYS`,
  listOrder: (accountId: string, keyId: string) => ({ lpk: apiKeyKeys.listPartition(accountId), lsk: keyId }),
};

export const accountEntity = defineEntity<TAccount>({
  name: 'account',
  // 2: `retention` (the retention policy); a version 1 item has none and reads as it is.
  // 3: `documentsKey` (a key of the account's own); older items have none and read as they are.
  // 4: `documentsKey.destroying` (a destruction under way); older items have none and read as they are.
  // 5: `webhooksEverMade` (whether the account ever had a webhook).
  // 6: without `webhooksEverMade`: publishing left the requests, which read it to skip reading
  //    the webhooks; a version 5 item's is dropped as it is read.
  version: 6,
  key: (a) => accountKeys.item(a.id),
  decode: ({ webhooksEverMade: _dropped, ...a }) => a as unknown as TAccount,
  indexes: { byListOrder: (a) => accountKeys.listOrder(a.id, a.created) },
});

/** An item of the account's partition keyed by its own id: users, teams, signing brands. */
const accountChild = <T extends { accountId: string; id: string }>(
  name: string,
  keyOf: (accountId: string, id: string) => { pk: string; sk: string },
) => defineEntity<T>({ name, version: 1, key: (o) => keyOf(o.accountId, o.id) });

export const userEntity = accountChild<TUser>('user', accountKeys.user);
export const teamEntity = accountChild<TTeam>('team', accountKeys.team);
export const brandEntity = accountChild<TBrand>('brand', accountKeys.brand);

/** Made and counted by UpdateItem (`ADD sent`), never put whole. */
export const usageEntity = defineEntity<{ accountId: string; month: string; sent: number }>({
  name: 'usage',
  version: 1,
  key: (u) => accountKeys.usage(u.accountId, u.month),
});

export const apiKeyEntity = defineEntity<TApiKey>({
  name: 'apikey',
  version: 1,
  key: (k) => apiKeyKeys.item(k.hash),
  indexes: { byListOrder: (k) => apiKeyKeys.listOrder(k.accountId, k.keyId) },
});
