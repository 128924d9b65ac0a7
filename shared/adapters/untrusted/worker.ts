// The untrusted-files worker's entry (run-budgeted.ts starts it; the Lambda bundles build it as
// untrusted-worker.mjs beside index.mjs): one task at a time, its answer or its error as data.
import { parentPort } from 'node:worker_threads';
import type { TWorkerError, TWorkerReply } from './run-budgeted';
import { TASKS, type TTaskName } from './tasks';

function asData(err: unknown): TWorkerError {
  const e = err instanceof Error ? err : new Error(String(err));
  const extra = e as Error & { reason?: string; fieldErrors?: TWorkerError['fieldErrors'] };
  return {
    name: e.name,
    message: e.message,
    ...(typeof extra.reason === 'string' ? { reason: extra.reason } : {}),
    ...(Array.isArray(extra.fieldErrors) ? { fieldErrors: extra.fieldErrors } : {}),
  };
}

parentPort!.on('message', async ({ task, args }: { task: TTaskName; args: unknown[] }) => {
  let reply: TWorkerReply;
  try {
    const run = TASKS[task] as (...a: unknown[]) => Promise<unknown>;
    reply = { ok: true, value: await run(...args) };
  } catch (err) {
    reply = { ok: false, error: asData(err) };
  }
  parentPort!.postMessage(reply);
});
