// The account's defaults as its admins change them: one write for every setting of a change.
import type { TAccount } from '../accounts/account';

/** The settings an admin changes, as the account keeps them. */
export type TAccountDefaults = Pick<
  TAccount,
  'language' | 'signingRedirectUrl' | 'imagePageSize' | 'reminders' | 'retention'
>;

export interface TAccountSettingsStore {
  /**
   * Sets the settings given with a value and removes those given as undefined, in one update of
   * the account conditional on its version (else ConcurrentUpdateError); NotFoundError when gone.
   */
  changeDefaults(accountId: string, version: number, change: Partial<TAccountDefaults>): Promise<TAccount>;
}
