// What every job declares (one file per job beside this one, listed by queue in ../jobs.ts): its
// shape (a zod schema, which is also how a worker reads a message: anything else is not a job),
// how long a failed attempt waits before the next, how many attempts there are before the queue
// moves it to its dead-letter queue, its queue's settings, and its handler: what the worker does
// with one job. The workers in functions/ only build the handler's deps (the use case, passed in
// so that the use case may read its job's types and policy) and hand them to the queue shell
// (shared/composition/job-batch.ts); infra/queues.ts takes the queue settings from here.
import type * as z from 'zod';
import type { TLog } from '#shared/domain/ports/log';
import type { TMetrics } from '#shared/domain/ports/metrics';

/** What a handler says of one job: done (its message may go), or to be run again. */
export type TJobResult =
  | { done: true }
  /**
   * Not done: the message stays on its queue, visible again after `retryAfterSeconds` (0: at
   * once, so that the queue's redrive takes a message whose last attempt failed), or, without
   * it, after the queue's visibility timeout.
   */
  | { done: false; retryAfterSeconds?: number };

export const DONE: TJobResult = { done: true };
export const retryAfter = (seconds: number): TJobResult => ({ done: false, retryAfterSeconds: seconds });

/** What every handler is given besides its use case: where it logs and what it counts. */
export interface THandlerDeps {
  log: TLog;
  metrics: TMetrics;
  /** Multiplies the retry delays (the config's `…RetryScale`, for demos and tests); 1 by default. */
  retryScale?: number;
}

export interface TJobDefinition<TSchema extends z.ZodType, TDeps> {
  schema: TSchema;
  /** After failed attempt n (1-based) the job waits `retryDelaysSeconds[n-1]` (the last for later ones). */
  retryDelaysSeconds: readonly number[];
  /** One more than there are delays: the queue's maxReceiveCount. */
  maxAttempts: number;
  /** How long a received message stays hidden: above the worker's time for a batch. */
  visibilityTimeoutSeconds: number;
  /** Jobs of a batch side by side, or one at a time (each holding PDFs in memory, say). */
  inParallel: boolean;
  handle(deps: TDeps, job: z.infer<TSchema>, attempt: number): Promise<TJobResult>;
}

/** A job's declaration, its types inferred from its schema and its handler's deps. */
export const defineJob = <TSchema extends z.ZodType, TDeps>(job: TJobDefinition<TSchema, TDeps>) => job;

export type TRetryPolicy = Pick<TJobDefinition<z.ZodType, never>, 'retryDelaysSeconds' | 'maxAttempts'>;

/** The delays after each failed attempt, and so the number of attempts: one more. */
export const retryPolicy = (retryDelaysSeconds: readonly number[]): TRetryPolicy => ({
  retryDelaysSeconds,
  maxAttempts: retryDelaysSeconds.length + 1,
});

/** How long attempt `attempt` (1-based) waits before the next, times `scale` (tests shorten it). */
export function retryDelayOf(policy: TRetryPolicy, attempt: number, scale = 1): number {
  const d = policy.retryDelaysSeconds;
  return (d[attempt - 1] ?? d.at(-1)!) * scale;
}
