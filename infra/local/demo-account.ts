// The demo account every local start has, with its API key printed in the banner.
import { readFileSync, writeFileSync } from 'node:fs';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createAccountStore } from '#shared/adapters/dynamodb/account-store';
import { dataPaths } from './layout';
import { seedAccount, type TSeededAccount } from './seed-account';

/** The demo account's user: signs in to the console with a link sent to the local mailbox. */
export const DEMO_EMAIL = 'demo@example.com';

/** The demo account survives restarts: its key is kept in the data folder, in plain text, locally only. */
export async function demoAccount(db: DynamoDBDocumentClient, table: string, dir: string, persist: boolean) {
  const file = dataPaths(dir).demoAccount;
  if (persist) {
    try {
      const saved = JSON.parse(readFileSync(file, 'utf8')) as TSeededAccount;
      const accounts = createAccountStore(db, table);
      if (await accounts.getAccount(saved.accountId)) {
        // A data folder from before the console's sign-in: its demo user must be found by address.
        await accounts.indexUserEmails(saved.accountId);
        return saved;
      }
    } catch {
      // no saved demo account yet
    }
  }
  const seeded = await seedAccount(db, table, { name: 'Demo Account', email: DEMO_EMAIL });
  if (persist) writeFileSync(file, `${JSON.stringify(seeded, null, 2)}\n`, { mode: 0o600 });
  return seeded;
}
