import { DeleteCommand, type DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { TConsoleStore } from '#shared/domain/ports/console';
import { getItem, isConditionFailure, queryAll, writeIf } from './batch';
import { accountKeys } from './entities/account';
import {
  consoleKeys,
  consoleSessionEntity,
  securityEventEntity,
  signInLinkEntity,
  usageKeyEntity,
  userByEmailEntity,
} from './entities/console';
import { putNew } from './versioned';

type TItem = Record<string, unknown>;

export function createConsoleStore(db: DynamoDBDocumentClient, table: string): TConsoleStore {
  /** One update of an item that must still be there; a missing one is left missing. */
  const updateExisting = (
    key: Record<string, string>,
    update: string,
    { names, values }: { names: Record<string, string>; values: Record<string, unknown> },
  ) =>
    writeIf(
      db.send(
        new UpdateCommand({
          TableName: table,
          Key: key,
          UpdateExpression: update,
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        }),
      ),
    );

  return {
    async usersByEmail(email) {
      const items = await queryAll(db, {
        TableName: table,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': consoleKeys.emailPartition(email) },
      });
      return items.map((i) => {
        const u = userByEmailEntity.fromItem(i);
        return { accountId: u.accountId, userId: u.userId };
      });
    },
    saveLink: (link) => putNew(db, table, signInLinkEntity.toItem(link)),
    async consumeLink(hash, now) {
      try {
        const out = await db.send(
          new UpdateCommand({
            TableName: table,
            Key: consoleKeys.link(hash),
            UpdateExpression: 'SET #used = :now',
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(#used) AND #expires > :now',
            ExpressionAttributeNames: { '#used': 'used', '#expires': 'expires' },
            ExpressionAttributeValues: { ':now': now.toISOString() },
            ReturnValues: 'ALL_OLD',
          }),
        );
        return signInLinkEntity.fromItem(out.Attributes as TItem);
      } catch (err) {
        if (isConditionFailure(err)) return undefined;
        throw err;
      }
    },
    saveSession: (s) => putNew(db, table, consoleSessionEntity.toItem(s)),
    // Consistent: a session just ended must not answer from a stale replica.
    getSession(hash) {
      return getItem(db, table, consoleKeys.session(hash), consoleSessionEntity.fromItem, true);
    },
    async renewSession(hash, expires) {
      await updateExisting(consoleKeys.session(hash), 'SET #expires = :e, #ttl = :ttl', {
        names: { '#expires': 'expires', '#ttl': 'ttl' },
        values: { ':e': expires, ':ttl': Math.ceil(Date.parse(expires) / 1000) },
      });
    },
    async deleteSession(hash) {
      await db.send(new DeleteCommand({ TableName: table, Key: consoleKeys.session(hash) }));
    },
    async endSessionsBefore(accountId, userId, at) {
      // On the user's own item: a user removed meanwhile stays removed (the condition).
      await updateExisting(accountKeys.user(accountId, userId), 'SET #from = :at', {
        names: { '#from': 'sessionsFrom' },
        values: { ':at': at },
      });
    },
    async userSessionsFrom(accountId, userId) {
      const out = await db.send(
        new GetCommand({
          TableName: table,
          Key: accountKeys.user(accountId, userId),
          ProjectionExpression: '#from, pk',
          // A sign-out everywhere just made must hold on the very next request.
          ConsistentRead: true,
          ExpressionAttributeNames: { '#from': 'sessionsFrom' },
        }),
      );
      if (!out.Item) return undefined;
      const from = out.Item.sessionsFrom;
      return typeof from === 'string' ? { from } : {};
    },
    async getUsageKey(accountId) {
      const k = await getItem(db, table, consoleKeys.usageKey(accountId), usageKeyEntity.fromItem);
      return k && { id: k.id, value: k.value };
    },
    async saveUsageKey(accountId, key) {
      const made = await writeIf(putNew(db, table, usageKeyEntity.toItem({ ...key, accountId })));
      if (made) return key;
      const kept = await getItem(db, table, consoleKeys.usageKey(accountId), usageKeyEntity.fromItem);
      if (!kept) throw new Error('The console usage key was neither saved nor found.');
      return { id: kept.id, value: kept.value };
    },
    recordSecurityEvent: (e) => putNew(db, table, securityEventEntity.toItem(e)),
  };
}
