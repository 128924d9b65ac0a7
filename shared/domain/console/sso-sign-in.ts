// Signing in to the console through the account's own OpenID Connect provider. The account is
// found by the email domain the reader types, never by whether the address has a user, so the
// answer is the same for every address of a domain. The browser's attempt cookie, the state,
// the nonce and the PKCE verifier tie the provider's answer to the browser that asked.
import { timingSafeEqual } from 'node:crypto';
import { ThrottledError } from '../errors';
import type { TCounterStore } from '../ports/console';
import { normalizeEmail } from '../ports/contact-keys';
import type { TOidcChecks, TOidcClient, TSsoStore } from '../ports/sso';
import type { TSecretCipher } from '../ports/webhooks';
import { hashToken, isToken, newToken } from '../tokens';
import { addMinutes, type TClient, type TSsoRefusal } from './console-session';
import { beginSession, type TOpenedConsoleSession, type TOpenSessionDeps } from './open-console-session';
import { emailOf, type TSignInLimits } from './request-sign-in-link';
import { domainOf, providerOf } from './sso-settings';

/** How long the reader has to sign in at the provider and come back. */
export const SSO_ATTEMPT_MINUTES = 10;

export interface TSsoSignInDeps extends TOpenSessionDeps {
  sso: TSsoStore;
  oidc: TOidcClient;
  cipher: TSecretCipher;
  counters: TCounterStore;
  limits: TSignInLimits;
  /** `<base>/console/api/sso/callback` is the redirect URI every provider registers. */
  publicBaseUrl: string;
}

export const ssoRedirectUri = (publicBaseUrl: string) => `${publicBaseUrl}/console/api/sso/callback`;

export type TSsoStart =
  | { kind: 'redirect'; url: string; attemptId: string }
  /** The address's domain has no single sign-on (said the same for every address of it). */
  | { kind: 'not_configured' }
  /** The provider could not be reached or its discovery document was refused. */
  | { kind: 'provider' };

/**
 * Starts a sign-in: the provider's authorization URL, and the attempt id for the browser's
 * cookie. Throttled per client address, as the sign-in links are.
 */
export async function startSsoSignIn(
  deps: TSsoSignInDeps,
  input: unknown,
  client: TClient,
): Promise<TSsoStart> {
  const email = emailOf(input);
  const now = deps.clock.now();
  const windowMs = deps.limits.windowMinutes * 60_000;
  const windowStart = Math.floor(now.getTime() / windowMs) * windowMs;
  const windowEnd = new Date(windowStart + windowMs);
  const counter = `console-sso#ip#${hashToken(client.ip)}#${windowStart}`;
  if (!(await deps.counters.take(counter, deps.limits.perIp, windowEnd)))
    throw new ThrottledError(Math.max(1, Math.ceil((windowEnd.getTime() - now.getTime()) / 1000)));

  const domain = domainOf(email);
  const accountId = domain ? await deps.sso.accountOfDomain(domain) : undefined;
  const settings = accountId ? await deps.sso.getSettings(accountId) : undefined;
  if (!settings) return { kind: 'not_configured' };

  const attemptId = newToken();
  const checks: TOidcChecks = {
    redirectUri: ssoRedirectUri(deps.publicBaseUrl),
    state: newToken(),
    nonce: newToken(),
    codeVerifier: newToken(),
    loginHint: email,
  };
  let url: string;
  try {
    url = await deps.oidc.authorizationUrl(await providerOf(deps.cipher, settings), checks);
  } catch {
    return { kind: 'provider' };
  }
  await deps.sso.saveAttempt({
    hash: hashToken(attemptId),
    accountId: settings.accountId,
    state: checks.state,
    nonce: checks.nonce,
    codeVerifier: checks.codeVerifier,
    created: now.toISOString(),
    expires: addMinutes(now, SSO_ATTEMPT_MINUTES).toISOString(),
  });
  return { kind: 'redirect', url, attemptId };
}

export type TSsoFinish =
  | { ok: true; opened: TOpenedConsoleSession }
  | { ok: false; reason: TSsoRefusal; accountId?: string; detail?: string };

const sameText = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * The provider's answer: the attempt is taken (once) by the browser's cookie, its state must be
 * the one returned, the code is traded with the PKCE verifier and the ID token checked with the
 * nonce; its email, verified by the provider, must be a user's of THAT account. Every refusal
 * the account can be told of is a line of its security log.
 */
export async function finishSsoSignIn(
  deps: TSsoSignInDeps,
  attemptId: string | undefined,
  query: URLSearchParams,
  client: TClient,
): Promise<TSsoFinish> {
  if (!isToken(attemptId)) return { ok: false, reason: 'expired' };
  const attempt = await deps.sso.takeAttempt(hashToken(attemptId));
  if (!attempt) return { ok: false, reason: 'expired' };
  const now = deps.clock.now();
  const refuse = async (reason: TSsoRefusal, detail?: string, userId?: string): Promise<TSsoFinish> => {
    await deps.console.recordSecurityEvent({
      id: deps.ids.uuid(),
      kind: 'sso_refused',
      accountId: attempt.accountId,
      ...(userId ? { userId } : {}),
      reason,
      ...client,
      at: now.toISOString(),
    });
    return { ok: false, reason, accountId: attempt.accountId, ...(detail ? { detail } : {}) };
  };
  if (now.toISOString() >= attempt.expires) return refuse('expired');
  if (!sameText(query.get('state') ?? '', attempt.state)) return refuse('state');
  const error = query.get('error');
  if (error) return refuse('provider', error.slice(0, 64));
  const settings = await deps.sso.getSettings(attempt.accountId);
  if (!settings) return refuse('provider', 'not configured');

  let identity: Awaited<ReturnType<TOidcClient['identityOf']>>;
  try {
    identity = await deps.oidc.identityOf(await providerOf(deps.cipher, settings), query, {
      redirectUri: ssoRedirectUri(deps.publicBaseUrl),
      state: attempt.state,
      nonce: attempt.nonce,
      codeVerifier: attempt.codeVerifier,
    });
  } catch (err) {
    return refuse('provider', (err as { code?: string; name?: string }).code ?? (err as Error).name);
  }
  if (!identity.email || !identity.emailVerified) return refuse('unverified_email');
  const email = normalizeEmail(identity.email);
  const match = (await deps.console.usersByEmail(email)).find((u) => u.accountId === attempt.accountId);
  const [user, account] = match
    ? await Promise.all([
        deps.accounts.getUser(match.accountId, match.userId),
        deps.accounts.getAccount(match.accountId),
      ])
    : [undefined, undefined];
  if (!user || !account) return refuse('unknown_user');
  return { ok: true, opened: await beginSession(deps, user, account, client, 'signed_in_with_sso') };
}
