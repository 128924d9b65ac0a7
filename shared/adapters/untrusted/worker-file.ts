// Where the untrusted-files worker's code is: its source, and its name in a Lambda's output
// (infra/bundling.ts builds it there beside index.mjs; run-budgeted.ts starts it from there).
export const UNTRUSTED_WORKER_NAME = 'untrusted-worker';
export const UNTRUSTED_WORKER_SOURCE = 'shared/adapters/untrusted/worker.ts';
