import { ZEmbedOriginsSchema } from '#shared/schemas/account';
import { parseInput } from '../parse-input';
import type { TAccountStore } from '../ports/accounts';
import type { TAccount } from './account';

/**
 * The origins whose pages may frame the account's embedded signing sessions (the signing page's
 * CSP `frame-ancestors`); the operator sets them (there is no public API for it). An empty list
 * forbids framing again.
 */
export async function setEmbedOrigins(
  deps: { accounts: TAccountStore },
  accountId: string,
  input: unknown,
): Promise<TAccount> {
  const { origins } = parseInput(ZEmbedOriginsSchema, input);
  return deps.accounts.setEmbedOrigins(accountId, [...new Set(origins)]);
}
