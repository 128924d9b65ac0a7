// A DynamoDB stand-in of its own, in memory, holding one table made as the local runtime makes
// the service's (its key and indexes), and the service's own document client on it: for tests
// of the stand-in itself.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { startDynalite } from '#infra/local/dynamo';
import { LOCAL_CREDENTIALS, LOCAL_REGION, localTableConfig } from '#infra/local/layout';
import { ensureLocalTable } from '#infra/local/migrate-table';
import { createDocumentClient } from '#shared/adapters/aws/clients';

export interface TLocalTable {
  dynamo: Awaited<ReturnType<typeof startDynalite>>;
  doc: DynamoDBDocumentClient;
  stop(): Promise<void>;
}

export async function startLocalTable(tableName: string): Promise<TLocalTable> {
  const dynamo = await startDynalite({ port: 0, host: '127.0.0.1' });
  const raw = new DynamoDBClient({
    region: LOCAL_REGION,
    endpoint: dynamo.endpoint,
    credentials: LOCAL_CREDENTIALS,
  });
  await ensureLocalTable(raw, tableName);
  raw.destroy();
  const doc = createDocumentClient(localTableConfig(dynamo.endpoint, tableName));
  return {
    dynamo,
    doc,
    async stop() {
      doc.destroy();
      await dynamo.stop();
    },
  };
}
