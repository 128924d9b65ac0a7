import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { TAccount } from '#shared/domain/accounts/account';
import { ConcurrentUpdateError, NotFoundError } from '#shared/domain/errors';
import type { TAccountSettingsStore } from '#shared/domain/ports/account-settings';
import { defaultFeatures } from '#shared/schemas/vocabulary';
import { getItem, isConditionFailure } from './batch';
import { accountEntity, accountKeys } from './entities/account';

export function createAccountSettingsStore(db: DynamoDBDocumentClient, table: string): TAccountSettingsStore {
  return {
    async changeDefaults(accountId, version, change) {
      const entries = Object.entries(change);
      const names = Object.fromEntries(entries.map(([n], i) => [`#s${i}`, n]));
      const sets = entries.flatMap(([, v], i) => (v === undefined ? [] : [`#s${i} = :s${i}`]));
      const removes = entries.flatMap(([, v], i) => (v === undefined ? [`#s${i}`] : []));
      const values = Object.fromEntries(
        entries.flatMap(([, v], i) => (v === undefined ? [] : [[`:s${i}`, v]])),
      );
      try {
        const out = await db.send(
          new UpdateCommand({
            TableName: table,
            Key: accountKeys.item(accountId),
            ConditionExpression: 'attribute_exists(pk) AND version = :v',
            UpdateExpression: [
              `SET ${[...sets, 'version = version + :one'].join(', ')}`,
              ...(removes.length > 0 ? [`REMOVE ${removes.join(', ')}`] : []),
            ].join(' '),
            ...(entries.length > 0 ? { ExpressionAttributeNames: names } : {}),
            ExpressionAttributeValues: { ...values, ':v': version, ':one': 1 },
            ReturnValues: 'ALL_NEW',
          }),
        );
        const account = accountEntity.fromItem(out.Attributes as Record<string, unknown>);
        return { ...account, features: { ...defaultFeatures(), ...account.features } } as TAccount;
      } catch (err) {
        if (!isConditionFailure(err)) throw err;
        const now = await getItem(db, table, accountKeys.item(accountId), (i) => i);
        if (!now) throw new NotFoundError('Account not found.');
        throw new ConcurrentUpdateError();
      }
    },
  };
}
