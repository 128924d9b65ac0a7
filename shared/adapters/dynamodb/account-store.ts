import { type DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  defaultFeatures,
  type TAccount,
  type TBrand,
  type TTeam,
  type TUser,
} from '../../domain/accounts/account';
import { NotFoundError } from '../../domain/errors';
import type { TAccountStore } from '../../ports/accounts';
import { batchGet, getItem, isConditionFailure, queryAll, queryListOrder } from './batch';
import { accountKeys } from './entities/account';

type TItem = Record<string, unknown>;

function strip<T>(item: TItem): T {
  const { pk: _pk, sk: _sk, lpk: _lpk, lsk: _lsk, entity: _e, ...rest } = item;
  return rest as T;
}

/** An account as stored, with the features it was stored without at their defaults. */
function toAccount(item: TItem): TAccount {
  const account = strip<TAccount>(item);
  return { ...account, features: { ...defaultFeatures(), ...account.features } };
}

export function createAccountStore(db: DynamoDBDocumentClient, table: string): TAccountStore {
  const putNew = (Item: TItem) =>
    db.send(new PutCommand({ TableName: table, Item, ConditionExpression: 'attribute_not_exists(pk)' }));

  const children = async <T>(accountId: string, prefix: string): Promise<T[]> => {
    const items = await queryAll(db, {
      TableName: table,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      ExpressionAttributeValues: { ':pk': accountKeys.partition(accountId), ':p': prefix },
    });
    return items
      .map((i) => strip<T>(i))
      .sort((a, b) => String((a as TItem).created).localeCompare(String((b as TItem).created)));
  };

  /** Sets one optional attribute of the account, or removes it when `value` is undefined, and bumps the version. */
  const setOptional = async (id: string, name: string, value: unknown): Promise<TAccount> => {
    try {
      const out = await db.send(
        new UpdateCommand({
          TableName: table,
          Key: accountKeys.item(id),
          ConditionExpression: 'attribute_exists(pk)',
          UpdateExpression:
            value === undefined
              ? 'REMOVE #a SET version = version + :one'
              : 'SET #a = :v, version = version + :one',
          ExpressionAttributeNames: { '#a': name },
          ExpressionAttributeValues: { ...(value === undefined ? {} : { ':v': value }), ':one': 1 },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return toAccount(out.Attributes as TItem);
    } catch (err) {
      if (isConditionFailure(err)) throw new NotFoundError('Account not found.');
      throw err;
    }
  };

  return {
    async createAccount(a: TAccount) {
      await putNew({
        ...accountKeys.item(a.id),
        ...accountKeys.listOrder(a.id, a.created),
        entity: 'account',
        ...a,
      });
    },
    async getAccount(id) {
      return getItem(db, table, accountKeys.item(id), toAccount);
    },
    async listAccounts() {
      const refs = await queryListOrder(db, table, accountKeys.listPartition(), 'oldest-first');
      const items = await batchGet(
        db,
        table,
        refs.map((r) => ({ pk: r.pk as string, sk: r.sk as string })),
        (i) => String(i.pk),
      );
      return items.map(toAccount);
    },
    async setFeatures(id, features) {
      const names = Object.keys(features);
      if (names.length === 0) {
        const a = await this.getAccount(id);
        if (!a) throw new NotFoundError('Account not found.');
        return a;
      }
      try {
        const out = await db.send(
          new UpdateCommand({
            TableName: table,
            Key: accountKeys.item(id),
            ConditionExpression: 'attribute_exists(pk)',
            UpdateExpression: `SET ${names.map((_, i) => `features.#f${i} = :f${i}`).join(', ')}, version = version + :one`,
            ExpressionAttributeNames: Object.fromEntries(names.map((n, i) => [`#f${i}`, n])),
            ExpressionAttributeValues: {
              ...Object.fromEntries(names.map((n, i) => [`:f${i}`, features[n as keyof typeof features]])),
              ':one': 1,
            },
            ReturnValues: 'ALL_NEW',
          }),
        );
        return toAccount(out.Attributes as TItem);
      } catch (err) {
        if (isConditionFailure(err)) throw new NotFoundError('Account not found.');
        throw err;
      }
    },
    async setSigningRedirect(id, url) {
      return setOptional(id, 'signingRedirectUrl', url || undefined);
    },
    async setPayout(id, payout) {
      return setOptional(id, 'payout', payout || undefined);
    },
    async setEmbedOrigins(id, origins) {
      return setOptional(id, 'embedOrigins', origins.length > 0 ? origins : undefined);
    },
    async addUser(u: TUser) {
      await putNew({ ...accountKeys.user(u.accountId, u.id), entity: 'user', ...u });
    },
    async getUser(accountId, userId) {
      return getItem(db, table, accountKeys.user(accountId, userId), (i) => strip<TUser>(i));
    },
    listUsers: (accountId) => children<TUser>(accountId, accountKeys.childPrefix.user),
    async setUserTeams(accountId, userId, teams) {
      try {
        const out = await db.send(
          new UpdateCommand({
            TableName: table,
            Key: accountKeys.user(accountId, userId),
            ConditionExpression: 'attribute_exists(pk)',
            UpdateExpression: 'SET teams = :t',
            ExpressionAttributeValues: { ':t': teams },
            ReturnValues: 'ALL_NEW',
          }),
        );
        return strip<TUser>(out.Attributes as TItem);
      } catch (err) {
        if (isConditionFailure(err)) throw new NotFoundError('User not found in this account.');
        throw err;
      }
    },
    async addTeam(t: TTeam) {
      await putNew({ ...accountKeys.team(t.accountId, t.id), entity: 'team', ...t });
    },
    listTeams: (accountId) => children<TTeam>(accountId, accountKeys.childPrefix.team),
    async addBrand(b: TBrand) {
      await putNew({ ...accountKeys.brand(b.accountId, b.id), entity: 'brand', ...b });
    },
    listBrands: (accountId) => children<TBrand>(accountId, accountKeys.childPrefix.brand),
    async countSentBundle(accountId, month) {
      await db.send(
        new UpdateCommand({
          TableName: table,
          Key: accountKeys.usage(accountId, month),
          UpdateExpression: 'ADD sent :one SET entity = :e',
          ExpressionAttributeValues: { ':one': 1, ':e': 'usage' },
        }),
      );
    },
    async sentBundles(accountId, month) {
      const out = await db.send(
        new GetCommand({ TableName: table, Key: accountKeys.usage(accountId, month) }),
      );
      return Number(out.Item?.sent ?? 0);
    },
  };
}
