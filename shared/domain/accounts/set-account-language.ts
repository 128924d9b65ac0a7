import { ZAccountLanguageSchema } from '#shared/schemas/account';
import { parseInput } from '../parse-input';
import type { TAccountStore } from '../ports/accounts';
import type { TAccount } from './account';

/**
 * The language the account's signers read when neither packet nor bundle names one (before
 * their browser's); "" removes it. Set by the operator. Read when a page or message is made, so
 * it applies to bundles already sent too.
 */
export async function setAccountLanguage(
  deps: { accounts: TAccountStore },
  accountId: string,
  input: unknown,
): Promise<TAccount> {
  // "" is checked apart: in a union with the tag, a bad tag would lose its own message.
  if ((input as { language?: unknown } | undefined)?.language === '')
    return deps.accounts.setLanguage(accountId, undefined);
  const { language } = parseInput(ZAccountLanguageSchema, input);
  return deps.accounts.setLanguage(accountId, language);
}
