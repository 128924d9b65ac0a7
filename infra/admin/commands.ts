// The operator's commands, one function each. They take the stores (ports) and plain values,
// so the same code runs against the local data and a deployed stack; target.ts builds the deps,
// main.ts turns flags into arguments and results into output.

import type { TAccount, TApiKey, TBrand, TTeam, TUser } from '#shared/domain/accounts/account';
import { addBrand } from '#shared/domain/accounts/add-brand';
import { addTeam } from '#shared/domain/accounts/add-team';
import { addUser } from '#shared/domain/accounts/add-user';
import { createAccount } from '#shared/domain/accounts/create-account';
import { issueRegisteredApiKey } from '#shared/domain/accounts/create-api-key';
import { revokeApiKey } from '#shared/domain/accounts/revoke-api-key';
import { setAccountLanguage } from '#shared/domain/accounts/set-account-language';
import { setEmbedOrigins } from '#shared/domain/accounts/set-embed-origins';
import { setImagePageSize } from '#shared/domain/accounts/set-image-page-size';
import { clearPayout, setPayout } from '#shared/domain/accounts/set-payout';
import { setSigningRedirect } from '#shared/domain/accounts/set-signing-redirect';
import { setUserTeams } from '#shared/domain/accounts/user-teams';
import { OPERATOR } from '#shared/domain/bundles/actor';
import { clearAccountSso, setAccountSso, type TSsoView } from '#shared/domain/console/sso-settings';
import { NotFoundError } from '#shared/domain/errors';
import type { TBuildExportDeps } from '#shared/domain/exports/build-export';
import type { TImportDeps } from '#shared/domain/exports/import-account';
import { refundPayment, type TRefundOutcome } from '#shared/domain/payments/refund-payment';
import type { TErasureReport } from '#shared/domain/persons/erase-person';
import { eraseAndLog } from '#shared/domain/persons/erasure-request';
import type { TAccountSettingsStore } from '#shared/domain/ports/account-settings';
import type { TAccountStore, TApiKeyStore, TDocumentsKeyAdmin } from '#shared/domain/ports/accounts';
import type { TBulkStore } from '#shared/domain/ports/bulk';
import type { TBundleStore } from '#shared/domain/ports/bundles';
import type { TConsoleStore } from '#shared/domain/ports/console';
import type { TBlobEraser } from '#shared/domain/ports/files';
import type { TPaymentProvider } from '#shared/domain/ports/payments';
import type { TPersonStore } from '#shared/domain/ports/persons';
import type { TIssuerGuard, TSsoStore } from '#shared/domain/ports/sso';
import type { TClock, TIds } from '#shared/domain/ports/system';
import type { TUsageKeyRegistry } from '#shared/domain/ports/usage-keys';
import type { TSecretCipher } from '#shared/domain/ports/webhooks';
import type { TFeatureName } from '#shared/schemas/vocabulary';
import type { TLocalCa } from '../local/local-ca';
import type { TSealAdmin } from './seal-commands';
import type { TUpgradeReport } from './upgrades/item-upgrade';
import type { TItemUpgrades } from './upgrades/item-upgrades';

export interface TAdminDeps {
  accounts: TAccountStore;
  keys: TApiKeyStore;
  persons: TPersonStore;
  clock: TClock;
  ids: TIds;
  /** Only on AWS: API Gateway must know each key's value for the usage plan to admit it. */
  usageKeys?: TUsageKeyRegistry;
  /** The account's settings, for set-retention. */
  settings?: TAccountSettingsStore;
  /** Bundles, for refund-payment, the legal hold, erase-person and run-retention. */
  bundles?: TBundleStore;
  /** The accounts' security logs, where erase-person notes each erasure. */
  securityLog?: Pick<TConsoleStore, 'recordSecurityEvent'>;
  /** Bulk batches, for run-retention (a batch's shared documents go with its last bundle's). */
  bulk?: TBulkStore;
  /**
   * The documents bucket's eraser, for run-retention; made on use (locally the runtime's S3
   * stand-in or one of our own on the data folder, on AWS the bucket of --bucket).
   */
  eraser?: () => Promise<TBlobEraser>;
  /** The payment processor, for refund-payment; made on use (on AWS it reads the Stripe keys). */
  payments?: () => Promise<TPaymentProvider>;
  /** KMS and the seal chains, for the seal-* commands; made on use (locally it may start KMS's stand-in). */
  seal?: () => Promise<TSealAdmin>;
  /** Single sign-on settings, the secrets cipher that seals client secrets, the issuer guard. */
  sso?: () => Promise<{ sso: TSsoStore; cipher: TSecretCipher; issuerGuard: TIssuerGuard }>;
  /** KMS for accounts' own documents keys (account-key-*); made on use. */
  documentsKeys?: () => Promise<TDocumentsKeyAdmin>;
  /** The documents bucket and the export's stores, for export-account and import-account; made on use. */
  exporting?: () => Promise<TBuildExportDeps & TImportDeps & { bucketName: string }>;
  /** The local runtime's CA, for seal-revoke (only locally: on AWS the CA is the operator's). */
  localCa?: () => Promise<TLocalCa>;
  /** The upgrades of items stored by earlier versions, for migrate. */
  upgrades?: TItemUpgrades;
}

