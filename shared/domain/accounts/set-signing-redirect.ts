import { ZSigningRedirectSchema } from '#shared/schemas/account';
import { parseInput } from '../parse-input';
import type { TAccountStore } from '../ports/accounts';
import type { TAccount } from './account';

/**
 * The account's default page for signers who finish, after the packet's
 * signing_complete_redirect and the signing brand's redirect; "" removes it (signers then see
 * the service's done page). Set by the operator.
 */
export async function setSigningRedirect(
  deps: { accounts: TAccountStore },
  accountId: string,
  input: unknown,
): Promise<TAccount> {
  const { url } = parseInput(ZSigningRedirectSchema, input);
  return deps.accounts.setSigningRedirect(accountId, url === '' ? undefined : url);
}
