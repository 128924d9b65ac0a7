import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  PutCommand,
  QueryCommand,
  type QueryCommandOutput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { TUser } from '#shared/domain/accounts/account';
import type { TSecurityEvent } from '#shared/domain/console/console-session';
import { normalizeEmail } from '#shared/domain/ports/contact-keys';
import type { TUserAdminStore } from '#shared/domain/ports/users';
import { getItem, isConditionFailure, queryAll, writeIf } from './batch';
import { accountKeys, teamEntity, userEntity } from './entities/account';
import { securityEventEntity, userByEmailEntity } from './entities/console';
import { invitationEntity, invitationKeys, invitationLinkEntity } from './entities/invitation';
import { putNew } from './versioned';

type TItem = Record<string, unknown>;

const SECURITY_PREFIX = 'SECURITY#';

export function createUserAdminStore(db: DynamoDBDocumentClient, table: string): TUserAdminStore {
  /** An UpdateItem on an item that must exist: the new item, or undefined when there is none. */
  const updateExisting = async (
    key: Record<string, string>,
    update: string,
    names: Record<string, string>,
    values: TItem,
  ) => {
    try {
      const out = await db.send(
        new UpdateCommand({
          TableName: table,
          Key: key,
          UpdateExpression: update,
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
          ReturnValues: 'ALL_NEW',
        }),
      );
      return out.Attributes as TItem;
    } catch (err) {
      if (isConditionFailure(err)) return undefined;
      throw err;
    }
  };
  const deleteExisting = (key: Record<string, string>) =>
    writeIf(
      db.send(new DeleteCommand({ TableName: table, Key: key, ConditionExpression: 'attribute_exists(pk)' })),
    );
  const emailLookupOf = (u: TUser) =>
    userByEmailEntity.toItem({ email: normalizeEmail(u.email), accountId: u.accountId, userId: u.id });

  const getInvitation = (accountId: string, id: string) =>
    getItem(db, table, invitationKeys.item(accountId, id), invitationEntity.fromItem, true);

  return {
    async saveInvitation(i) {
      // The invitation first: a lookup never leads to nothing but by a crash in between.
      await putNew(db, table, invitationEntity.toItem(i));
      await putNew(
        db,
        table,
        invitationLinkEntity.toItem({
          hash: i.hash,
          accountId: i.accountId,
          invitationId: i.id,
          expires: i.expires,
        }),
      );
    },
    async listInvitations(accountId) {
      const items = await queryAll(db, {
        TableName: table,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
        ExpressionAttributeValues: {
          ':pk': accountKeys.partition(accountId),
          ':p': invitationKeys.childPrefix,
        },
      });
      return items.map(invitationEntity.fromItem).sort((a, b) => a.created.localeCompare(b.created));
    },
    async revokeInvitation(accountId, id, at) {
      return writeIf(
        db.send(
          new UpdateCommand({
            TableName: table,
            Key: invitationKeys.item(accountId, id),
            UpdateExpression: 'SET #revoked = :at',
            ConditionExpression:
              'attribute_exists(pk) AND attribute_not_exists(#used) AND attribute_not_exists(#revoked)',
            ExpressionAttributeNames: { '#revoked': 'revoked', '#used': 'used' },
            ExpressionAttributeValues: { ':at': at },
          }),
        ),
      );
    },
    async consumeInvitation(hash, now) {
      const link = await getItem(db, table, invitationKeys.link(hash), invitationLinkEntity.fromItem, true);
      if (!link) return { refused: 'unknown' };
      try {
        const out = await db.send(
          new UpdateCommand({
            TableName: table,
            Key: invitationKeys.item(link.accountId, link.invitationId),
            UpdateExpression: 'SET #used = :now',
            ConditionExpression:
              'attribute_exists(pk) AND #hash = :hash AND attribute_not_exists(#used) AND attribute_not_exists(#revoked) AND #expires > :now',
            ExpressionAttributeNames: {
              '#used': 'used',
              '#revoked': 'revoked',
              '#expires': 'expires',
              '#hash': 'hash',
            },
            ExpressionAttributeValues: { ':now': now.toISOString(), ':hash': hash },
            ReturnValues: 'ALL_NEW',
          }),
        );
        return { invitation: invitationEntity.fromItem(out.Attributes as TItem) };
      } catch (err) {
        if (!isConditionFailure(err)) throw err;
      }
      // Lost: say why, from the invitation as it is now.
      const i = await getInvitation(link.accountId, link.invitationId);
      if (!i || i.hash !== hash) return { refused: 'unknown' };
      if (i.used) return { refused: 'used' };
      if (i.revoked) return { refused: 'revoked' };
      return { refused: 'expired' };
    },
    async noteInvitee(accountId, id, userId) {
      await updateExisting(
        invitationKeys.item(accountId, id),
        'SET #userId = :u',
        { '#userId': 'userId' },
        { ':u': userId },
      );
    },
    async listUsersNow(accountId) {
      const items = await queryAll(db, {
        TableName: table,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
        ExpressionAttributeValues: {
          ':pk': accountKeys.partition(accountId),
          ':p': accountKeys.childPrefix.user,
        },
        ConsistentRead: true,
      });
      return items.map(userEntity.fromItem);
    },
    async setUserAdmin(accountId, userId, isAdmin) {
      const item = await updateExisting(
        accountKeys.user(accountId, userId),
        'SET #isAdmin = :a',
        { '#isAdmin': 'isAdmin' },
        { ':a': isAdmin },
      );
      return item && userEntity.fromItem(item);
    },
    async removeUser(user) {
      if (!(await deleteExisting(accountKeys.user(user.accountId, user.id)))) return false;
      const lookup = emailLookupOf(user);
      await db.send(
        new DeleteCommand({ TableName: table, Key: { pk: lookup.pk as string, sk: lookup.sk as string } }),
      );
      return true;
    },
    async restoreUser(user) {
      await db.send(new PutCommand({ TableName: table, Item: emailLookupOf(user) }));
      await db.send(new PutCommand({ TableName: table, Item: userEntity.toItem(user) }));
    },
    async renameTeam(accountId, teamId, name) {
      const item = await updateExisting(
        accountKeys.team(accountId, teamId),
        'SET #name = :n',
        { '#name': 'name' },
        { ':n': name },
      );
      return item && teamEntity.fromItem(item);
    },
    deleteTeam: (accountId, teamId) => deleteExisting(accountKeys.team(accountId, teamId)),
    async listSecurityEvents(accountId, { page, perPage }) {
      const query = {
        TableName: table,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
        ExpressionAttributeValues: { ':pk': accountKeys.partition(accountId), ':p': SECURITY_PREFIX },
      };
      // Newest first, read only as far as the page asked for.
      const wanted = page * perPage;
      const items: TItem[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const out: QueryCommandOutput = await db.send(
          new QueryCommand({
            ...query,
            ScanIndexForward: false,
            Limit: wanted - items.length,
            ExclusiveStartKey: start,
          }),
        );
        items.push(...((out.Items as TItem[] | undefined) ?? []));
        start = out.LastEvaluatedKey;
      } while (start && items.length < wanted);
      let total = 0;
      start = undefined;
      do {
        const out: QueryCommandOutput = await db.send(
          new QueryCommand({ ...query, Select: 'COUNT', ExclusiveStartKey: start }),
        );
        total += out.Count ?? 0;
        start = out.LastEvaluatedKey;
      } while (start);
      const events: TSecurityEvent[] = items.slice((page - 1) * perPage).map(securityEventEntity.fromItem);
      return { items: events, total };
    },
  };
}
