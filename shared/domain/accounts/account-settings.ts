// The account's defaults as its users read them and its admins change them (GET and PATCH
// /account/): signers' language, where signers go after signing, the paper of image documents,
// and the reminders new bundles start with. The operator's set-* commands change the same fields.
import { ZAccountSettingsPatchSchema } from '#shared/schemas/account-settings';
import { NotFoundError } from '../errors';
import { parseInput } from '../parse-input';
import type { TAccountDefaults, TAccountSettingsStore } from '../ports/account-settings';
import type { TAccountStore } from '../ports/accounts';
import type { TAccount } from './account';
import { callerUser, requireAdmin, type TCaller } from './caller';

export interface TAccountSettingsDeps {
  accounts: TAccountStore;
  settings: TAccountSettingsStore;
}

/** The account and whether the caller may change it. */
export interface TAccountSettings {
  account: TAccount;
  canChange: boolean;
}

export async function getAccountSettings(
  deps: Pick<TAccountSettingsDeps, 'accounts'>,
  caller: TCaller,
): Promise<TAccountSettings> {
  const user = await callerUser(deps, caller);
  const account = await deps.accounts.getAccount(caller.accountId);
  if (!account) throw new NotFoundError('Account not found.');
  return { account, canChange: user.isAdmin };
}

/** Changes what the body names (`null` removes a setting) in one write; admins only. */
export async function changeAccountSettings(
  deps: TAccountSettingsDeps,
  caller: TCaller,
  input: unknown,
): Promise<TAccountSettings> {
  const patch = parseInput(ZAccountSettingsPatchSchema, input);
  await requireAdmin(deps, caller, "change the account's settings");
  const account = await deps.accounts.getAccount(caller.accountId);
  if (!account) throw new NotFoundError('Account not found.');
  const change: Partial<TAccountDefaults> = {};
  if (patch.language !== undefined) change.language = patch.language ?? undefined;
  if (patch.signing_redirect_url !== undefined)
    change.signingRedirectUrl = patch.signing_redirect_url ?? undefined;
  if (patch.image_page_size !== undefined) change.imagePageSize = patch.image_page_size ?? undefined;
  if (patch.reminders !== undefined) {
    const r = patch.reminders;
    change.reminders = r
      ? {
          sendReminders: r.send_reminders,
          ...(r.reminder_offset !== undefined ? { reminderOffset: r.reminder_offset } : {}),
          ...(r.reminder_interval !== undefined ? { reminderInterval: r.reminder_interval } : {}),
          ...(r.reminder_expires !== undefined ? { reminderExpires: r.reminder_expires } : {}),
        }
      : undefined;
  }
  if (Object.keys(change).length === 0) return { account, canChange: true };
  return {
    account: await deps.settings.changeDefaults(account.id, account.version, change),
    canChange: true,
  };
}
