// The workers AWS runs from queues and schedules, run here in-process: each queue's worker polls
// the SQS stand-in, and the outbox sweeper and the scheduler run on timers.
import { buildBulkWorker } from '#functions/bulk-worker/app';
import { buildDocumentWorker } from '#functions/document-worker/app';
import { buildNotificationsWorker } from '#functions/notifications-worker/app';
import { buildOutboxSweeper } from '#functions/outbox-sweeper/app';
import { buildScheduler } from '#functions/scheduler/app';
import { buildWebhookDispatcher } from '#functions/webhook-dispatcher/app';
import type { TDueWorkRun } from '#shared/domain/scheduler/run-due-work';
import { CONSUMERS, SCHEDULES, type TScheduled } from '../workers';
import { ownDeps } from './function-config';
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
type TConsume = (queue: keyof typeof CONSUMERS, handler: THandler, concurrency?: number) => TQueueConsumer;

/** Starts every worker and both schedules; their stops go onto `stops`. */
export function startWorkers(
  deps: TLocalDeps,
  standIns: Pick<TStandIns, 'onMailEvent'>,
  options: Pick<TRuntimeOptions, 'sweepIntervalMs' | 'schedulerIntervalMs'>,
  stops: TStops,
): TLocalWorkers {
  const { sqs } = deps;
  const own = ownDeps(deps);
  const consume = queueWorkers(deps, stops);
  // The functions and batch sizes are the stack's (infra/workers.ts); how many batches run at
  // once is this machine's: fewer than Lambda's concurrency, as the runtime shares one process.
  const webhookWorker = consume(
    'webhookDeliveries',
    buildWebhookDispatcher({ ...own('webhook-dispatcher'), sqs }),
  );
  const notify = buildNotificationsWorker({ ...own('notifications-worker'), sqs });
  const notificationsWorker = consume('notifications', notify);
  // Two loops: each job holds whole PDFs in memory.
  const documentsWorker = consume('documentJobs', buildDocumentWorker({ ...own('document-worker'), sqs }), 2);
  const bulkWorker = consume('bulkJobs', buildBulkWorker({ ...own('bulk-worker'), sqs }), 1);
  standIns.onMailEvent(async (notification) => {
    await invoke('notifications-worker', () => notify(snsEventOf(notification)));
  });
  const sweep = buildOutboxSweeper(own('outbox-sweeper'));
  const runScheduler = buildScheduler(own('scheduler'));
  const every = schedules(deps, stops);
  every(options.sweepIntervalMs, 'outbox-sweeper', 'outbox sweep', () => sweep(undefined));
  every(options.schedulerIntervalMs, 'scheduler', 'scheduler run', () => runScheduler(undefined));
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
function queueWorkers({ config, sqs, log }: TLocalDeps, stops: TStops): TConsume {
  // The workers stop together: each waits out its last long poll (up to a second) so that what
  // the poll still gets is released, and one after another those waits added up to seconds.
  const consumers: TQueueConsumer[] = [];
  stops.push(async () => {
    await Promise.all(consumers.map((w) => w.stop()));
  });
  return (queue, handler, concurrency) => {
    const { fn, batchSize } = CONSUMERS[queue];
    const queueUrl = config.queues?.[queue];
    if (!queueUrl) throw new Error(`no queue for ${fn}`);
    const worker = createQueueConsumer({
      sqs,
      queueUrl,
      handler: (event) => invoke(fn, () => handler(event)),
      log: log.child({ fn }),
      batchSize,
      ...(concurrency === undefined ? {} : { concurrency }),
    });
    worker.start();
    consumers.push(worker);
    return worker;
  };
}

/**
 * A schedule: `run` as `fn` at the stack's rate (infra/workers.ts) unless a test sets
 * `intervalMs`, failures logged, cleared with the runtime.
 */
function schedules({ log }: TLocalDeps, stops: TStops) {
  return (intervalMs: number | undefined, fn: TScheduled, what: string, run: () => Promise<unknown>) => {
    intervalMs ??= SCHEDULES[fn].everyMinutes * 60_000;
    const timer = setInterval(() => {
      invoke(fn, run).catch((err: Error) => log.error(`${what} failed`, { error: err.message }));
    }, intervalMs);
    timer.unref();
    stops.push(async () => clearInterval(timer));
  };
}
