import { type DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { TAccount, TBrand, TTeam, TUser } from '#shared/domain/accounts/account';
import { ConflictError, NotFoundError } from '#shared/domain/errors';
import type { TAccountStore } from '#shared/domain/ports/accounts';
import { normalizeEmail } from '#shared/domain/ports/contact-keys';
import { defaultFeatures } from '#shared/schemas/vocabulary';
import { noteRead, readOnce } from '../request-scope';
import { getItem, isConditionFailure, listedItems, queryAll, writeIf } from './batch';
import {
  accountEntity,
  accountKeys,
  brandEntity,
  teamEntity,
  usageEntity,
  userEntity,
} from './entities/account';
import { userByEmailEntity } from './entities/console';
import { markersSet, type TEntity } from './entity';
import { putNew } from './versioned';

const accountRead = (id: string) => `account:${id}`;
/** Where a request notes a consistent read of the account, which a consistent ask may take. */
const consistentRead = (id: string) => `account:${id}:consistent`;

/**
 * For what needs the account but not a fresh read of it, as the documents bucket asking for the
 * account's key to read or link a document: the account as this request last read it (any read
 * of the store notes it: request-scope.ts), else read now. A `consistent` ask (the key for a
 * write, which must see a destruction's mark) takes a consistent read this request made, else
 * makes one: enough, since a destruction waits longer than any request runs between its mark
 * and its check of the bundles (KEY_DESTRUCTION_WAIT_SECONDS), so a request that read before
 * the mark has written all it writes by the time the check reads.
 */
export const accountOfRequest = (
  accounts: Pick<TAccountStore, 'getAccount'>,
  id: string,
  options?: { consistent?: boolean },
) =>
  options?.consistent
    ? readOnce(consistentRead(id), () => accounts.getAccount(id, { consistent: true }))
    : readOnce(accountRead(id), () => accounts.getAccount(id));

/** Notes a read of the account for the rest of the request; a consistent one for both asks. */
function noteAccount<T>(id: string, read: Promise<T>, consistent: boolean | undefined): Promise<T> {
  if (consistent) noteRead(consistentRead(id), read);
  return noteRead(accountRead(id), read);
}

type TItem = Record<string, unknown>;

/** An account as stored, with the features it was stored without at their defaults. */
function toAccount(item: TItem): TAccount {
  const account = accountEntity.fromItem(item);
  return { ...account, features: { ...defaultFeatures(), ...account.features } };
}

export function createAccountStore(db: DynamoDBDocumentClient, table: string): TAccountStore {
  const add = <T>(entity: TEntity<T>, o: T) => putNew(db, table, entity.toItem(o));

  const children = async <T extends { created: string }>(
    accountId: string,
    prefix: string,
    entity: TEntity<T>,
  ): Promise<T[]> => {
    const items = await queryAll(db, {
      TableName: table,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      ExpressionAttributeValues: { ':pk': accountKeys.partition(accountId), ':p': prefix },
    });
    return items.map(entity.fromItem).sort((a, b) => String(a.created).localeCompare(String(b.created)));
  };

  /** One update of an existing account that also bumps its version; a missing account is a 404. */
  const updateAccount = async (
    id: string,
    set: string,
    names: Record<string, string>,
    values: Record<string, unknown>,
  ): Promise<TAccount> => {
    try {
      const out = await db.send(
        new UpdateCommand({
          TableName: table,
          Key: accountKeys.item(id),
          ConditionExpression: 'attribute_exists(pk)',
          UpdateExpression: `${set} version = version + :one`,
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: { ...values, ':one': 1 },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return toAccount(out.Attributes as TItem);
    } catch (err) {
      if (isConditionFailure(err)) throw new NotFoundError('Account not found.');
      throw err;
    }
  };

  /** Sets one optional attribute of the account, or removes it when `value` is undefined. */
  const setOptional = (id: string, name: string, value: unknown): Promise<TAccount> =>
    value === undefined
      ? updateAccount(id, 'REMOVE #a SET', { '#a': name }, {})
      : updateAccount(id, 'SET #a = :v,', { '#a': name }, { ':v': value });

  return {
    async createAccount(a: TAccount) {
      await add(accountEntity, a);
    },
    async getAccount(id, options) {
      // Every read is fresh; the request notes it, for what asks for the account after it.
      return noteAccount(
        id,
        getItem(db, table, accountKeys.item(id), toAccount, options?.consistent),
        options?.consistent,
      );
    },
    async listAccounts() {
      const items = await listedItems(db, table, accountKeys.listPartition(), 'oldest-first');
      return items.map(toAccount);
    },
    async setFeatures(id, features) {
      const names = Object.keys(features);
      if (names.length === 0) {
        const a = await this.getAccount(id);
        if (!a) throw new NotFoundError('Account not found.');
        return a;
      }
      return updateAccount(
        id,
        `SET ${names.map((_, i) => `features.#f${i} = :f${i}`).join(', ')},`,
        Object.fromEntries(names.map((n, i) => [`#f${i}`, n])),
        Object.fromEntries(names.map((n, i) => [`:f${i}`, features[n as keyof typeof features]])),
      );
    },
    async setImagePageSize(id, size) {
      return setOptional(id, 'imagePageSize', size);
    },
    async setSigningRedirect(id, url) {
      return setOptional(id, 'signingRedirectUrl', url || undefined);
    },
    async setLanguage(id, language) {
      return setOptional(id, 'language', language || undefined);
    },
    async setPayout(id, payout) {
      return setOptional(id, 'payout', payout || undefined);
    },
    async setDocumentsKey(id, key, previous) {
      // One write decides: two operators making or destroying a key at once get one winner, and
      // a destruction's mark is finished or taken back only by the run that names it.
      const expected =
        previous === undefined
          ? 'attribute_not_exists(documentsKey)'
          : `documentsKey.keyArn = :previous AND attribute_not_exists(documentsKey.destroyed) AND ${
              previous.destroying
                ? 'documentsKey.destroying.run = :run'
                : 'attribute_not_exists(documentsKey.destroying)'
            }`;
      try {
        const out = await db.send(
          new UpdateCommand({
            TableName: table,
            Key: accountKeys.item(id),
            ConditionExpression: `attribute_exists(pk) AND ${expected}`,
            UpdateExpression: 'SET documentsKey = :key, version = version + :one',
            ExpressionAttributeValues: {
              ':key': key,
              ':one': 1,
              ...(previous === undefined ? {} : { ':previous': previous.keyArn }),
              ...(previous?.destroying ? { ':run': previous.destroying.run } : {}),
            },
            ReturnValues: 'ALL_NEW',
          }),
        );
        // An update's answer is the item as written: as fresh as a consistent read.
        return await noteAccount(id, Promise.resolve(toAccount(out.Attributes as TItem)), true);
      } catch (err) {
        if (!isConditionFailure(err)) throw err;
        if (!(await this.getAccount(id))) throw new NotFoundError('Account not found.');
        throw new ConflictError(
          "The account's documents key was changed by another request at the same moment: run show-account to see it.",
        );
      }
    },
    async setEmbedOrigins(id, origins) {
      return setOptional(id, 'embedOrigins', origins.length > 0 ? origins : undefined);
    },
    // The lookup of users by address (the console's sign-in) first, then the user: there is never
    // a user the sign-in cannot find. (The local table has no transactions; a lookup left without
    // its user by a crash between the two leads nowhere: its link finds no user.)
    async addUser(u: TUser) {
      await putNew(
        db,
        table,
        userByEmailEntity.toItem({ email: normalizeEmail(u.email), accountId: u.accountId, userId: u.id }),
      );
      await add(userEntity, u);
    },
    async indexUserEmails(accountId) {
      const users = await children(accountId, accountKeys.childPrefix.user, userEntity);
      for (const u of users) {
        const lookup = { email: normalizeEmail(u.email), accountId, userId: u.id };
        await writeIf(putNew(db, table, userByEmailEntity.toItem(lookup)));
      }
    },
    async getUser(accountId, userId) {
      return getItem(db, table, accountKeys.user(accountId, userId), userEntity.fromItem);
    },
    listUsers: (accountId) => children(accountId, accountKeys.childPrefix.user, userEntity),
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
        return userEntity.fromItem(out.Attributes as TItem);
      } catch (err) {
        if (isConditionFailure(err)) throw new NotFoundError('User not found in this account.');
        throw err;
      }
    },
    async addTeam(t: TTeam) {
      await add(teamEntity, t);
    },
    listTeams: (accountId) => children(accountId, accountKeys.childPrefix.team, teamEntity),
    async addBrand(b: TBrand) {
      await add(brandEntity, b);
    },
    listBrands: (accountId) => children(accountId, accountKeys.childPrefix.brand, brandEntity),
    async countSentBundle(accountId, month) {
      const markers = markersSet(usageEntity);
      await db.send(
        new UpdateCommand({
          TableName: table,
          Key: accountKeys.usage(accountId, month),
          UpdateExpression: `ADD sent :one SET ${markers.set}, accountId = :accountId, #month = :month`,
          ExpressionAttributeNames: { ...markers.names, '#month': 'month' },
          ExpressionAttributeValues: {
            ...markers.values,
            ':one': 1,
            ':accountId': accountId,
            ':month': month,
          },
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