/** An account as the operator sees it: `version` is the store's concurrency counter, not data. */
export type TAccountView = Omit<TAccount, 'version'>;

/** A key as the operator sees it: never the hash, which would let anyone test guesses offline. */
export interface TKeyView {
  keyId: string;
  name?: string;
  prefix: string;
  accountId: string;
  userId: string;
  usageKeyId: string;
  created: string;
  revoked?: string;
}

export interface TAccountDetails {
  account: TAccountView;
  users: TUser[];
  teams: TTeam[];
  brands: TBrand[];
  keys: TKeyView[];
}

export function accountView(a: TAccount): TAccountView {
  const { version: _version, ...rest } = a;
  return rest;
}

/** Picks fields rather than deleting `hash`, so a field added to TApiKey later stays hidden. */
export function keyView(k: TApiKey): TKeyView {
  return {
    keyId: k.keyId,
    ...(k.name ? { name: k.name } : {}),
    prefix: k.prefix,
    accountId: k.accountId,
    userId: k.userId,
    usageKeyId: k.usageKeyId,
    created: k.created,
    ...(k.revoked ? { revoked: k.revoked } : {}),
  };
}

export async function requireAccount(deps: TAdminDeps, accountId: string): Promise<TAccount> {
  const account = await deps.accounts.getAccount(accountId);
  if (!account) throw new NotFoundError('Account not found.');
  return account;
}

export async function createAccountCommand(
  deps: TAdminDeps,
  input: { name: string; email: string; requesterName?: string },
): Promise<TAccountView> {
  const account = await createAccount(deps, {
    name: input.name,
    requesterEmail: input.email,
    ...(input.requesterName !== undefined ? { requesterName: input.requesterName } : {}),
  });
  return accountView(account);
}

/** A comma-separated list as typed on the command line; blank entries are ignored. */
const commaList = (text: string) =>
  text
    .split(',')
    .map((o) => o.trim())
    .filter((o) => o !== '');

/** `teams`: comma-separated team ids, as typed on the command line. */
export function addUserCommand(
  deps: TAdminDeps,
  accountId: string,
  input: { name: string; email: string; isAdmin: boolean; teams?: string },
): Promise<TUser> {
  const { teams, ...rest } = input;
  return addUser(deps, accountId, { ...rest, ...(teams !== undefined ? { teams: commaList(teams) } : {}) });
}

/** `teams`: comma-separated team ids ("" takes the user out of every team). */
/**
 * Writes the sign-in lookup (user by address) for every user of the account, or of every account:
 * a deployment whose users were added before the console had no such lookup. Existing lookups are
 * left as they are, so it may run any number of times.
 */
export async function indexUserEmailsCommand(
  deps: TAdminDeps,
  accountId: string | undefined,
): Promise<{ accountId: string; users: number }[]> {
  const accounts = accountId ? [await requireAccount(deps, accountId)] : await deps.accounts.listAccounts();
  const done: { accountId: string; users: number }[] = [];
  for (const a of accounts) {
    await deps.accounts.indexUserEmails(a.id);
    done.push({ accountId: a.id, users: (await deps.accounts.listUsers(a.id)).length });
  }
  return done;
}

/**
 * Brings the items earlier versions stored up to this one where reading them cannot (keys they
 * lack): run after each deploy. Safe beside the service's traffic and to run again.
 */
export function migrateCommand(deps: TAdminDeps): Promise<TUpgradeReport[]> {
  if (!deps.upgrades) throw new Error('migrate is not available on this target.');
  return deps.upgrades.run();
}

export function setUserTeamsCommand(
  deps: TAdminDeps,
  accountId: string,
  userId: string,
  teams: string,
): Promise<TUser> {
  return setUserTeams(deps, accountId, userId, { teams: commaList(teams) });
}

export async function createKeyCommand(
  deps: TAdminDeps,
  accountId: string,
  userId: string,
  name?: string,
): Promise<{ secret: string; key: TKeyView }> {
  await requireAccount(deps, accountId);
  const { key, secret } = await issueRegisteredApiKey(deps, accountId, userId, name);
  return { secret, key: keyView(key) };
}

export async function revokeKeyCommand(
  deps: TAdminDeps,
  accountId: string,
  keyId: string,
): Promise<TKeyView> {
  await requireAccount(deps, accountId);
  return keyView(await revokeApiKey(deps, accountId, keyId));
}

export async function setFeaturesCommand(
  deps: TAdminDeps,
  accountId: string,
  features: Partial<Record<TFeatureName, boolean>>,
): Promise<TAccountView> {
  return accountView(await deps.accounts.setFeatures(accountId, features));
}

