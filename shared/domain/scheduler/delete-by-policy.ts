import { SCHEDULER } from '../bundles/actor';
import type { TBundle } from '../bundles/bundle';
import { changeBundle } from '../bundles/change-bundle';
import { finishDeletion, retentionPrefixes } from '../bundles/retention';
import type { TBundleStore } from '../ports/bundles';
import type { TBlobEraser } from '../ports/files';

/**
 * The second half of a deletion by policy, on a bundle whose write marked it "deleting" (that
 * write checked the legal hold: bundles/retention.ts `markDeletion`): every version of every
 * object of the marked parts is erased, then the parts are recorded deleted with the `dl` audit
 * event. The bundle, its events, its audit chain and the files record with every SHA-256 stay.
 * Erasing is idempotent, so a run that stops half-way leaves the mark, the bundle stays due,
 * and the next run erases what is left and records it once.
 */
export async function deleteMarked(
  deps: { bundles: TBundleStore; eraser: TBlobEraser },
  marked: TBundle,
  now: Date,
): Promise<{ erased: number; bundle: TBundle }> {
  const parts = marked.retention?.deleting?.parts ?? [];
  let erased = 0;
  for (const prefix of parts.flatMap((p) => retentionPrefixes(marked, p))) {
    erased += await deps.eraser.eraseAll(prefix);
  }
  const bundle = await changeBundle(deps, marked.accountId, marked.id, (b) =>
    finishDeletion(b, now, SCHEDULER),
  );
  return { erased, bundle };
}
