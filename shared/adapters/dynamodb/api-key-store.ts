import { type DynamoDBDocumentClient, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { TApiKey } from '../../domain/accounts/account';
import { NotFoundError } from '../../domain/errors';
import type { TApiKeyStore } from '../../ports/accounts';
import { batchGet, getItem, queryListOrder } from './batch';
import { apiKeyKeys } from './entities/account';

function fromItem(item: Record<string, unknown>): TApiKey {
  const { pk: _pk, sk: _sk, lpk: _lpk, lsk: _lsk, entity: _e, ...rest } = item;
  return rest as unknown as TApiKey;
}

export function createApiKeyStore(db: DynamoDBDocumentClient, table: string): TApiKeyStore {
  async function listForAccount(accountId: string): Promise<TApiKey[]> {
    const refs = await queryListOrder(db, table, apiKeyKeys.listPartition(accountId), 'oldest-first');
    const items = await batchGet(
      db,
      table,
      refs.map((r) => ({ pk: r.pk as string, sk: r.sk as string })),
      (i) => String(i.pk),
    );
    return items.map(fromItem);
  }

  return {
    async create(key) {
      await db.send(
        new PutCommand({
          TableName: table,
          Item: {
            ...apiKeyKeys.item(key.hash),
            ...apiKeyKeys.listOrder(key.accountId, key.keyId),
            entity: 'apikey',
            ...key,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    },
    async findByHash(hash) {
      return getItem(db, table, apiKeyKeys.item(hash), fromItem);
    },
    listForAccount,
    async revoke(accountId, keyId, at) {
      const key = (await listForAccount(accountId)).find((k) => k.keyId === keyId);
      if (!key) throw new NotFoundError('API key not found.');
      const out = await db.send(
        new UpdateCommand({
          TableName: table,
          Key: apiKeyKeys.item(key.hash),
          UpdateExpression: 'SET revoked = if_not_exists(revoked, :at)',
          ExpressionAttributeValues: { ':at': at.toISOString() },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return fromItem(out.Attributes as Record<string, unknown>);
    },
  };
}
