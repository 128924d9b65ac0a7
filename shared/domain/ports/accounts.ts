// Accounts, their API keys, and the request allowances counted for them.

import type { TImagePageSize } from '#shared/pdf/image-kind';
import type { TFeatureName } from '#shared/schemas/vocabulary';
import type {
  TAccount,
  TAccountDocumentsKey,
  TApiKey,
  TBrand,
  TPayout,
  TTeam,
  TUser,
} from '../accounts/account';

export interface TAccountStore {
  createAccount(account: TAccount): Promise<void>;
  /** `consistent`: a strongly consistent read, which sees every write that finished before it. */
  getAccount(id: string, options?: { consistent?: boolean }): Promise<TAccount | undefined>;
  listAccounts(): Promise<TAccount[]>;
  setFeatures(id: string, features: Partial<Record<TFeatureName, boolean>>): Promise<TAccount>;
  /**
   * Records the account's own documents key in one conditional write: `previous` undefined when
   * the account has none yet, else the key as read, which must not be destroyed and must carry
   * the same `destroying` mark (or none). ConflictError when another request changed it first;
   * NotFoundError when there is no such account.
   */
  setDocumentsKey(
    id: string,
    key: TAccountDocumentsKey,
    previous: TAccountDocumentsKey | undefined,
  ): Promise<TAccount>;
  /** Replaces the origins allowed to frame embedded signing; an empty list removes them. */
  setEmbedOrigins(id: string, origins: string[]): Promise<TAccount>;
  /** The paper image documents are put on; undefined: Letter. */
  setImagePageSize(id: string, size: TImagePageSize | undefined): Promise<TAccount>;
  /** undefined removes it. */
  setSigningRedirect(id: string, url: string | undefined): Promise<TAccount>;
  /** The default language of its signers; undefined removes it. */
  setLanguage(id: string, language: string | undefined): Promise<TAccount>;
  /** undefined removes them. */
  setPayout(id: string, payout: TPayout | undefined): Promise<TAccount>;
  addUser(user: TUser): Promise<void>;
  /**
   * Writes the lookup by address (the console's sign-in) of every user of the account stored
   * before users had one; those that have one are left as they are.
   */
  indexUserEmails(accountId: string): Promise<void>;
  getUser(accountId: string, userId: string): Promise<TUser | undefined>;
  listUsers(accountId: string): Promise<TUser[]>;
  /** Replaces the user's teams (an empty list: none). */
  setUserTeams(accountId: string, userId: string, teams: string[]): Promise<TUser>;
  addTeam(team: TTeam): Promise<void>;
  listTeams(accountId: string): Promise<TTeam[]>;
  addBrand(brand: TBrand): Promise<void>;
  listBrands(accountId: string): Promise<TBrand[]>;
  /** Counts a sent bundle toward the account's usage in `month` (YYYY-MM). */
  countSentBundle(accountId: string, month: string): Promise<void>;
  sentBundles(accountId: string, month: string): Promise<number>;
}

export interface TApiKeyStore {
  create(key: TApiKey): Promise<void>;
  findByHash(hash: string): Promise<TApiKey | undefined>;
  listForAccount(accountId: string): Promise<TApiKey[]>;
  revoke(accountId: string, keyId: string, at: Date): Promise<TApiKey>;
}

/** The caller's request allowance, as API Gateway's usage plan (or the local runtime) counts it. */
export interface TUsage {
  limit: number;
  remaining: number;
  /** Seconds until the quota period starts over. */
  reset: number;
  /** Length of the quota period in seconds. */
  window: number;
}

export interface TUsageReader {
  usageFor(usageKeyId: string): Promise<TUsage>;
}

/** Counters of the portal's abuse limits: one item per counter and window, bumped conditionally. */
export interface TPortalCounterStore {
  /** Counts one more under `counter` unless it reached `limit`; false when it had. */
  take(counter: string, limit: number, expiresAt: Date): Promise<boolean>;
}

/** KMS as the operator's documents-key commands use it (documents-key.ts). */
export interface TDocumentsKeyAdmin {
  /** Makes a key that serves this account's documents only; its ARN. */
  create(accountId: string): Promise<{ keyArn: string }>;
  /** Schedules the key's deletion in `days` (7 to 30); when KMS deletes it (ISO). Asked again, the same date. */
  scheduleDeletion(keyArn: string, days: number): Promise<{ deletionDate: string }>;
}
