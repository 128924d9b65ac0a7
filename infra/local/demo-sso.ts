// The demo account signs in with single sign-on out of the box: on every start the local OIDC
// stand-in registers the service as its client (a new secret each time, with this start's
// redirect URI) and the demo account's provider is set to it for the demo user's domain, as an
// operator's `set-sso` would.
import { createAccountStore } from '#shared/adapters/dynamodb/account-store';
import { createSsoStore } from '#shared/adapters/dynamodb/sso-store';
import { createIssuerGuard } from '#shared/adapters/oidc/issuer-guard';
import { createSecretCipher } from '#shared/adapters/secrets/cipher';
import { systemClock } from '#shared/adapters/system';
import { setAccountSso } from '#shared/domain/console/sso-settings';
import { ssoRedirectUri } from '#shared/domain/console/sso-sign-in';
import { ConflictError } from '#shared/domain/errors';
import { DEMO_EMAIL } from './demo-account';
import type { TOidcStandin } from './oidc-standin';
import type { TLocalDeps } from './runtime-options';

export const DEMO_SSO_DOMAIN = DEMO_EMAIL.slice(DEMO_EMAIL.indexOf('@') + 1);

export async function configureDemoSso(
  standIn: TOidcStandin,
  { config, db, log }: Pick<TLocalDeps, 'config' | 'db' | 'log'>,
  demoAccountId: string,
  baseUrl: string,
): Promise<void> {
  // A runtime that fetches as production does (https and public addresses only) would refuse the
  // stand-in's http loopback issuer at every sign-in: the demo goes without single sign-on then.
  const fetching = config.fetch ?? { allowHttp: true, allowLoopback: true };
  if (!fetching.allowHttp || !fetching.allowLoopback) {
    log.info('demo single sign-on not set: this runtime fetches only https public addresses');
    return;
  }
  const client = await standIn.registerClient(ssoRedirectUri(baseUrl));
  try {
    await setAccountSso(
      {
        accounts: createAccountStore(db, config.tableName),
        sso: createSsoStore(db, config.tableName),
        cipher: createSecretCipher(config),
        issuerGuard: createIssuerGuard(fetching),
        clock: systemClock,
      },
      demoAccountId,
      { issuer: standIn.issuer, ...client, domains: [DEMO_SSO_DOMAIN] },
    );
  } catch (err) {
    // Another account of this data folder took the domain (an operator's set-sso): keep theirs.
    if (!(err instanceof ConflictError)) throw err;
    log.warn('demo single sign-on not set: its domain signs in to another account', {
      domain: DEMO_SSO_DOMAIN,
    });
  }
}
