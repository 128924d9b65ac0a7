// The workers AWS runs from queues, the table's stream and schedules, run here in-process: each
// queue's worker polls the SQS stand-in, the outbox relay reads the DynamoDB stand-in's stream
// (dynamo-stream.ts, stream-mapping.ts), and the outbox sweeper and the scheduler run on timers.

import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { buildBulkWorker } from '#functions/bulk-worker/app';
import { buildDocumentWorker } from '#functions/document-worker/app';
import { buildNotificationsWorker } from '#functions/notifications-worker/app';
import { buildOutboxRelay } from '#functions/outbox-relay/app';
import { buildOutboxSweeper } from '#functions/outbox-sweeper/app';
import { buildScheduler } from '#functions/scheduler/app';
import { buildWebhookDispatcher } from '#functions/webhook-dispatcher/app';
import { createBundleStore } from '#shared/adapters/dynamodb/bundle-store';
import { bundleKeys } from '#shared/adapters/dynamodb/entities/bundle';
import type { TDueWorkRun } from '#shared/domain/scheduler/run-due-work';
import { CONSUMERS, SCHEDULES, STREAM_CONSUMERS, type TScheduled } from '../workers';
import { ownDeps } from './function-config';
import { LOCAL_ACCOUNT } from './iam/local-check';
import { invoke } from './invocation';
import { LOCAL_REGION } from './layout';
import { snsEventOf } from './mailbox';
import { createQueueConsumer, type TQueueConsumer } from './queue-consumer';
import type { TLocalDeps, TRuntimeOptions } from './runtime-options';
import type { TStandIns, TStops } from './stand-ins';
import { startStreamMapping, type TStreamMapping } from './stream-mapping';

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
  /** The outbox relay, fed from the table's stream: `idle()` once every outbox written so far is published. */
  outboxRelay: TStreamMapping;
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
  standIns: Pick<TStandIns, 'onMailEvent' | 'dynamo'>,
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
  const outboxRelay = streamWorker(deps, standIns, stops);
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
    outboxRelay,
    sweepOutboxes: () => invoke('outbox-sweeper', () => sweep(undefined)),
    runScheduler: (now?: Date) => invoke('scheduler', () => runScheduler(now)),
  };
}

/** The outbox relay on the table's stream, as the stack's event source mapping feeds it. */
function streamWorker(deps: TLocalDeps, standIns: Pick<TStandIns, 'dynamo'>, stops: TStops): TStreamMapping {
  const { config, log } = deps;
  const fn = 'outbox-relay';
  const relay = buildOutboxRelay(ownDeps(deps)(fn));
  const arn = `arn:aws:dynamodb:${LOCAL_REGION}:${LOCAL_ACCOUNT}:table/${config.tableName}/stream/local`;
  const mapping = startStreamMapping({
    ...STREAM_CONSUMERS[fn],
    handler: (event) => invoke(fn, () => relay(event)),
    log: log.child({ fn }),
  });
  const stream = standIns.dynamo.stream(config.tableName, arn, LOCAL_REGION);
  const unsubscribe = stream.subscribe(mapping.push);
  stops.push(async () => {
    unsubscribe();
    await mapping.stop();
  });
  // On AWS the stream keeps its records for a day and the mapping resumes where it stopped; this
  // stream lives in memory, so a runtime started again (after a crash too) gives the relay the
  // bundles whose outbox is still pending, as their records would have come.
  stream.retained(pendingOutboxes(deps)).catch((err: Error) =>
    log.error('pending outboxes not given to the relay; the sweeper publishes them', {
      error: err.message,
    }),
  );
  return mapping;
}

/** Every bundle item whose outbox is pending, from the by-outbox index. */
async function pendingOutboxes({ config, db }: TLocalDeps): Promise<Record<string, unknown>[]> {
  const bundles = createBundleStore(db, config.tableName);
  const refs = await bundles.withPendingOutbox('~', 10_000);
  const items = await Promise.all(
    refs.map(
      async (ref) =>
        (
          await db.send(
            new GetCommand({ TableName: config.tableName, Key: bundleKeys.item(ref.accountId, ref.id) }),
          )
        ).Item,
    ),
  );
  return items.filter((i) => i !== undefined);
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
