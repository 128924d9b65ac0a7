import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { TApiKey } from '#shared/domain/accounts/account';
import { NotFoundError } from '#shared/domain/errors';
import type { TApiKeyStore } from '#shared/domain/ports/accounts';
import { getItem, listedItems } from './batch';
import { apiKeyEntity, apiKeyKeys } from './entities/account';
import { putNew } from './versioned';

const { fromItem } = apiKeyEntity;

export function createApiKeyStore(db: DynamoDBDocumentClient, table: string): TApiKeyStore {
  async function listForAccount(accountId: string): Promise<TApiKey[]> {
    const items = await listedItems(db, table, apiKeyKeys.listPartition(accountId), 'oldest-first');
    return items.map(fromItem);
  }

  return {
    async create(key) {
      await putNew(db, table, apiKeyEntity.toItem(key));
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
