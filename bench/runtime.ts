import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { startLocalRuntime, type TRuntime } from '#infra/local/runtime';

/** The whole local runtime as every bench section measures it: in memory, quiet, never throttled. */
export function startBenchRuntime(instrumentDb: (db: DynamoDBDocumentClient) => void): Promise<TRuntime> {
  return startLocalRuntime({
    port: 0,
    memory: true,
    logLevel: 'silent',
    // The bench measures the service, not the usage plan.
    limits: { quotaLimit: 1e9, rateLimit: 1e9, burstLimit: 1e9 },
    publicPathLimit: 1e9,
    // The default TTL could expire mid-run and add an authorizer call to one measured request.
    authorizerTtlSeconds: 3600,
    instrumentDb,
  });
}
