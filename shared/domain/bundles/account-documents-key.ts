// A key of the account's own for its documents, and its destruction (crypto-shredding): the
// operator's `account-key create` and `account-key destroy`. Here, beside retention, because a key
// may only be destroyed once no bundle of the account still has documents its retention keeps
// (or a legal hold): destroying the key makes every document written under it unreadable.
import type { TAccount, TAccountDocumentsKey } from '../accounts/account';
import { ConflictError, NotFoundError, ValidationError } from '../errors';
import type { TAccountStore, TDocumentsKeyAdmin } from '../ports/accounts';
import type { TBulkStore } from '../ports/bulk';
import type { TBundleStore } from '../ports/bundles';
import type { TClock, TIds } from '../ports/system';
import type { TBundle } from './bundle';
import { documentsKeptUntil } from './retention';

const DAY_MS = 86_400_000;
/** KMS's shortest and longest waiting period before a key scheduled for deletion goes. */
export const KEY_DELETION_DAYS = { min: 7, max: 30 } as const;

/**
 * How long a destruction waits after marking the account "destroying" before it reads the
 * bundles: longer than any function of the stack may run (the document worker's 270 s; the
 * template test in test/infra/template-functions.test.ts holds every function's timeout at least
 * KEY_DESTRUCTION_MARGIN_SECONDS below it). A request that read the account before the mark has
 * then written its bundle, and the check sees it; one that reads it after refuses to store
 * anything (newDocumentsRefusal). The margin covers the moments between a Lambda's timeout and
 * its last write landing, and the clocks of two machines when a run carries on another's mark.
 */
export const KEY_DESTRUCTION_WAIT_SECONDS = 300;
export const KEY_DESTRUCTION_MARGIN_SECONDS = 30;

async function accountOf(accounts: TAccountStore, accountId: string): Promise<TAccount> {
  // Consistent: a key made or destroyed a moment ago is seen.
  const account = await accounts.getAccount(accountId, { consistent: true });
  if (!account) throw new NotFoundError(`There is no account ${accountId}.`);
  return account;
}

/**
 * Makes the account a key of its own; documents written from then on go under it, older ones
 * stay under the stack's key (S3 reads each under the key it was written with). Asked again, the
 * key it has. Two at once: one key is recorded, the other request's key is scheduled for deletion
 * unused and it answers 409.
 */
export async function createAccountDocumentsKey(
  deps: { accounts: TAccountStore; keys: TDocumentsKeyAdmin; clock: TClock },
  accountId: string,
): Promise<{ account: TAccount; created: boolean }> {
  const account = await accountOf(deps.accounts, accountId);
  const own = account.documentsKey;
  if (own?.destroyed) {
    throw new ConflictError(
      `Account ${accountId}'s own key was destroyed on ${own.destroyed.slice(0, 10)}: its documents cannot be read again, and a new key would not bring them back.`,
    );
  }
  if (own) return { account, created: false };
  const { keyArn } = await deps.keys.create(accountId);
  try {
    const key: TAccountDocumentsKey = { keyArn, created: deps.clock.now().toISOString() };
    return { account: await deps.accounts.setDocumentsKey(accountId, key, undefined), created: true };
  } catch (err) {
    // Nothing was written under the key that lost: it goes after KMS's shortest wait.
    if (err instanceof ConflictError) await deps.keys.scheduleDeletion(keyArn, KEY_DELETION_DAYS.min);
    throw err;
  }
}

/** Why a bundle's documents must stay readable at `now`, or undefined when none need to. */
export function keyDestructionBlocker(b: TBundle, now: Date): string | undefined {
  if (b.retention?.hold) {
    return `Bundle ${b.id} is under legal hold since ${b.retention.hold.at.slice(0, 10)}: release the hold (release-legal-hold) first.`;
  }
  const until = documentsKeptUntil(b);
  if (until === null) {
    return `Bundle ${b.id} (${b.status}) keeps its documents with no end date: it has not ended, or the retention policy it was made under keeps a part of its documents for ever. Cancel it, or delete the account's data otherwise, first.`;
  }
  if (Date.parse(until) > now.getTime()) {
    return `Bundle ${b.id} keeps its documents until ${until.slice(0, 10)} by its retention policy: destroy the key after that date.`;
  }
  return undefined;
}

/**
 * Schedules the deletion of the account's own key in `days` (7 to 30), refused while any of its
 * bundles is within retention or under a legal hold. Three conditional writes of the account's
 * key make it certain that no hold and no new bundle is missed: first the account is marked
 * "destroying"; then, once `waitSeconds` have passed since the mark (by then every request that
 * read the account before it has ended, and every one since refuses new documents and bundles),
 * its bundles are read consistently (a hold written before the mark is seen; a hold written after
 * it reads the mark and answers 409: legal-hold.ts); then the key is marked destroyed, on
 * condition that this very mark is still there, or, if a bundle blocks it, the mark is taken
 * back. Only then is KMS asked. A run that stopped half-way is finished by running it again: a
 * run that finds a mark carries it on (checks the bundles again, then finishes or takes it
 * back), and a repeat of a finished run asks KMS again. Of two runs at once, the one that loses
 * a write reports what the other did.
 */
