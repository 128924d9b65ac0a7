// How an account's webhook secret is stored: sealed, never in plain text, with the one it
// replaced while that still signs (webhook-secret.ts). Types only, for the store's port.

export interface TSealedSecret {
  /** The secret, encrypted by a TSecretCipher; never stored in plain text. */
  sealed: string;
  created: string;
}

/** One per account. */
export interface TWebhookSecretRecord {
  accountId: string;
  current: TSealedSecret;
  /** The secret before the last regeneration; signs until retiredAt + SECRET_OVERLAP_MS. */
  previous?: TSealedSecret & { retiredAt: string };
  version: number;
}
