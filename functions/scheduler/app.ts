import { createDocumentClient, createS3Client } from '#shared/adapters/aws/clients';
import { createBulkStore } from '#shared/adapters/dynamodb/bulk-store';
import { createBlobEraser } from '#shared/adapters/s3/blob-eraser';
import { systemClock } from '#shared/adapters/system';
import { withTelemetry } from '#shared/adapters/telemetry/telemetry';
import { createCountingBundleStore } from '#shared/composition/bundle-publishing';
import { type TFunctionOptions, telemetryOf } from '#shared/composition/function-base';
import { retentionDeps } from '#shared/composition/retention';
import { runDueWork, type TDueWorkRun } from '#shared/domain/scheduler/run-due-work';

/**
 * Composition root of the scheduler, run every five minutes (an EventBridge schedule on AWS, a
 * timer locally): expires bundles past their expiry, records the automatic reminders due and
 * deletes the documents an account's retention policy says are due.
 * Its changes publish their outbox like any other (the reminder messages, through the
 * notifications queue), so it gets the same bundle store as the functions serving requests.
 * `now` is for tests; the schedule runs it with the clock.
 */
export function buildScheduler(opts: TFunctionOptions) {
  const db = opts.db ?? createDocumentClient(opts.config);
  const telemetry = telemetryOf(opts);
  const { log, metrics } = telemetry;
  const deps = retentionDeps(
    {
      bundles: createCountingBundleStore(opts.config, db, metrics),
      bulk: createBulkStore(db, opts.config.tableName),
      // The only code that deletes documents, for the retention policies (shared/domain/bundles/retention.ts).
      eraser: createBlobEraser(createS3Client(opts.config), opts.config.bucketName),
    },
    (batch) => log.info('bulk batch documents deleted by policy', { ...batch }),
  );
  return withTelemetry(telemetry, async (now?: Date): Promise<TDueWorkRun> => {
    const run = await runDueWork(deps, now ?? systemClock.now());
    for (const f of run.failed) {
      log.error('due work failed; the next run tries again', {
        accountId: f.accountId,
        bundleId: f.id,
        error: f.error,
      });
    }
    if (run.checked > 0) {
      log.info('due work done', {
        checked: run.checked,
        expired: run.expired,
        reminders: run.reminders,
        deleted: run.deleted,
        failed: run.failed.length,
      });
    }
    return run;
  });
}
