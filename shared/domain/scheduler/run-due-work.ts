import type { TBundle } from '../bundles/bundle';
import { changeBundle } from '../bundles/change-bundle';
import { markDeletion, retentionDueAt } from '../bundles/retention';
import { MAX_PER_PAGE } from '../paging';
import type { TBundleStore } from '../ports/bundles';
import type { TBlobEraser } from '../ports/files';
import { applyDueWork, type TDueWork } from './apply-due-work';
import { deleteMarked, type TSharedOriginals } from './delete-by-policy';

type TDeps = { bundles: TBundleStore; eraser: TBlobEraser; sharedOriginals?: TSharedOriginals };

export interface TDueWorkRun {
  /** Bundles read from the `by-due` index. */
  checked: number;
  expired: number;
  /** Reminders recorded (and so their messages queued: EFFECTS.reminderSent). */
  reminders: number;
  /** Bundles whose documents (some parts of them) the retention policy deleted. */
  deleted: number;
  /** Bundles whose work failed; they stay due and the next run tries again. */
  failed: { accountId: string; id: string; error: string }[];
}

export interface TDueWorkOptions {
  /** Bundles read from the index at a time. */
  batch?: number;
  /** Batches in one run at most; what is left waits for the next run. */
  maxBatches?: number;
  /** Bundles worked on side by side. */
  concurrency?: number;
}

/**
 * One run of the scheduler: the bundles the `by-due` index says have something due by `now`
 * (never a read of all bundles), each changed through changeBundle — a conditional write on the
 * version read, retried on a lost race — with what applyDueWork finds due on the bundle as
 * re-read. The index keys are derived from the bundle in that same write, so work done leaves the
 * due window at once, a run that stops half-way is finished by the next one, a second run finds
 * nothing more to do, and two runs at once cannot both remind a signer: the loser of the race
 * re-applies to the winner's state, where the reminder is within the hour and not due.
 */
export async function runDueWork(
  deps: TDeps,
  now: Date,
  options: TDueWorkOptions = {},
): Promise<TDueWorkRun> {
  const { batch = 100, maxBatches = 20, concurrency = 8 } = options;
  const run: TDueWorkRun = { checked: 0, expired: 0, reminders: 0, deleted: 0, failed: [] };
  // The index may lag the table on AWS (GSIs are eventually consistent): a bundle just done can
  // show up again in this run's next batch. It is taken once; a stale entry in a later run only
  // costs a read, since the bundle itself decides.
  const seen = new Set<string>();
  for (let i = 0; i < maxBatches; i++) {
    const refs = (await deps.bundles.due(now.toISOString(), batch)).filter(
      (r) => !seen.has(`${r.accountId}/${r.id}`),
    );
    if (refs.length === 0) break;
    for (const r of refs) seen.add(`${r.accountId}/${r.id}`);
    run.checked += refs.length;
    for (let at = 0; at < refs.length; at += concurrency) {
      await Promise.all(refs.slice(at, at + concurrency).map((ref) => work(deps, ref, now, run)));
    }
  }
  return run;
}

/**
 * The retention work one account's bundles have due by `now`, done at once rather than at the
 * scheduler's next run (the operator's run-retention): the same work on each bundle, found by
 * reading the account's bundles rather than the index. Run beside the scheduler, the two meet
 * on each bundle's conditional writes, and the loser finds nothing more due.
 */
export async function runDueRetention(deps: TDeps, accountId: string, now: Date): Promise<TDueWorkRun> {
  const run: TDueWorkRun = { checked: 0, expired: 0, reminders: 0, deleted: 0, failed: [] };
  for (let page = 1; ; page++) {
    const { items, total } = await deps.bundles.list(accountId, {}, { page, perPage: MAX_PER_PAGE });
    run.checked += items.length;
    const due = items.filter((b) => (retentionDueAt(b) ?? Number.POSITIVE_INFINITY) <= now.getTime());
    for (const b of due) await work(deps, b, now, run);
    if (items.length === 0 || page * MAX_PER_PAGE >= total) return run;
  }
}

async function work(
  deps: TDeps,
  ref: { accountId: string; id: string },
  now: Date,
  run: TDueWorkRun,
): Promise<void> {
  let last: TDueWork | undefined;
  try {
    // An ended bundle whose retention is due is first marked "deleting" in a write of its own,
    // conditional on the version that showed no legal hold; only then are its objects erased.
    const written: TBundle = await changeBundle(deps, ref.accountId, ref.id, (b) => {
      const marked = markDeletion(b, now);
      if (marked.retention?.deleting) {
        last = undefined;
        return marked;
      }
      last = applyDueWork(b, now);
      return last.next;
    });
    if (written.retention?.deleting) {
      await deleteMarked(deps, written, now);
      run.deleted += 1;
    }
  } catch (err) {
    run.failed.push({ ...ref, error: (err as Error).message });
    return;
  }
  // The outcome of the apply that was written (the last one, after any retries).
  if (last?.expired) run.expired += 1;
  run.reminders += last?.reminded.length ?? 0;
}
