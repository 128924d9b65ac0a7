import { SCHEDULER } from '../bundles/actor';
import type { TBundle } from '../bundles/bundle';
import { changeBundle } from '../bundles/change-bundle';
import { finishDeletion, retentionPrefixes } from '../bundles/retention';
import type { TBundleStore } from '../ports/bundles';
import type { TBlobEraser } from '../ports/files';

/**
 * What else a bundle's originals being erased may let go: documents it shares with other
 * bundles (a bulk batch's, bulk/erase-batch-documents.ts), which the composition root wires in.
 */
export type TSharedOriginals = (bundle: TBundle, now: Date) => Promise<unknown>;

/**
 * The second half of a deletion by policy, on a bundle whose write marked it "deleting" (that
 * write checked the legal hold: bundles/retention.ts `markDeletion`): every version of every
 * object of the marked parts is erased, then the parts are recorded deleted with the `dl` audit
 * event. The bundle, its events, its audit chain and the files record with every SHA-256 stay.
 * Erasing is idempotent, so a run that stops half-way leaves the mark, the bundle stays due,
 * and the next run erases what is left and records it once. Documents the bundle shares are
 * seen to between the two (`sharedOriginals`), so that a failure there leaves the mark too.
 */
export async function deleteMarked(
  deps: { bundles: TBundleStore; eraser: TBlobEraser; sharedOriginals?: TSharedOriginals },
  marked: TBundle,
  now: Date,
): Promise<{ erased: number; bundle: TBundle }> {
  const parts = marked.retention?.deleting?.parts ?? [];
  let erased = 0;
  for (const prefix of parts.flatMap((p) => retentionPrefixes(marked, p))) {
    erased += await deps.eraser.eraseAll(prefix);
  }
  if (parts.includes('originals')) await deps.sharedOriginals?.(marked, now);
  const bundle = await changeBundle(deps, marked.accountId, marked.id, (b) =>
    finishDeletion(b, now, SCHEDULER),
  );
  return { erased, bundle };
}
