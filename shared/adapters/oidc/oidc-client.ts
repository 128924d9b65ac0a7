// The OpenID Connect client of the console's single sign-on, done by openid-client: discovery,
// the authorization request (code flow, PKCE S256, state, nonce) and the code traded for tokens
// whose ID token openid-client checks (signature from the JWKS, issuer, audience, expiry, nonce).
// Every call to a provider goes through the outbound URL guard.
import * as oidc from 'openid-client';
import type { TOidcClient, TOidcIdentity, TOidcProviderConfig } from '#shared/domain/ports/sso';
import { createGuardedFetch, type TGuardedFetch } from '../fetch/guarded-fetch';

/** A provider's discovery is kept this long per warm function, so a sign-in costs one fetch less. */
const DISCOVERY_TTL_MS = 5 * 60_000;

export interface TOidcRules {
  /** Local runtime only: plain http and loopback issuers (the OIDC stand-in). */
  allowHttp: boolean;
  allowLoopback: boolean;
}

export function createOidcClient(rules: TOidcRules, fetcher?: TGuardedFetch): TOidcClient {
  const guarded = fetcher ?? createGuardedFetch({ ...rules, maxBytes: 512 * 1024, timeoutMs: 10_000 });
  const customFetch = guarded as unknown as oidc.CustomFetch;
  const cache = new Map<string, { at: number; config: Promise<oidc.Configuration> }>();

  function configOf(p: TOidcProviderConfig): Promise<oidc.Configuration> {
    const key = JSON.stringify([p.issuer, p.clientId, p.clientSecret]);
    const hit = cache.get(key);
    if (hit && Date.now() - hit.at < DISCOVERY_TTL_MS) return hit.config;
    const config = oidc
      .discovery(new URL(p.issuer), p.clientId, p.clientSecret, oidc.ClientSecretBasic(p.clientSecret), {
        [oidc.customFetch]: customFetch,
        ...(rules.allowHttp ? { execute: [oidc.allowInsecureRequests] } : {}),
      })
      .then((c) => {
        c[oidc.customFetch] = customFetch;
        return c;
      });
    // A failed discovery is not kept: the next sign-in asks again.
    config.catch(() => cache.delete(key));
    cache.set(key, { at: Date.now(), config });
    return config;
  }

  return {
    async authorizationUrl(provider, checks) {
      const config = await configOf(provider);
      return oidc
        .buildAuthorizationUrl(config, {
          redirect_uri: checks.redirectUri,
          scope: 'openid email',
          response_type: 'code',
          code_challenge: await oidc.calculatePKCECodeChallenge(checks.codeVerifier),
          code_challenge_method: 'S256',
          state: checks.state,
          nonce: checks.nonce,
          ...(checks.loginHint ? { login_hint: checks.loginHint } : {}),
        })
        .toString();
    },
    async identityOf(provider, query, checks): Promise<TOidcIdentity> {
      const config = await configOf(provider);
      const current = new URL(checks.redirectUri);
      current.search = query.toString();
      const tokens = await oidc.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: checks.codeVerifier,
        expectedState: checks.state,
        expectedNonce: checks.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims) throw new Error('The provider answered no ID token.');
      let email = typeof claims.email === 'string' ? claims.email : undefined;
      let verified = claims.email_verified === true;
      // Some providers put the address in UserInfo only; it answers for the same subject.
      if (!email) {
        const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
        email = typeof info.email === 'string' ? info.email : undefined;
        verified = info.email_verified === true;
      }
      return { subject: claims.sub, ...(email ? { email } : {}), emailVerified: verified };
    },
  };
}