export async function destroyAccountDocumentsKey(
  deps: {
    accounts: TAccountStore;
    bundles: TBundleStore;
    /** Bulk batches: one still making its bundles reads its request and documents under the key. */
    bulk: Pick<TBulkStore, 'unfinishedOfAccount'>;
    keys: TDocumentsKeyAdmin;
    clock: TClock;
    ids: TIds;
    /** Sleeps `ms`; tests pass one that does not. */
    wait: (ms: number) => Promise<void>;
  },
  accountId: string,
  days: number = KEY_DELETION_DAYS.max,
  waitSeconds: number = KEY_DESTRUCTION_WAIT_SECONDS,
): Promise<{ account: TAccount; deletionDate: string; repeated: boolean }> {
  if (!Number.isInteger(days) || days < KEY_DELETION_DAYS.min || days > KEY_DELETION_DAYS.max) {
    const message = `The waiting period is ${KEY_DELETION_DAYS.min} to ${KEY_DELETION_DAYS.max} days (KMS's own limits).`;
    throw new ValidationError(message, [{ field: 'days', message }]);
  }
  let account = await accountOf(deps.accounts, accountId);
  const own = account.documentsKey;
  if (!own) {
    throw new ConflictError(
      `Account ${accountId} has no key of its own: its documents are under the stack's documents key, which every such account shares. Run account-key create first; documents written after it can then be destroyed with it.`,
    );
  }
  let repeated = Boolean(own.destroyed);
  if (!own.destroyed) {
    try {
      account = await markDestroyed(deps, accountId, own, days, waitSeconds);
    } catch (err) {
      if (!(err instanceof KeyChangedMeanwhile)) throw err;
      // Another run finished first: this one reports what it did.
      account = err.account;
      repeated = true;
    }
  }
  const { deletionDate } = await deps.keys.scheduleDeletion(own.keyArn, days);
  return { account, deletionDate, repeated };
}

/** A write of the key lost to another run, which destroyed it: the account as it now is. */
class KeyChangedMeanwhile extends Error {
  constructor(readonly account: TAccount) {
    super('The key was destroyed by another run.');
  }
}

/** The "destroying" mark, the consistent check of the bundles, then destroyed or taken back. */
async function markDestroyed(
  deps: {
    accounts: TAccountStore;
    bundles: TBundleStore;
    bulk: Pick<TBulkStore, 'unfinishedOfAccount'>;
    clock: TClock;
    ids: TIds;
    wait: (ms: number) => Promise<void>;
  },
  accountId: string,
  own: TAccountDocumentsKey,
  days: number,
  waitSeconds: number,
): Promise<TAccount> {
  const write = (key: TAccountDocumentsKey, previous: TAccountDocumentsKey) =>
    deps.accounts.setDocumentsKey(accountId, key, previous).catch(async (err: unknown) => {
      if (!(err instanceof ConflictError)) throw err;
      const now = await deps.accounts.getAccount(accountId, { consistent: true });
      if (now?.documentsKey?.destroyed) throw new KeyChangedMeanwhile(now);
      throw new ConflictError(
        `Another run of account-key-destroy changed account ${accountId}'s key at the same moment: run the command again to finish it or to see why it was refused.`,
      );
    });
  // A mark left by a run that stopped is carried on: the bundles are checked after it all the same.
  const mark = own.destroying ?? { started: deps.clock.now().toISOString(), run: deps.ids.uuid() };
  const marked: TAccountDocumentsKey = own.destroying ? own : { ...own, destroying: mark };
  if (marked !== own) await write(marked, own);
  // Counted from the mark's own time, so a run carrying on a mark waits only what is left.
  const left = Date.parse(mark.started) + waitSeconds * 1000 - deps.clock.now().getTime();
  if (left > 0) await deps.wait(left);
  const { destroying: _mark, ...unmarked } = marked;
  const now = deps.clock.now();
  const blockers = await blockersOf(deps, accountId, now);
  if (blockers.length > 0) {
    await write(unmarked, marked).catch((err: unknown) => {
      // Another run carrying the same mark took it back first: refused all the same.
      if (err instanceof KeyChangedMeanwhile) throw err;
    });
    const more = blockers.length > 1 ? ` (and ${blockers.length - 1} more bundle(s))` : '';
    throw new ConflictError(`The key cannot be destroyed yet. ${blockers[0]}${more}`);
  }
  return write(
    {
      ...unmarked,
      destroyed: now.toISOString(),
      deletionDate: new Date(now.getTime() + days * DAY_MS).toISOString(),
    },
    marked,
  );
}

/**
 * Every bundle of the account whose documents must stay readable, and every bulk batch still
 * making bundles (its request and shared documents are under the key), each as its reason.
 */
async function blockersOf(
  deps: { bundles: TBundleStore; bulk: Pick<TBulkStore, 'unfinishedOfAccount'> },
  accountId: string,
  now: Date,
): Promise<string[]> {
  const found: string[] = [];
  for (const b of await deps.bundles.allOfAccount(accountId)) {
    const reason = keyDestructionBlocker(b, now);
    if (reason) found.push(reason);
  }
  for (const batch of await deps.bulk.unfinishedOfAccount(accountId)) {
    found.push(
      `Bulk batch ${batch.id} is still making its bundles: destroy the key once GET /api/v2/bundles/bulk/${batch.id}/ shows it completed.`,
    );
  }
  return found;
}
