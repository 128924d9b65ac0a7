// The budget of one task on a file someone else wrote (run-budgeted.ts), on its own so that the
// API description can state it without loading the worker's machinery.

export interface TWorkBudget {
  /** How long one task may run before its worker is ended. */
  timeoutMs: number;
  /** The worker's V8 heap (old generation); the readers' caps bound the byte buffers beside it. */
  maxHeapMb: number;
}

/** Each task's budget: within API Gateway's 29 s, and well within the smallest function's memory. */
export const UNTRUSTED_WORK_BUDGET: TWorkBudget = { timeoutMs: 15_000, maxHeapMb: 384 };
