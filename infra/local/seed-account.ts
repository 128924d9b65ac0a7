import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createAccountStore } from '#shared/adapters/dynamodb/account-store';
import { createApiKeyStore } from '#shared/adapters/dynamodb/api-key-store';
import { createPersonStore } from '#shared/adapters/dynamodb/person-store';
import { randomIds, systemClock } from '#shared/adapters/system';
import { addUser } from '#shared/domain/accounts/add-user';
import { createAccount } from '#shared/domain/accounts/create-account';
import { issueApiKey } from '#shared/domain/accounts/issue-api-key';

export interface TSeededAccount {
  accountId: string;
  userId: string;
  apiKey: string;
}

/** An account with one admin user and one API key: the demo account, and test fixtures. */
export async function seedAccount(
  db: DynamoDBDocumentClient,
  table: string,
  input: { name: string; email: string; apiKey?: string },
): Promise<TSeededAccount> {
  const deps = {
    accounts: createAccountStore(db, table),
    persons: createPersonStore(db, table),
    keys: createApiKeyStore(db, table),
    clock: systemClock,
    ids: randomIds,
  };
  const account = await createAccount(deps, { name: input.name, requesterEmail: input.email });
  const user = await addUser(deps, account.id, {
    name: `${input.name} Admin`,
    email: input.email,
    isAdmin: true,
  });
  const { secret } = await issueApiKey(deps, account.id, user.id, input.apiKey);
  return { accountId: account.id, userId: user.id, apiKey: secret };
}
