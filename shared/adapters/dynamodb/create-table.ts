import {
  CreateTableCommand,
  type CreateTableCommandInput,
  DescribeTableCommand,
  type DynamoDBClient,
  type TableDescription,
} from '@aws-sdk/client-dynamodb';
import { INDEXES, TABLE_KEYS } from './table';

/** The CreateTable request for the declaration in table.ts (or for only some of its indexes). */
export function tableDefinition(
  tableName: string,
  indexes: readonly (typeof INDEXES)[keyof typeof INDEXES][] = Object.values(INDEXES),
): CreateTableCommandInput {
  const attrs = new Set<string>([TABLE_KEYS.partitionKey, TABLE_KEYS.sortKey]);
  for (const ix of indexes) {
    attrs.add(ix.partitionKey);
    attrs.add(ix.sortKey);
  }
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [...attrs].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
    KeySchema: [
      { AttributeName: TABLE_KEYS.partitionKey, KeyType: 'HASH' },
      { AttributeName: TABLE_KEYS.sortKey, KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes:
      indexes.length === 0
        ? undefined
        : indexes.map((ix) => ({
            IndexName: ix.name,
            KeySchema: [
              { AttributeName: ix.partitionKey, KeyType: 'HASH' },
              { AttributeName: ix.sortKey, KeyType: 'RANGE' },
            ],
            Projection: {
              ProjectionType: ix.projection,
              ...('nonKeyAttributes' in ix ? { NonKeyAttributes: [...ix.nonKeyAttributes] } : {}),
            },
          })),
  };
}

export async function describeTable(
  client: DynamoDBClient,
  tableName: string,
): Promise<TableDescription | undefined> {
  try {
    return (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table;
  } catch (err) {
    if ((err as Error).name === 'ResourceNotFoundException') return undefined;
    throw err;
  }
}

/** Index names the existing table lacks compared with table.ts. */
export function missingIndexes(table: TableDescription): string[] {
  const have = new Set((table.GlobalSecondaryIndexes ?? []).map((i) => i.IndexName));
  return Object.values(INDEXES)
    .map((ix) => ix.name)
    .filter((name) => !have.has(name));
}

/** Creates the table (locally) if it is missing, from the declaration in table.ts. */
export async function ensureTable(client: DynamoDBClient, tableName: string): Promise<void> {
  if (await describeTable(client, tableName)) return;
  await client.send(new CreateTableCommand(tableDefinition(tableName)));
}
