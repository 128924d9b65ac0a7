import { ZImagePageSizeSchema } from '#shared/schemas/account';
import { parseInput } from '../parse-input';
import type { TAccountStore } from '../ports/accounts';
import type { TAccount } from './account';

/**
 * The paper the account's JPEG and PNG documents are put on when they become PDFs: `letter` (also
 * what an account without the setting gets) or `a4`. Set by the operator.
 */
export async function setImagePageSize(
  deps: { accounts: TAccountStore },
  accountId: string,
  input: unknown,
): Promise<TAccount> {
  const { size } = parseInput(ZImagePageSizeSchema, input);
  return deps.accounts.setImagePageSize(accountId, size === 'letter' ? undefined : size);
}
