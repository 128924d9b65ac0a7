// Single sign-on to the console with an account's own OpenID Connect provider: the account's
// settings (the client secret sealed), the attempts in flight, and the protocol client.
import type { TSsoAttempt, TSsoSettings } from '../console/sso-records';

export interface TSsoStore {
  getSettings(accountId: string): Promise<TSsoSettings | undefined>;
  /**
   * Saves the account's settings and claims each of its email domains for it, dropping the
   * domains it no longer lists. A domain another account has claimed is a ConflictError, and
   * nothing is written.
   */
  saveSettings(settings: TSsoSettings): Promise<void>;
  /** Removes the settings and the domains' claims; false when there were none. */
  clearSettings(accountId: string): Promise<boolean>;
  /** The account that claimed this email domain (lower case), if any. */
  accountOfDomain(domain: string): Promise<string | undefined>;
  saveAttempt(attempt: TSsoAttempt): Promise<void>;
  /**
   * Removes the attempt in one conditional write and answers it as it was, whether or not it
   * has expired (the caller tells expired apart); undefined when there is none, so of two
   * callbacks with one attempt exactly one gets it.
   */
  takeAttempt(hash: string): Promise<TSsoAttempt | undefined>;
}

/** An account's provider, with its client secret opened for the one request that needs it. */
export interface TOidcProviderConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/** What the ID token (or, lacking them, the UserInfo endpoint) says about the person. */
export interface TOidcIdentity {
  subject: string;
  email?: string;
  emailVerified: boolean;
}

export interface TOidcChecks {
  redirectUri: string;
  state: string;
  nonce: string;
  /** PKCE: the verifier whose S256 challenge went in the authorization request. */
  codeVerifier: string;
  /** The address the reader typed, so the provider can fill it in. */
  loginHint?: string;
}

/**
 * The protocol, done by a library: discovery, the authorization request, and the code traded
 * for tokens whose ID token is checked (signature from the provider's JWKS, issuer, audience,
 * expiry, nonce; state and PKCE verifier). Any failure throws.
 */
export interface TOidcClient {
  authorizationUrl(provider: TOidcProviderConfig, checks: TOidcChecks): Promise<string>;
  identityOf(
    provider: TOidcProviderConfig,
    callbackQuery: URLSearchParams,
    checks: TOidcChecks,
  ): Promise<TOidcIdentity>;
}

/** Checks an issuer URL may be called by this service (https and public in production). */
export interface TIssuerGuard {
  /** Throws a ValidationError naming the problem. */
  check(issuer: string): Promise<void>;
}
