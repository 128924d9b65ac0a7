import { DeleteCommand, type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { TPasskeyStore } from '#shared/domain/ports/passkeys';
import { getItem, isConditionFailure, listedItems, writeIf } from './batch';
import { passkeyChallengeEntity, passkeyEntity, passkeyKeys } from './entities/passkey';
import { putNew } from './versioned';

type TItem = Record<string, unknown>;

export function createPasskeyStore(db: DynamoDBDocumentClient, table: string): TPasskeyStore {
  return {
    saveChallenge: (c) => putNew(db, table, passkeyChallengeEntity.toItem(c)),
    async spendChallenge(hash, now) {
      try {
        const out = await db.send(
          new DeleteCommand({
            TableName: table,
            Key: passkeyKeys.challenge(hash),
            ConditionExpression: 'attribute_exists(pk) AND #expires > :now',
            ExpressionAttributeNames: { '#expires': 'expires' },
            ExpressionAttributeValues: { ':now': now.toISOString() },
            ReturnValues: 'ALL_OLD',
          }),
        );
        return passkeyChallengeEntity.fromItem(out.Attributes as TItem);
      } catch (err) {
        if (isConditionFailure(err)) return undefined;
        throw err;
      }
    },
    addPasskey: (p) => writeIf(putNew(db, table, passkeyEntity.toItem(p))),
    // Consistent: a passkey just removed must not sign in from a stale replica.
    getPasskey: (id) => getItem(db, table, passkeyKeys.passkey(id), passkeyEntity.fromItem, true),
    async listPasskeys(accountId, userId) {
      const items = await listedItems(db, table, passkeyKeys.listPartition(accountId, userId));
      return items.map(passkeyEntity.fromItem);
    },
    removePasskey: (accountId, userId, id) =>
      writeIf(
        db.send(
          new DeleteCommand({
            TableName: table,
            Key: passkeyKeys.passkey(id),
            // Only the owner's: another user's or account's id removes nothing (and answers 404).
            ConditionExpression: 'attribute_exists(pk) AND #account = :a AND #user = :u',
            ExpressionAttributeNames: { '#account': 'accountId', '#user': 'userId' },
            ExpressionAttributeValues: { ':a': accountId, ':u': userId },
          }),
        ),
      ),
    recordUse: (id, from, to, at) =>
      writeIf(
        db.send(
          new UpdateCommand({
            TableName: table,
            Key: passkeyKeys.passkey(id),
            UpdateExpression: 'SET #counter = :to, #lastUsed = :at',
            ConditionExpression: 'attribute_exists(pk) AND #counter = :from',
            ExpressionAttributeNames: { '#counter': 'counter', '#lastUsed': 'lastUsed' },
            ExpressionAttributeValues: { ':from': from, ':to': to, ':at': at },
          }),
        ),
      ),
  };
}
