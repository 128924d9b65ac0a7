import type { TBundle } from './bundle';

/**
 * Usage counts bundles sent, per calendar month (UTC); test bundles never count. Counted after
 * the send is written, so a crash in between loses one count rather than counting twice.
 */
export async function countUsage(
  deps: { accounts: { countSentBundle(accountId: string, month: string): Promise<void> } },
  b: TBundle,
): Promise<void> {
  if (b.isTest || !b.sent) return;
  await deps.accounts.countSentBundle(b.accountId, b.sent.slice(0, 7));
}
