import { CreateTableCommand, DynamoDBClient, GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startDynalite } from '#infra/local/dynamo';
import { ensureLocalTable } from '#infra/local/migrate-table';
import { describeTable, missingIndexes, tableDefinition } from '#shared/adapters/dynamodb/create-table';
import { INDEXES } from '#shared/adapters/dynamodb/table';

let dynamo: Awaited<ReturnType<typeof startDynalite>>;
let client: DynamoDBClient;

beforeEach(async () => {
  dynamo = await startDynalite({ port: 0, host: '127.0.0.1' });
  client = new DynamoDBClient({
    region: 'us-east-1',
    endpoint: dynamo.endpoint,
    credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
  });
});
afterEach(async () => {
  client.destroy();
  await dynamo.stop();
});

/** A table as an older version created it: only the first index. */
async function oldTable(name: string) {
  const def = tableDefinition(name);
  await client.send(
    new CreateTableCommand({ ...def, GlobalSecondaryIndexes: def.GlobalSecondaryIndexes!.slice(0, 1) }),
  );
  await client.send(
    new PutItemCommand({
      TableName: name,
      Item: { pk: { S: 'ACCOUNT#1' }, sk: { S: 'ACCOUNT' }, name: { S: 'Kept' } },
    }),
  );
}

const kept = async (name: string) =>
  (
    await client.send(
      new GetItemCommand({ TableName: name, Key: { pk: { S: 'ACCOUNT#1' }, sk: { S: 'ACCOUNT' } } }),
    )
  ).Item?.name?.S;

describe('local table upgrade', () => {
  it('rebuilds a table that lacks indexes, keeping every item', async () => {
    await oldTable('esign-test');
    expect(missingIndexes((await describeTable(client, 'esign-test'))!)).toHaveLength(
      Object.keys(INDEXES).length - 1,
    );
    const added = await ensureLocalTable(client, 'esign-test');
    expect(added.length).toBeGreaterThan(0);
    expect(missingIndexes((await describeTable(client, 'esign-test'))!)).toEqual([]);
    expect(await kept('esign-test')).toBe('Kept');
    expect(await describeTable(client, 'esign-test-migrating')).toBeUndefined();
    expect(await ensureLocalTable(client, 'esign-test')).toEqual([]);
  });

  it('finishes a rebuild that was interrupted after the table was dropped', async () => {
    await oldTable('esign-test-migrating');
    expect(await ensureLocalTable(client, 'esign-test')).toEqual([]);
    expect(await kept('esign-test')).toBe('Kept');
    expect(missingIndexes((await describeTable(client, 'esign-test'))!)).toEqual([]);
    expect(await describeTable(client, 'esign-test-migrating')).toBeUndefined();
  });
});
