import type { AddressInfo } from 'node:net';
import { streamTable } from './dynamo-stream';
import { dynaliteWithTransactions } from './dynamo-transactions';

/**
 * dynalite in this process, with TransactWriteItems added (dynamo-transactions.ts): LevelDB on
 * disk under `dir`, or in memory when `dir` is undefined. `stream(table, arn, region)` streams a
 * table's item writes as DynamoDB Streams records (dynamo-stream.ts).
 */
export async function startDynalite(opts: { port: number; host: string; dir?: string }) {
  const { server, store } = dynaliteWithTransactions({
    ...(opts.dir ? { path: opts.dir } : {}),
    createTableMs: 0,
    deleteTableMs: 0,
    updateTableMs: 0,
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const bound = server.address() as AddressInfo;
  return {
    endpoint: `http://${opts.host}:${bound.port}`,
    port: bound.port,
    bound,
    stream: (table: string, arn: string, region: string) => streamTable(store, table, arn, region),
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
