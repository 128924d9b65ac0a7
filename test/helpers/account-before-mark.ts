// An account's item as the code before the webhooks mark stored it (entity version 4, no
// `webhooksEverMade`): such an account may have webhooks, so its bundle changes read them.
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { TRuntime } from '#infra/local/runtime';
import { accountKeys } from '#shared/adapters/dynamodb/entities/account';

export async function storeAsBeforeWebhooksMark(runtime: Pick<TRuntime, 'db' | 'config'>, accountId: string) {
  await runtime.db.send(
    new UpdateCommand({
      TableName: runtime.config.tableName,
      Key: accountKeys.item(accountId),
      UpdateExpression: 'REMOVE webhooksEverMade SET entityVersion = :v',
      ExpressionAttributeValues: { ':v': 4 },
    }),
  );
}
