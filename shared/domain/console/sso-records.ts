// How an account's single sign-on and its attempts in flight are stored (sso-settings.ts,
// sso-sign-in.ts). Types only, for the store's port.

export interface TSsoSettings {
  accountId: string;
  /** The provider's issuer identifier; its discovery document is `<issuer>/.well-known/openid-configuration`. */
  issuer: string;
  clientId: string;
  /** The client secret, encrypted by the secrets cipher with the account as context. */
  sealedSecret: string;
  /** Lower-case email domains whose addresses are sent to this provider. */
  domains: string[];
  updated: string;
}

/** One sign-in in flight, found by the hash of the id in the browser's attempt cookie. */
export interface TSsoAttempt {
  hash: string;
  accountId: string;
  state: string;
  nonce: string;
  codeVerifier: string;
  created: string;
  expires: string;
}
