// The operator's retention commands: an account's policy, a bundle's legal hold, and the due
// deletions run at once. The same use cases as the API (shared/domain/accounts/retention-policy.ts,
// bundles/legal-hold.ts) and the scheduler (scheduler/run-due-work.ts), with the operator as the
// actor of the hold's audit events (a deletion's is the policy's: `scheduler`, whoever starts it).

import { retentionDeps } from '#shared/composition/retention';
import { setRetentionPolicy } from '#shared/domain/accounts/retention-policy';
import { OPERATOR } from '#shared/domain/bundles/actor';
import { changeLegalHold } from '#shared/domain/bundles/legal-hold';
import { runDueRetention, type TDueWorkRun } from '#shared/domain/scheduler/run-due-work';
import { toBundleRetentionResponse, toRetentionPolicyResponse } from '#shared/responses/retention';
import type { TBundleRetentionResponse, TRetentionPolicyResponse } from '#shared/schemas/responses/retention';
import { requireAccount, type TAdminDeps } from './commands';

/** Days as typed on the command line: a whole number, or absent (the part is kept). */
const daysOf = (v: string | undefined) => (v === undefined ? undefined : Number(v));

export async function setRetentionCommand(
  deps: TAdminDeps,
  accountId: string,
  days: { originals?: string; finals?: string; images?: string },
): Promise<TRetentionPolicyResponse> {
  if (!deps.settings) throw new Error('Account settings are not available on this target.');
  const policy = await setRetentionPolicy({ accounts: deps.accounts, settings: deps.settings }, accountId, {
    originals_days: daysOf(days.originals),
    finals_days: daysOf(days.finals),
    images_days: daysOf(days.images),
  });
  return toRetentionPolicyResponse(policy);
}

/** Sets (`hold`) or releases a bundle's legal hold, acting as the operator. */
export async function legalHoldCommand(
  deps: TAdminDeps,
  accountId: string,
  bundleId: string,
  hold: boolean,
): Promise<TBundleRetentionResponse> {
  if (!deps.bundles) throw new Error('Bundles are not available on this target.');
  const bundle = await changeLegalHold(
    { bundles: deps.bundles, accounts: deps.accounts, clock: deps.clock },
    { accountId, by: OPERATOR },
    bundleId,
    hold,
  );
  return toBundleRetentionResponse(bundle);
}

/**
 * Runs the account's due deletions now, as the scheduler's next run would (an operator need not
 * wait for it): every part of every ended bundle its policy has made due, and the shared
 * documents of bulk batches whose last bundle that was. Nothing under a legal hold.
 */
export async function runRetentionCommand(
  deps: TAdminDeps,
  accountId: string,
): Promise<Pick<TDueWorkRun, 'checked' | 'deleted' | 'failed'> & { batchesErased: string[] }> {
  if (!deps.bundles || !deps.bulk || !deps.eraser)
    throw new Error('Documents are not available on this target.');
  await requireAccount(deps, accountId);
  const batchesErased: string[] = [];
  const stores = { bundles: deps.bundles, bulk: deps.bulk, eraser: await deps.eraser() };
  const run = await runDueRetention(
    retentionDeps(stores, (b) => batchesErased.push(b.batchId)),
    accountId,
    deps.clock.now(),
  );
  return { checked: run.checked, deleted: run.deleted, failed: run.failed, batchesErased };
}