export function addTeamCommand(
  deps: TAdminDeps,
  accountId: string,
  input: { name: string; requesterName?: string; requesterEmail?: string },
): Promise<TTeam> {
  return addTeam(deps, accountId, input);
}

export function addBrandCommand(
  deps: TAdminDeps,
  accountId: string,
  input: { name: string; redirectUrl?: string; primaryColor?: string; logoUrl?: string },
): Promise<TBrand> {
  return addBrand(deps, accountId, input);
}

export async function setImagePageSizeCommand(
  deps: TAdminDeps,
  accountId: string,
  size: string,
): Promise<TAccountView> {
  return accountView(await setImagePageSize(deps, accountId, { size: size.trim().toLowerCase() }));
}

export async function setSigningRedirectCommand(
  deps: TAdminDeps,
  accountId: string,
  url: string,
): Promise<TAccountView> {
  return accountView(await setSigningRedirect(deps, accountId, { url: url.trim() }));
}

export async function setAccountLanguageCommand(
  deps: TAdminDeps,
  accountId: string,
  language: string,
): Promise<TAccountView> {
  return accountView(await setAccountLanguage(deps, accountId, { language: language.trim() }));
}

export async function setPayoutCommand(
  deps: TAdminDeps,
  accountId: string,
  input: { connectedAccount: string; currency: string },
): Promise<TAccountView> {
  return accountView(
    await setPayout(deps, accountId, {
      connected_account: input.connectedAccount,
      currency: input.currency,
    }),
  );
}

export async function clearPayoutCommand(deps: TAdminDeps, accountId: string): Promise<TAccountView> {
  return accountView(await clearPayout(deps, accountId));
}

/** Gives a bundle's payment back in full (shared/domain/payments/refund-payment.ts). */
export async function refundPaymentCommand(
  deps: TAdminDeps,
  accountId: string,
  bundleId: string,
): Promise<TRefundOutcome> {
  await requireAccount(deps, accountId);
  if (!deps.bundles || !deps.payments) throw new Error('Payments are not available on this target.');
  return refundPayment(
    { bundles: deps.bundles, payments: await deps.payments(), clock: deps.clock },
    accountId,
    bundleId,
  );
}

/** Erases the account's Persons at an email or phone (shared/domain/persons/erase-person.ts). */
export async function erasePersonCommand(
  deps: TAdminDeps,
  accountId: string,
  target: { email?: string; phone?: string },
): Promise<TErasureReport> {
  await requireAccount(deps, accountId);
  if (!deps.bundles || !deps.securityLog)
    throw new Error('Bundles and security logs are not available on this target.');
  return eraseAndLog(
    { ...deps, store: deps.persons, bundles: deps.bundles, securityLog: deps.securityLog },
    accountId,
    target,
    { by: OPERATOR, client: { ip: '', userAgent: '' } },
  );
}

/** `origins`: comma-separated, as typed on the command line; blank entries are ignored. */
export async function setEmbedOriginsCommand(
  deps: TAdminDeps,
  accountId: string,
  origins: string,
): Promise<TAccountView> {
  return accountView(await setEmbedOrigins(deps, accountId, { origins: commaList(origins) }));
}

/** `domains`: comma-separated, as typed on the command line. The secret is sealed, never shown. */
export async function setSsoCommand(
  deps: TAdminDeps,
  accountId: string,
  input: { issuer: string; clientId: string; clientSecret: string; domains: string },
): Promise<TSsoView> {
  if (!deps.sso) throw new Error('Single sign-on settings are not available on this target.');
  return setAccountSso({ ...deps, ...(await deps.sso()) }, accountId, {
    ...input,
    domains: commaList(input.domains),
  });
}

export async function clearSsoCommand(deps: TAdminDeps, accountId: string): Promise<boolean> {
  if (!deps.sso) throw new Error('Single sign-on settings are not available on this target.');
  return clearAccountSso({ accounts: deps.accounts, sso: (await deps.sso()).sso }, accountId);
}

export async function listAccountsCommand(deps: TAdminDeps): Promise<TAccountView[]> {
  const accounts = await deps.accounts.listAccounts();
  return accounts.map(accountView);
}

const byCreated = (a: { created: string }, b: { created: string }) => a.created.localeCompare(b.created);

export async function showAccountCommand(deps: TAdminDeps, accountId: string): Promise<TAccountDetails> {
  const account = await requireAccount(deps, accountId);
  const [users, teams, brands, keys] = await Promise.all([
    deps.accounts.listUsers(accountId),
    deps.accounts.listTeams(accountId),
    deps.accounts.listBrands(accountId),
    deps.keys.listForAccount(accountId),
  ]);
  // Keys are listed by their random id; the operator wants them in the order they were issued.
  return { account: accountView(account), users, teams, brands, keys: keys.map(keyView).sort(byCreated) };
}
