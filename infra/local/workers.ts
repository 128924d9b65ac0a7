// The workers AWS runs from queues and schedules, run here in-process: each queue's worker polls
// the SQS stand-in, and the outbox sweeper and the scheduler run on timers.
import { buildBulkWorker } from '#functions/bulk-worker/app';
import { buildDocumentWorker } from '#functions/document-worker/app';
import { buildNotificationsWorker } from '#functions/notifications-worker/app';
import { buildOutboxSweeper } from '#functions/outbox-sweeper/app';
import { buildScheduler } from '#functions/scheduler/app';
import { buildWebhookDispatcher } from '#functions/webhook-dispatcher/app';
import type { TDueWorkRun } from '#shared/domain/scheduler/run-due-work';
import { invoke } from './invocation';
import { snsEventOf } from './mailbox';
import { createQueueConsumer, type TQueueConsumer } from './queue-consumer';
import type { TLocalDeps, TRuntimeOptions } from './runtime-options';
import type { TStandIns, TStops } from './stand-ins';

/** The workers AWS runs from queues and schedules, run here in-process. */
export interface TLocalWorkers {
  /** The webhook dispatcher, fed from the webhook-deliveries queue (stop and start it at will). */
  webhooks: TQueueConsumer;
  /** The notifications worker, fed from the notifications queue (emails and texts to people). */
  notifications: TQueueConsumer;
  /** The document worker, fed from the document-jobs queue (final documents, certificates, interim files). */
  documents: TQueueConsumer;
  /** The bulk worker, fed from the bulk-jobs queue (the rows of bulk sends, a chunk at a time). */
  bulk: TQueueConsumer;
  /** One run of the outbox sweeper, as the schedule would; answers how many bundles it published. */
  sweepOutboxes(): Promise<{ published: number }>;
  /** One run of the scheduler (reminders, expiry), at `now` (default: the clock). */
  runScheduler(now?: Date): Promise<TDueWorkRun>;
}

type THandler = Parameters<typeof createQueueConsumer>[0]['handler'];
type TConsume = (
  queueUrl: string | undefined,
  fn: string,
  handler: THandler,
  tuning?: { batchSize?: number; concurrency?: number },
) => TQueueConsumer;

/** Starts every worker and both schedules; their stops go onto `stops`. */
export function startWorkers(
  deps: TLocalDeps,
  standIns: Pick<TStandIns, 'onMailEvent'>,
  options: Pick<TRuntimeOptions, 'sweepIntervalMs' | 'schedulerIntervalMs'>,
  stops: TStops,
): TLocalWorkers {
  const { config, db, sqs, telemetry } = deps;
  const queues = config.queues ?? {};
  const consume = queueWorkers(deps, stops);
  const webhookWorker = consume(
    queues.webhookDeliveries,
    'webhook-dispatcher',
    buildWebhookDispatcher({ config, db, sqs, telemetry: telemetry('webhook-dispatcher') }),
  );
  const notify = buildNotificationsWorker({ config, db, sqs, telemetry: telemetry('notifications-worker') });
  const notificationsWorker = consume(queues.notifications, 'notifications-worker', notify);
  // One job at a time per loop, two loops: each job holds whole PDFs in memory, as the Lambda
  // (batch size 1) does.
  const documentsWorker = consume(
    queues.documentJobs,
    'document-worker',
    buildDocumentWorker({ config, db, sqs, telemetry: telemetry('document-worker') }),
    { batchSize: 1, concurrency: 2 },
  );
  const bulkWorker = consume(
    queues.bulkJobs,
    'bulk-worker',
    buildBulkWorker({ config, db, sqs, telemetry: telemetry('bulk-worker') }),
    { batchSize: 1, concurrency: 1 },
  );
  standIns.onMailEvent(async (notification) => {
    await invoke('notifications-worker', () => notify(snsEventOf(notification)));
  });
  const sweep = buildOutboxSweeper({ config, db, telemetry: telemetry('outbox-sweeper') });
  const runScheduler = buildScheduler({ config, db, telemetry: telemetry('scheduler') });
  const every = schedules(deps, stops);
  every(options.sweepIntervalMs ?? 60_000, 'outbox-sweeper', 'outbox sweep', () => sweep(undefined));
  every(options.schedulerIntervalMs ?? 60_000, 'scheduler', 'scheduler run', () => runScheduler(undefined));
  return {
    webhooks: webhookWorker,
    notifications: notificationsWorker,
    documents: documentsWorker,
    bulk: bulkWorker,
    sweepOutboxes: () => invoke('outbox-sweeper', () => sweep(undefined)),
    runScheduler: (now?: Date) => invoke('scheduler', () => runScheduler(now)),
  };
}

/** Makes a queue's worker, polling from then on and stopped with the runtime. */
function queueWorkers({ sqs, log }: TLocalDeps, stops: TStops): TConsume {
  // The workers stop together: each waits out its last long poll (up to a second) so that what
  // the poll still gets is released, and one after another those waits added up to seconds.
  const consumers: TQueueConsumer[] = [];
  stops.push(async () => {
    await Promise.all(consumers.map((w) => w.stop()));
  });
  return (queueUrl, fn, handler, tuning = {}) => {
    if (!queueUrl) throw new Error(`no queue for ${fn}`);
    const worker = createQueueConsumer({
      sqs,
      queueUrl,
      handler: (event) => invoke(fn, () => handler(event)),
      log: log.child({ fn }),
      ...tuning,
    });
    worker.start();
    consumers.push(worker);
    return worker;
  };
}

/** A schedule: `run` every `intervalMs`, failures logged, cleared with the runtime. */
function schedules({ log }: TLocalDeps, stops: TStops) {
  return (intervalMs: number, fn: string, what: string, run: () => Promise<unknown>) => {
    const timer = setInterval(() => {
      invoke(fn, run).catch((err: Error) => log.error(`${what} failed`, { error: err.message }));
    }, intervalMs);
    timer.unref();
    stops.push(async () => clearInterval(timer));
  };
}
