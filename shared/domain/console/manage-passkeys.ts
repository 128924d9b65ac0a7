// A signed-in user's own passkeys: the options to make one, adding it once the browser has made
// it, listing and removing them. Each change is recorded in the account's security log.
import {
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type RegistrationResponseJSON,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import { ConflictError, NotFoundError, ValidationError } from '../errors';
import type { TAccountStore } from '../ports/accounts';
import type { TConsoleStore } from '../ports/console';
import type { TPasskeyStore } from '../ports/passkeys';
import type { TClock, TIds } from '../ports/system';
import { addMinutes, type TClient, type TSecurityEventKind } from './console-session';
import {
  CHALLENGE_MINUTES,
  challengeHashOf,
  MAX_PASSKEYS,
  PASSKEY_ID,
  passkeyIdOf,
  type TPasskey,
  type TRelyingParty,
  userHandleOf,
} from './passkey';
import { challengeOf, responseOf } from './passkey-response';

export interface TPasskeyDeps {
  passkeys: TPasskeyStore;
  console: TConsoleStore;
  accounts: TAccountStore;
  clock: TClock;
  ids: TIds;
  relyingParty: TRelyingParty;
}

/** The signed-in user a request acts for. */
export interface TSignedIn {
  accountId: string;
  userId: string;
}

const NAME_MAX = 60;

export async function recordPasskeyEvent(
  deps: Pick<TPasskeyDeps, 'console' | 'ids' | 'clock'>,
  kind: TSecurityEventKind,
  who: TSignedIn,
  client: TClient,
) {
  await deps.console.recordSecurityEvent({
    id: deps.ids.uuid(),
    kind,
    ...who,
    ...client,
    at: deps.clock.now().toISOString(),
  });
}

/**
 * What the browser passes to navigator.credentials.create: a discoverable credential (the
 * sign-in screen asks for no address), verified by the device (a PIN, a fingerprint), the user's
 * passkeys excluded so one device is not registered twice. The challenge is kept for a few
 * minutes, for this user alone.
 */
export async function passkeyRegistrationOptions(
  deps: TPasskeyDeps,
  who: TSignedIn,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const user = await deps.accounts.getUser(who.accountId, who.userId);
  if (!user) throw new NotFoundError();
  const existing = await deps.passkeys.listPasskeys(who.accountId, who.userId);
  const options = await generateRegistrationOptions({
    rpName: deps.relyingParty.name,
    rpID: deps.relyingParty.id,
    userName: user.email,
    userDisplayName: user.name || user.email,
    userID: userHandleOf(who.accountId, who.userId),
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    timeout: CHALLENGE_MINUTES * 60_000,
  });
  await deps.passkeys.saveChallenge({
    hash: challengeHashOf(options.challenge),
    purpose: 'register',
    ...who,
    expires: addMinutes(deps.clock.now(), CHALLENGE_MINUTES).toISOString(),
  });
  return options;
}

function nameOf(input: unknown): string {
  const name = (input as { name?: unknown } | undefined)?.name;
  const trimmed = typeof name === 'string' ? name.trim() : '';
  if (trimmed.length < 1 || trimmed.length > NAME_MAX) {
    throw new ValidationError('Give the passkey a name.', [
      { field: 'name', message: `Enter a name of 1 to ${NAME_MAX} characters, such as “Work laptop”.` },
    ]);
  }
  return trimmed;
}

const refused = (message: string) =>
  new ValidationError('The passkey could not be added.', [{ field: 'response', message }]);

/**
 * Adds the passkey the browser made from this user's options. The challenge is spent by one
 * conditional write before anything else, so an answer works once, within its few minutes.
 */
export async function addPasskey(
  deps: TPasskeyDeps,
  who: TSignedIn,
  input: unknown,
  client: TClient,
): Promise<TPasskey> {
  const name = nameOf(input);
  const response = responseOf<RegistrationResponseJSON>((input as { response?: unknown }).response);
  const challenge = response && challengeOf(response);
  if (!response || !challenge) throw refused('Send the answer of navigator.credentials.create as JSON.');
  const now = deps.clock.now();
  const spent = await deps.passkeys.spendChallenge(challengeHashOf(challenge), now);
  if (spent?.purpose !== 'register' || spent.accountId !== who.accountId || spent.userId !== who.userId) {
    throw refused('This request has expired or was already answered. Start adding the passkey again.');
  }
  const existing = await deps.passkeys.listPasskeys(who.accountId, who.userId);
  if (existing.length >= MAX_PASSKEYS) {
    throw refused(`You have ${MAX_PASSKEYS} passkeys already. Remove one you no longer use first.`);
  }
  let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verified = await verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: deps.relyingParty.origin,
      expectedRPID: deps.relyingParty.id,
      requireUserVerification: true,
    });
  } catch {
    throw refused('The device’s answer could not be verified. Try again.');
  }
  if (!verified.verified) throw refused('The device’s answer could not be verified. Try again.');
  const { credential, credentialBackedUp } = verified.registrationInfo;
  const passkey: TPasskey = {
    id: passkeyIdOf(credential.id),
    ...who,
    name,
    credentialId: credential.id,
    publicKey: isoBase64URL.fromBuffer(credential.publicKey),
    counter: credential.counter,
    transports: credential.transports ?? [],
    backedUp: credentialBackedUp,
    created: now.toISOString(),
  };
  if (!(await deps.passkeys.addPasskey(passkey))) throw new ConflictError('This passkey is added already.');
  await recordPasskeyEvent(deps, 'passkey_added', who, client);
  return passkey;
}

export const listPasskeys = (deps: Pick<TPasskeyDeps, 'passkeys'>, who: TSignedIn) =>
  deps.passkeys.listPasskeys(who.accountId, who.userId);

/** Removes one of the user's passkeys; another user's, or one of another account, is 404. */
export async function removePasskey(deps: TPasskeyDeps, who: TSignedIn, id: string, client: TClient) {
  if (!PASSKEY_ID.test(id) || !(await deps.passkeys.removePasskey(who.accountId, who.userId, id))) {
    throw new NotFoundError();
  }
  await recordPasskeyEvent(deps, 'passkey_removed', who, client);
}
