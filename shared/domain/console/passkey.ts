// Passkeys (WebAuthn credentials) a console user signs in with: what is stored of each, the
// challenges handed to the browser, and the relying party the service is to the authenticator.
import { createHash } from 'node:crypto';

/** A challenge must be answered this soon, and once. */
export const CHALLENGE_MINUTES = 5;
/** What the authenticator shows beside the user's name. */
export const RELYING_PARTY_NAME = 'eSignature console';
/** A user keeps at most this many passkeys (each device, each password manager: one). */
export const MAX_PASSKEYS = 20;

export interface TPasskey {
  /** The SHA-256 (hex) of the credential id: the passkey's id in the API and its key. */
  id: string;
  accountId: string;
  userId: string;
  /** The name the user gave it ("Work laptop"). */
  name: string;
  /** The credential id, base64url, as the authenticator made it. */
  credentialId: string;
  /** The COSE public key, base64url. */
  publicKey: string;
  /** The authenticator's signature counter at the last sign-in (0: it keeps none). */
  counter: number;
  transports: string[];
  /** Whether the credential may be synced to the user's other devices. */
  backedUp: boolean;
  created: string;
  lastUsed?: string;
}

export type TChallengePurpose = 'register' | 'sign_in';

/** A challenge handed to a browser, stored by its hash until answered or expired. */
export interface TPasskeyChallenge {
  /** SHA-256 (hex) of the challenge as the browser returns it (base64url). */
  hash: string;
  purpose: TChallengePurpose;
  /** For a registration: the signed-in user it was made for (no one else may answer it). */
  accountId?: string;
  userId?: string;
  expires: string;
}

/** The service as the authenticator knows it: the public base URL's host and origin. */
export interface TRelyingParty {
  id: string;
  origin: string;
  name: string;
}

export function relyingPartyOf(publicBaseUrl: string): TRelyingParty {
  const url = new URL(publicBaseUrl);
  return { id: url.hostname, origin: url.origin, name: RELYING_PARTY_NAME };
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** The passkey's id: the hash of its credential id, so ids have one short shape. */
export const passkeyIdOf = (credentialId: string): string => sha256(credentialId);

/** A challenge's stored name. */
export const challengeHashOf = (challenge: string): string => sha256(`webauthn-challenge\0${challenge}`);

/**
 * The WebAuthn user handle of a user: the same for all of their passkeys (an authenticator keeps
 * one passkey per user and site, replacing the older), derived so that nothing more is stored, and
 * opaque: it carries neither address nor name.
 */
export const userHandleOf = (accountId: string, userId: string): Uint8Array<ArrayBuffer> =>
  Uint8Array.from(createHash('sha256').update(`passkey-user\0${accountId}\0${userId}`, 'utf8').digest());

export const PASSKEY_ID = /^[0-9a-f]{64}$/;
