// An account's own documents key made and destroyed as the operator's commands do it, for tests
// that race the destruction against requests: the destruction runs on a DynamoDB client of its own
// (`db`), as the command has one, so a test can hold or fail its requests apart from the service's.
import type { TRuntime } from '#infra/local/runtime';
import type { createDocumentClient, createKmsClient } from '#shared/adapters/aws/clients';
import { createAccountStore } from '#shared/adapters/dynamodb/account-store';
import { createBulkStore } from '#shared/adapters/dynamodb/bulk-store';
import { createBundleStore } from '#shared/adapters/dynamodb/bundle-store';
import { createDocumentsKeyAdmin, documentsName } from '#shared/adapters/kms/documents-keys';
import { randomIds, systemClock } from '#shared/adapters/system';
import {
  createAccountDocumentsKey,
  destroyAccountDocumentsKey,
} from '#shared/domain/bundles/account-documents-key';

type TDb = ReturnType<typeof createDocumentClient>;

/** What a destruction came to: destroyed (`repeated` when a destroyed key was asked again), or why not. */
export interface TDestroyed {
  destroyed: boolean;
  repeated: boolean;
  message: string;
}

/**
 * Gives `accountId` a documents key of its own, and answers its destruction (7 days' notice):
 * `wait` stands for the command's wait for requests under way.
 */
export async function anOwnDocumentsKey(
  runtime: TRuntime,
  db: TDb,
  kms: ReturnType<typeof createKmsClient>,
  accountId: string,
) {
  const table = runtime.config.tableName;
  const accounts = createAccountStore(db, table);
  const keys = createDocumentsKeyAdmin(kms, documentsName('local'), runtime.config.region);
  await createAccountDocumentsKey({ accounts, keys, clock: systemClock }, accountId);
  return (wait: (ms: number) => Promise<void>): Promise<TDestroyed> =>
    destroyAccountDocumentsKey(
      {
        accounts,
        bundles: createBundleStore(db, table),
        bulk: createBulkStore(db, table),
        keys,
        clock: systemClock,
        ids: randomIds,
        wait,
      },
      accountId,
      7,
    ).then(
      (r) => ({ destroyed: true, repeated: r.repeated, message: '' }),
      (err: Error) => ({ destroyed: false, repeated: false, message: err.message }),
    );
}
