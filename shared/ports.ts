// The interfaces the domain needs. Use cases take these as arguments; only composition roots
// (functions/*, infra/local, infra/admin) build the real adapters behind them.
import type { TAccount, TApiKey, TBrand, TFeatureName, TTeam, TUser } from './domain/accounts/account';
import type { TPerson, TPersonFilter } from './domain/persons/person';
import type { TPage } from './http/pagination';

export interface TClock {
  now(): Date;
}

export interface TIds {
  uuid(): string;
}

export interface TPageOf<T> {
  items: T[];
  total: number;
}

export interface TPersonStore {
  get(accountId: string, id: string): Promise<TPerson | undefined>;
  /** `previous` undefined: create (fails if the id exists); else replace if its version still holds. */
  save(person: TPerson, previous: TPerson | undefined): Promise<void>;
  delete(person: TPerson): Promise<void>;
  list(accountId: string, filter: TPersonFilter, page: TPage): Promise<TPageOf<TPerson>>;
}

export interface TAccountStore {
  createAccount(account: TAccount): Promise<void>;
  getAccount(id: string): Promise<TAccount | undefined>;
  listAccounts(): Promise<TAccount[]>;
  setFeatures(id: string, features: Partial<Record<TFeatureName, boolean>>): Promise<TAccount>;
  addUser(user: TUser): Promise<void>;
  getUser(accountId: string, userId: string): Promise<TUser | undefined>;
  listUsers(accountId: string): Promise<TUser[]>;
  addTeam(team: TTeam): Promise<void>;
  listTeams(accountId: string): Promise<TTeam[]>;
  addBrand(brand: TBrand): Promise<void>;
  listBrands(accountId: string): Promise<TBrand[]>;
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

export interface TEmailMessage {
  from: string;
  to: string[];
  cc?: string[];
  replyTo?: string[];
  subject: string;
  text: string;
  html?: string;
}

export interface TMailer {
  /** Returns the provider's message id. */
  send(message: TEmailMessage): Promise<string>;
}

export interface TSmsSender {
  /** Returns the provider's message id. */
  send(phoneNumber: string, text: string): Promise<string>;
}
