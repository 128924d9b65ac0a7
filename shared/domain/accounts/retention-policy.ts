// The account's retention policy (GET and PUT /account/retention/, and the operator's
// `set-retention`): how many days after a bundle ends each part of its documents is kept. A new
// bundle carries the policy in force when it is made (bundles/retention.ts), so changing it
// never shortens what was promised for bundles already under way.
import { ZRetentionPolicySchema } from '#shared/schemas/retention';
import { NotFoundError } from '../errors';
import { parseInput } from '../parse-input';
import type { TAccountSettingsStore } from '../ports/account-settings';
import type { TAccountStore } from '../ports/accounts';
import type { TRetentionDays } from './account';
import { callerUser, requireAdmin, type TCaller } from './caller';

export async function getRetentionPolicy(
  deps: { accounts: TAccountStore },
  caller: TCaller,
): Promise<TRetentionDays | undefined> {
  await callerUser(deps, caller);
  const account = await deps.accounts.getAccount(caller.accountId);
  if (!account) throw new NotFoundError('Account not found.');
  return account.retention;
}

/** The policy in the body, replacing the whole of the old one; admins only (`caller`) or the operator. */
export async function setRetentionPolicy(
  deps: { accounts: TAccountStore; settings: TAccountSettingsStore },
  accountId: string,
  input: unknown,
  caller?: TCaller,
): Promise<TRetentionDays | undefined> {
  const body = parseInput(ZRetentionPolicySchema, input);
  if (caller) await requireAdmin(deps, caller, "change the account's retention policy");
  const account = await deps.accounts.getAccount(accountId);
  if (!account) throw new NotFoundError('Account not found.');
  const policy: TRetentionDays = {
    ...(typeof body.originals_days === 'number' ? { originals: body.originals_days } : {}),
    ...(typeof body.finals_days === 'number' ? { finals: body.finals_days } : {}),
    ...(typeof body.images_days === 'number' ? { images: body.images_days } : {}),
  };
  const retention = Object.keys(policy).length > 0 ? policy : undefined;
  const changed = await deps.settings.changeDefaults(account.id, account.version, { retention });
  return changed.retention;
}
