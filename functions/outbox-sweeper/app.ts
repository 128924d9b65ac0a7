import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../../shared/adapters/aws/clients';
import { publishDeps } from '../../shared/adapters/bundle-publishing';
import type { TConfig } from '../../shared/config';
import { sweepOutboxes } from '../../shared/domain/outbox/publish-events';
import { createLogger, type TLogger } from '../../shared/logger';

/**
 * Composition root of the outbox sweeper, run every minute (an EventBridge schedule on AWS, a
 * timer locally): publishes the webhook events of bundles whose own publisher did not finish.
 */
export function buildOutboxSweeper(opts: { config: TConfig; db?: DynamoDBDocumentClient; log?: TLogger }) {
  const db = opts.db ?? createDocumentClient(opts.config);
  const log = opts.log ?? createLogger(opts.config.logLevel);
  const deps = publishDeps(opts.config, db);
  return async (): Promise<{ published: number }> => {
    const published = await sweepOutboxes(deps);
    if (published > 0) log.warn('published webhook events left in outboxes', { bundles: published });
    return { published };
  };
}
