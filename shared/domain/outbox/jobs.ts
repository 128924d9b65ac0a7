// The jobs the outbox publishes, declared once each: the queue it goes on, its shape (a zod
// schema, which is also how a worker reads a message: anything else is not a job), how long a
// failed attempt waits before the next, and how many attempts there are before the queue moves it
// to its dead-letter queue (infra/queues.ts takes maxReceiveCount from here).
import * as z from 'zod';

const id = z.string().min(1);

export const ZNotificationJob = z.object({
  type: z.enum(['signing_request', 'reminder', 'docs_ready', 'declined']),
  accountId: id,
  bundleId: id,
  packetId: id.optional(),
  /** The audit event's place in the bundle's history: with the bundle, what the worker de-duplicates on. */
  seq: z.number().int(),
  date: z.string().catch(''),
});

export const ZDocumentJob = z.object({
  type: z.enum(['final', 'interim']),
  accountId: id,
  bundleId: id,
  /** The audit event's place in the bundle's history (`co` or `if`). */
  seq: z.number().int(),
  date: z.string().catch(''),
});

export const ZWebhookJob = z.object({
  accountId: id,
  eventId: id,
  /** Set by the redeliver operation: deliver even if an earlier attempt succeeded. */
  redeliver: z.literal(true).optional().catch(undefined),
});

/** A chunk of a bulk send's rows (shared/domain/bulk/process-bulk-chunk.ts). */
export const ZBulkJob = z.object({
  accountId: id,
  batchId: id,
  chunk: z.number().int().min(0),
  /** When the chunk's reserved time starts (epoch ms), once reserved (process-bulk-chunk.ts). */
  slot: z.number().int().min(0).optional(),
});

const delays = <T extends readonly number[]>(seconds: T) => ({
  retryDelaysSeconds: seconds,
  maxAttempts: seconds.length + 1,
});

export const JOBS = {
  /** Messages to people (signing requests, reminders, documents ready, declines). */
  notifications: { schema: ZNotificationJob, ...delays([30, 120, 600, 1800] as const) },
  /** Webhook deliveries, on about the schedule BlueInk publishes (4, 12, 36, 108, 324 minutes). */
  webhookDeliveries: { schema: ZWebhookJob, ...delays([240, 720, 2160, 6480, 19440] as const) },
  /** Final documents and certificates, and interim files. */
  documentJobs: { schema: ZDocumentJob, ...delays([30, 120, 600, 1800] as const) },
  /** Bulk send chunks: each row is created once however often its chunk runs. */
  bulkJobs: { schema: ZBulkJob, ...delays([30, 120, 600] as const) },
} as const;

export type TJobQueue = keyof typeof JOBS;
export type TJobOf<Q extends TJobQueue> = z.infer<(typeof JOBS)[Q]['schema']>;
export type TNotificationJob = z.infer<typeof ZNotificationJob>;
export type TDocumentJob = z.infer<typeof ZDocumentJob>;
export type TWebhookJob = z.infer<typeof ZWebhookJob>;
export type TBulkJob = z.infer<typeof ZBulkJob>;

/** A queue message's body as the job it must be, or undefined when it is not one. */
export function jobOf<Q extends TJobQueue>(queue: Q, body: string): TJobOf<Q> | undefined {
  try {
    const parsed = JOBS[queue].schema.safeParse(JSON.parse(body));
    return parsed.success ? (parsed.data as TJobOf<Q>) : undefined;
  } catch {
    return undefined;
  }
}

/** How long attempt `attempt` (1-based) waits before the next, times `scale` (tests shorten it). */
export function retryDelaySeconds(queue: TJobQueue, attempt: number, scale = 1): number {
  const d = JOBS[queue].retryDelaysSeconds;
  return (d[attempt - 1] ?? d.at(-1)!) * scale;
}
