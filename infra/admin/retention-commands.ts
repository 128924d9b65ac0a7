// The operator's retention commands: an account's policy, and a bundle's legal hold. The same
// use cases as the API (shared/domain/accounts/retention-policy.ts, bundles/legal-hold.ts), with
// the operator as the actor of the audit events.
import { setRetentionPolicy } from '#shared/domain/accounts/retention-policy';
import { OPERATOR } from '#shared/domain/bundles/actor';
import { changeLegalHold } from '#shared/domain/bundles/legal-hold';
import { toBundleRetentionResponse, toRetentionPolicyResponse } from '#shared/responses/retention';
import type { TBundleRetentionResponse, TRetentionPolicyResponse } from '#shared/schemas/responses/retention';
import type { TAdminDeps } from './commands';

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
