import { ZPayoutSchema } from '#shared/schemas/account';
import { parseInput } from '../parse-input';
import type { TAccountStore } from '../ports/accounts';
import type { TAccount } from './account';

/**
 * The account's payout settings: the payment processor's connected account that receives what
 * signers pay, and the currency of every bundle payment. Without them, bundles with a `payment`
 * are refused. Set by the operator.
 */
export async function setPayout(
  deps: { accounts: TAccountStore },
  accountId: string,
  input: unknown,
): Promise<TAccount> {
  const { connected_account, currency } = parseInput(ZPayoutSchema, input);
  return deps.accounts.setPayout(accountId, { connectedAccountId: connected_account, currency });
}

/**
 * Removes the account's payout settings: from then on bundles with a `payment` are refused, as
 * for an account that never had them. Bundles created before keep their payment (its currency
 * was copied onto the bundle), but their signers cannot start paying until payout is set again.
 */
export function clearPayout(deps: { accounts: TAccountStore }, accountId: string): Promise<TAccount> {
  return deps.accounts.setPayout(accountId, undefined);
}
