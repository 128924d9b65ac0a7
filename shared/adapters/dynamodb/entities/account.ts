// Keys of the Account aggregate (the account and its users, teams and signing brands) and of
// API keys, declared once.
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
