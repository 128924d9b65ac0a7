// What sets each worker off, declared once: the stack wires its event sources and schedules from
// this, and the local runtime its in-process consumers and timers, so the two cannot drift
// (test/infra/template-wiring.test.ts compares the synthesized template with it both ways).
import type { QUEUES } from './queues';

/** A queue's consumer: the function (its name in infra/bundling.ts) and the messages per call. */
export interface TConsumer {
  fn: string;
  batchSize: number;
}

export const CONSUMERS = {
  // A delivery is one POST with a 10 s budget: a batch of ten stays well within the timeout.
  webhookDeliveries: { fn: 'webhook-dispatcher', batchSize: 10 },
  // Small batches: a documents-ready job sends a message per recipient, and the pace stays within
  // SES's default sending rate.
  notifications: { fn: 'notifications-worker', batchSize: 5 },
  // One job per call: each holds whole PDFs in memory.
  documentJobs: { fn: 'document-worker', batchSize: 1 },
  // One chunk at a time, one batch's chunks after another: the pace is the worker's to keep.
  bulkJobs: { fn: 'bulk-worker', batchSize: 1 },
} as const satisfies Record<keyof typeof QUEUES, TConsumer>;

/** The functions run on a schedule, and how often (minutes). */
export const SCHEDULES = {
  // Publishes what the outbox relay left in a bundle's outbox.
  'outbox-sweeper': { everyMinutes: 1 },
  // Reminders, expiry and retention: a bundle expires and a reminder goes out at most five
  // minutes after its time.
  scheduler: { everyMinutes: 5 },
} as const;

export type TScheduled = keyof typeof SCHEDULES;

/**
 * A Lambda event filter pattern (the subset used here: nested fields, a list of values any of
 * which matches, `{ exists: true }`), as the stack's event source mapping declares it and the
 * local runtime's mapping applies it (infra/local/stream-mapping.ts).
 */
export type TFilterPattern = { [field: string]: TFilterPattern | readonly (string | { exists: boolean })[] };

/** A function fed by the table's stream: the records a call takes at most, and which it gets. */
export interface TStreamConsumer {
  batchSize: number;
  filter: TFilterPattern;
}

export const STREAM_CONSUMERS = {
  // Bundle items written with webhook events, messages or evidence jobs to publish: a bundle
  // item carries `outboxPk` exactly while its outbox holds entries (its by-outbox index key).
  'outbox-relay': {
    batchSize: 100,
    filter: {
      eventName: ['INSERT', 'MODIFY'],
      dynamodb: { NewImage: { outboxPk: { S: [{ exists: true }] } } },
    },
  },
} as const satisfies Record<string, TStreamConsumer>;
