import {
  type AttributeValue,
  BatchWriteItemCommand,
  CreateTableCommand,
  DeleteTableCommand,
  type DynamoDBClient,
  ScanCommand,
} from '@aws-sdk/client-dynamodb';
import {
  describeTable,
  ensureTable,
  missingIndexes,
  tableDefinition,
} from '#shared/adapters/dynamodb/create-table';

type TItem = Record<string, AttributeValue>;

// dynalite cannot add an index to an existing table (UpdateTable accepts the request and does
// nothing), so a local table from an older version is rebuilt: every item is copied aside, the
// table recreated from table.ts, and the items copied back. Local data only, at start-up: on
// AWS, CloudFormation adds indexes in place.

async function scanAll(client: DynamoDBClient, table: string): Promise<TItem[]> {
  const items: TItem[] = [];
  let start: TItem | undefined;
  do {
    const out = await client.send(new ScanCommand({ TableName: table, ExclusiveStartKey: start }));
    items.push(...(out.Items ?? []));
    start = out.LastEvaluatedKey;
  } while (start);
  return items;
}

async function putAll(client: DynamoDBClient, table: string, items: TItem[]): Promise<void> {
  for (let i = 0; i < items.length; i += 25) {
    let pending = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
    while (pending.length > 0) {
      const out = await client.send(new BatchWriteItemCommand({ RequestItems: { [table]: pending } }));
      pending = (out.UnprocessedItems?.[table] as typeof pending | undefined) ?? [];
    }
  }
}

/** Makes the local table match table.ts, keeping its data. Returns the indexes it added. */
export async function ensureLocalTable(client: DynamoDBClient, tableName: string): Promise<string[]> {
  const aside = `${tableName}-migrating`;
  if (await describeTable(client, aside)) {
    // A rebuild was interrupted: the copy aside holds every item; finish from there.
    const kept = await scanAll(client, aside);
    const current = await describeTable(client, tableName);
    if (current && missingIndexes(current).length > 0)
      await client.send(new DeleteTableCommand({ TableName: tableName }));
    await ensureTable(client, tableName);
    await putAll(client, tableName, kept);
    await client.send(new DeleteTableCommand({ TableName: aside }));
    return [];
  }
  const existing = await describeTable(client, tableName);
  if (!existing) {
    await ensureTable(client, tableName);
    return [];
  }
  const missing = missingIndexes(existing);
  if (missing.length === 0) return [];
  const items = await scanAll(client, tableName);
  await client.send(new CreateTableCommand(tableDefinition(aside, [])));
  await putAll(client, aside, items);
  await client.send(new DeleteTableCommand({ TableName: tableName }));
  await ensureTable(client, tableName);
  await putAll(client, tableName, items);
  await client.send(new DeleteTableCommand({ TableName: aside }));
  return missing;
}
