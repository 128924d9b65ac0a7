import { createDocumentClient } from '#shared/adapters/aws/clients';
import { withTelemetry } from '#shared/adapters/telemetry/telemetry';
import { publishDeps } from '#shared/composition/bundle-publishing';
import { type TFunctionOptions, telemetryOf } from '#shared/composition/function-base';
import { sweepOutboxes } from '#shared/domain/outbox/publish-events';

/**
 * Composition root of the outbox sweeper, run every minute (an EventBridge schedule on AWS, a
 * timer locally): publishes the outboxes the outbox relay did not (records it gave up, or lost).
 */
export function buildOutboxSweeper(opts: TFunctionOptions) {
  const db = opts.db ?? createDocumentClient(opts.config);
  const telemetry = telemetryOf(opts);
  const { log } = telemetry;
  const deps = publishDeps(opts.config, db);
  return withTelemetry(telemetry, async (): Promise<{ published: number }> => {
    const published = await sweepOutboxes(deps);
    if (published > 0) log.warn('published webhook events left in outboxes', { bundles: published });
    return { published };
  });
}
