// An account's single sign-on: which OpenID Connect provider its users sign in with, and which
// email domains lead there. The operator sets it (infra/admin); the client secret is kept sealed
// by the secrets cipher, bound to the account, and never shown again.
import { NotFoundError, ValidationError } from '../errors';
import type { TAccountStore } from '../ports/accounts';
import type { TIssuerGuard, TOidcProviderConfig, TSsoStore } from '../ports/sso';
import type { TClock } from '../ports/system';
import type { TSecretCipher } from '../ports/webhooks';
import type { TSsoSettings } from './sso-records';

export type { TSsoAttempt, TSsoSettings } from './sso-records';

/** What the operator sees: never the secret, sealed or not. */
export type TSsoView = Omit<TSsoSettings, 'sealedSecret'>;

export interface TSsoAdminDeps {
  accounts: TAccountStore;
  sso: TSsoStore;
  cipher: TSecretCipher;
  issuerGuard: TIssuerGuard;
  clock: TClock;
}

const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

const contextOf = (accountId: string) => ({ accountId, purpose: 'sso-client-secret' });

export const viewOf = ({ sealedSecret: _s, ...view }: TSsoSettings): TSsoView => view;

/** The email domain of an address, lower case; undefined when it has none. */
export function domainOf(email: string): string | undefined {
  const at = email.lastIndexOf('@');
  const domain =
    at > 0
      ? email
          .slice(at + 1)
          .trim()
          .toLowerCase()
      : '';
  return DOMAIN.test(domain) ? domain : undefined;
}

function checked(input: { issuer: string; clientId: string; clientSecret: string; domains: string[] }) {
  const errors: { field: string; message: string }[] = [];
  let issuer = input.issuer.trim();
  try {
    const url = new URL(issuer);
    if (url.search || url.hash || url.username || url.password) throw new Error('extra parts');
    issuer = url.href.replace(/\/$/, '');
  } catch {
    errors.push({
      field: 'issuer',
      message: 'Give the issuer as an absolute URL, without query or fragment.',
    });
  }
  const clientId = input.clientId.trim();
  if (!clientId || clientId.length > 256) errors.push({ field: 'client_id', message: 'Give the client id.' });
  if (!input.clientSecret || input.clientSecret.length > 1024)
    errors.push({ field: 'client_secret', message: 'Give the client secret.' });
  const domains = [...new Set(input.domains.map((d) => d.trim().toLowerCase()).filter(Boolean))];
  if (domains.length === 0 || domains.length > 20)
    errors.push({ field: 'domains', message: 'Give one to 20 email domains, such as example.com.' });
  for (const d of domains)
    if (!DOMAIN.test(d)) errors.push({ field: 'domains', message: `${d} is not an email domain.` });
  if (errors.length > 0) throw new ValidationError('The single sign-on settings are not valid.', errors);
  return { issuer, clientId, clientSecret: input.clientSecret, domains };
}

/** Sets (or replaces) the account's provider. The issuer must pass the outbound URL guard. */
export async function setAccountSso(
  deps: TSsoAdminDeps,
  accountId: string,
  input: { issuer: string; clientId: string; clientSecret: string; domains: string[] },
): Promise<TSsoView> {
  const { issuer, clientId, clientSecret, domains } = checked(input);
  if (!(await deps.accounts.getAccount(accountId))) throw new NotFoundError(`No account ${accountId}.`);
  await deps.issuerGuard.check(issuer);
  const settings: TSsoSettings = {
    accountId,
    issuer,
    clientId,
    sealedSecret: await deps.cipher.encrypt(clientSecret, contextOf(accountId)),
    domains,
    updated: deps.clock.now().toISOString(),
  };
  await deps.sso.saveSettings(settings);
  return viewOf(settings);
}

/** Turns single sign-on off for the account; its users sign in by link again. */
export async function clearAccountSso(deps: Pick<TSsoAdminDeps, 'accounts' | 'sso'>, accountId: string) {
  if (!(await deps.accounts.getAccount(accountId))) throw new NotFoundError(`No account ${accountId}.`);
  return deps.sso.clearSettings(accountId);
}

/** The provider with its secret opened, for the request that talks to it. */
export async function providerOf(
  cipher: TSecretCipher,
  settings: TSsoSettings,
): Promise<TOidcProviderConfig> {
  return {
    issuer: settings.issuer,
    clientId: settings.clientId,
    clientSecret: await cipher.decrypt(settings.sealedSecret, contextOf(settings.accountId)),
  };
}
