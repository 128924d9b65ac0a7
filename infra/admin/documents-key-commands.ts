// The operator's documents-key commands: a KMS key of an account's own for its documents, and
// its destruction (crypto-shredding) once retention allows it. The use cases are
// shared/domain/bundles/account-documents-key.ts; this file turns their result into a view.
import {
  createAccountDocumentsKey,
  destroyAccountDocumentsKey,
} from '#shared/domain/bundles/account-documents-key';
import { ValidationError } from '#shared/domain/errors';
import type { TAdminDeps } from './commands';

export interface TDocumentsKeyView {
  accountId: string;
  keyArn: string;
  created: string;
  destroyed: string | null;
  /** When KMS deletes the key for good. */
  deletionDate: string | null;
}

async function keysOf(deps: TAdminDeps) {
  if (!deps.documentsKeys) throw new Error('Documents keys are not available on this target.');
  return deps.documentsKeys();
}

function viewOf(
  accountId: string,
  key: NonNullable<Awaited<ReturnType<TAdminDeps['accounts']['getAccount']>>>['documentsKey'],
): TDocumentsKeyView {
  return {
    accountId,
    keyArn: key!.keyArn,
    created: key!.created,
    destroyed: key!.destroyed ?? null,
    deletionDate: key!.deletionDate ?? null,
  };
}

export async function createDocumentsKeyCommand(
  deps: TAdminDeps,
  accountId: string,
): Promise<{ key: TDocumentsKeyView; created: boolean }> {
  const { account, created } = await createAccountDocumentsKey(
    { accounts: deps.accounts, keys: await keysOf(deps), clock: deps.clock },
    accountId,
  );
  return { key: viewOf(accountId, account.documentsKey), created };
}

/** The wait after the mark, said on stderr: the command is silent for minutes otherwise. */
const sleep = (accountId: string) => (ms: number) => {
  process.stderr.write(
    `Account ${accountId} is marked "destroying": waiting ${Math.ceil(ms / 1000)} s for requests under way to end before its bundles are checked.\n`,
  );
  return new Promise<void>((resolve) => setTimeout(resolve, ms));
};

export async function destroyDocumentsKeyCommand(
  deps: TAdminDeps,
  accountId: string,
  days: number | undefined,
  waitSeconds: number | undefined,
): Promise<{ key: TDocumentsKeyView; repeated: boolean }> {
  if (!deps.bundles || !deps.bulk) throw new Error('Bundles are not available on this target.');
  if (waitSeconds !== undefined && !(Number.isInteger(waitSeconds) && waitSeconds >= 0)) {
    const message = 'The wait is a whole number of seconds, 0 or more.';
    throw new ValidationError(message, [{ field: 'wait-seconds', message }]);
  }
  const { account, deletionDate, repeated } = await destroyAccountDocumentsKey(
    {
      accounts: deps.accounts,
      bundles: deps.bundles,
      bulk: deps.bulk,
      keys: await keysOf(deps),
      clock: deps.clock,
      ids: deps.ids,
      wait: sleep(accountId),
    },
    accountId,
    days,
    waitSeconds,
  );
  // KMS's own date, which the record's may precede by the moments between the two writes.
  return { key: { ...viewOf(accountId, account.documentsKey), deletionDate }, repeated };
}
