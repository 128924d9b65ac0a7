// Work on a file someone else wrote runs here, off the request's thread: in a worker thread with a
// heap limit (`resourceLimits`) and a deadline after which the worker is ended. A file that
// slips past every cap of the readers (shared/pdf/untrusted-limits.ts) then costs one worker, for
// a bounded time, and the process keeps answering everyone else (ARCHITECTURE.md, "Untrusted files").
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { TooComplexError, ValidationError } from '#shared/domain/errors';
import { PdfRejectedError } from '#shared/pdf/pdf-rejected-error';
import { type TWorkBudget, UNTRUSTED_WORK_BUDGET } from './budget';
import type { TTaskName, TTasks } from './tasks';
import { UNTRUSTED_WORKER_NAME } from './worker-file';

/** Workers kept for the next task: starting one and loading pdf-lib costs more than a small check. */
const MAX_IDLE = 2;
/**
 * Tasks at work at once in one process; later ones wait for a turn (their deadline starts with
 * it). Many hostile files at once then cost at most this many heaps, not one each. A Lambda
 * instance serves one request at a time; the local runtime serves them all.
 */
const MAX_RUNNING = 4;
let running = 0;
const waiting: (() => void)[] = [];

async function turn(): Promise<void> {
  if (running < MAX_RUNNING) {
    running++;
    return;
  }
  await new Promise<void>((resolve) => waiting.push(resolve));
}

/** Hands the turn to the next waiting task, or frees it. */
function endTurn(): void {
  const next = waiting.shift();
  if (next) next();
  else running--;
}

/** An error as it crosses from the worker: its class by name, and what that class carries. */
export interface TWorkerError {
  name: string;
  message: string;
  reason?: string;
  fieldErrors?: ValidationError['fieldErrors'];
}

export type TWorkerReply = { ok: true; value: unknown } | { ok: false; error: TWorkerError };

/**
 * Where the worker's code is. The Lambda bundle has it as its own entry beside this code's chunk;
 * run from the TypeScript sources (`npm start`, the tests), a small module registers tsx's loader
 * in the worker first, since a worker does not inherit the loader of the thread that starts it.
 */
function workerEntry(): URL {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new URL(`./${UNTRUSTED_WORKER_NAME}.mjs`, here);
  const tsxApi = pathToFileURL(
    createRequire(here)
      .resolve('tsx/package.json')
      .replace(/package\.json$/, 'dist/esm/api/index.mjs'),
  ).href;
  const entry = new URL('./worker.ts', here).href;
  const boot = `import { register } from ${JSON.stringify(tsxApi)}; register(); await import(${JSON.stringify(entry)});`;
  return new URL(`data:text/javascript,${encodeURIComponent(boot)}`);
}

/** The error the worker reported, as the class the callers know. */
function fromWorker(e: TWorkerError, what: string): Error {
  switch (e.name) {
    case 'PdfRejectedError':
      return new PdfRejectedError(e.reason as PdfRejectedError['reason'], e.message);
    case 'PdfTooComplexError':
    case 'TooComplexError':
      return new TooComplexError(e.message);
    case 'ValidationError':
      return new ValidationError(e.message, e.fieldErrors ?? []);
    // A nesting deeper than the worker's stack, or an array longer than memory allows.
    case 'RangeError':
      return overBudget(what);
    default:
      return Object.assign(new Error(e.message), { name: e.name });
  }
}

const overBudget = (what: string) =>
  new TooComplexError(`The file is too complex to ${what} within the limits of one request.`);

let entry: URL | undefined;
const idle: Worker[] = [];

function startWorker(budget: TWorkBudget): Worker {
  entry ??= workerEntry();
  const worker = new Worker(entry, {
    resourceLimits: { maxOldGenerationSizeMb: budget.maxHeapMb, maxYoungGenerationSizeMb: 32 },
    // Not the flags the process was started with: they name its own entry (`--input-type`, a
    // loader), which is not this one's; NODE_OPTIONS (source maps) still applies.
    execArgv: [],
    // Its output is the process's: a warning pdf-lib prints about a damaged object stays visible.
    stdout: false,
    stderr: false,
  });
  // An idle worker that ends (it should not) leaves the pool; an error then has been reported.
  worker.on('exit', () => {
    const at = idle.indexOf(worker);
    if (at >= 0) idle.splice(at, 1);
  });
  worker.on('error', () => {});
  return worker;
}

/**
 * Runs `task` of tasks.ts in a worker within `budget`. Errors the task throws on purpose come back
 * as their classes (PdfRejectedError, ValidationError; a cap of the readers as TooComplexError);
 * a task past its deadline or heap answers TooComplexError, its worker ended.
 */
export async function runBudgeted<K extends TTaskName>(
  task: K,
  args: Parameters<TTasks[K]>,
  what: string,
  budget: TWorkBudget = UNTRUSTED_WORK_BUDGET,
): Promise<Awaited<ReturnType<TTasks[K]>>> {
  await turn();
  try {
    return await inWorker(task, args, what, budget);
  } finally {
    endTurn();
  }
}

function inWorker<K extends TTaskName>(
  task: K,
  args: Parameters<TTasks[K]>,
  what: string,
  budget: TWorkBudget,
): Promise<Awaited<ReturnType<TTasks[K]>>> {
  // An idle worker started with another heap limit is not this budget's.
  const reused = budget === UNTRUSTED_WORK_BUDGET ? idle.pop() : undefined;
  const worker = reused ?? startWorker(budget);
  worker.ref();
  return new Promise((resolve, reject) => {
    let settled = false;
    // Only our own listeners come off: Worker keeps its message port running with its own.
    const listeners = {
      message: (reply: TWorkerReply) =>
        settle(true, () =>
          reply.ok
            ? resolve(reply.value as Awaited<ReturnType<TTasks[K]>>)
            : reject(fromWorker(reply.error, what)),
        ),
      // ERR_WORKER_OUT_OF_MEMORY when the heap limit is reached; any other end is the same for the caller.
      error: (err: Error) =>
        settle(false, () =>
          reject((err as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY' ? overBudget(what) : err),
        ),
      exit: (code: number) =>
        settle(false, () => reject(new Error(`The worker ended (${code}) before it answered.`))),
    };
    const settle = (keep: boolean, fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      worker.off('message', listeners.message).off('error', listeners.error).off('exit', listeners.exit);
      if (keep && budget === UNTRUSTED_WORK_BUDGET && idle.length < MAX_IDLE) {
        // An idle worker must not keep the process (a test, a local run) from ending.
        worker.unref();
        idle.push(worker);
      } else void worker.terminate();
      fn();
    };
    const timer = setTimeout(() => settle(false, () => reject(overBudget(what))), budget.timeoutMs);
    worker.on('message', listeners.message).on('error', listeners.error).on('exit', listeners.exit);
    worker.postMessage({ task, args });
  });
}
