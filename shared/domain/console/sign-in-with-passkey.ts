// Signing in with a passkey: the options for navigator.credentials.get (no address asked: the
// passkey is discoverable and names its user), then the answer traded for the same session as
// an email link's.
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  type PublicKeyCredentialRequestOptionsJSON,
  verifyAuthenticationResponse,
} from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import { PasskeyRefusedError } from '../errors';
import type { TCounterStore } from '../ports/console';
import { addMinutes, type TClient } from './console-session';
import { recordPasskeyEvent, type TPasskeyDeps } from './manage-passkeys';
import { beginSession, type TOpenedConsoleSession, type TOpenSessionDeps } from './open-console-session';
import { CHALLENGE_MINUTES, challengeHashOf, passkeyIdOf, userHandleOf } from './passkey';
import { challengeOf, responseOf } from './passkey-response';
import type { TSignInLimits } from './request-sign-in-link';
import { takeSignInAttempt } from './sign-in-throttle';

export type TPasskeySignInDeps = TPasskeyDeps &
  TOpenSessionDeps & { counters: TCounterStore; limits: TSignInLimits };

/**
 * A challenge for any of the service's passkeys. Throttled per client address as asking for a
 * link is: each one is a stored item.
 */
export async function passkeySignInOptions(
  deps: TPasskeySignInDeps,
  client: TClient,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const now = deps.clock.now();
  const { perIp, windowMinutes } = deps.limits;
  await takeSignInAttempt(deps, now, {
    kind: 'passkey-options',
    subject: client.ip,
    limit: perIp,
    windowMinutes,
  });
  const options = await generateAuthenticationOptions({
    rpID: deps.relyingParty.id,
    userVerification: 'required',
    timeout: CHALLENGE_MINUTES * 60_000,
  });
  await deps.passkeys.saveChallenge({
    hash: challengeHashOf(options.challenge),
    purpose: 'sign_in',
    expires: addMinutes(now, CHALLENGE_MINUTES).toISOString(),
  });
  return options;
}

/**
 * Trades a passkey's answer for a session. Every refusal is the same PasskeyRefusedError, so the
 * answer never tells whether a passkey or a user exists; refusals of a known passkey are
 * recorded in its account's security log. The challenge is spent by one conditional write and
 * the counter moved by another, so an answer signs in once and a cloned authenticator, whose
 * counter lags, is refused.
 */
export async function signInWithPasskey(
  deps: TPasskeySignInDeps,
  input: unknown,
  client: TClient,
): Promise<TOpenedConsoleSession> {
  const now = deps.clock.now();
  const { perIp, perEmail, windowMinutes } = deps.limits;
  await takeSignInAttempt(deps, now, { kind: 'passkey-ip', subject: client.ip, limit: perIp, windowMinutes });
  const response = responseOf<AuthenticationResponseJSON>(
    (input as { response?: unknown } | undefined)?.response,
  );
  const challenge = response && challengeOf(response);
  if (!response || !challenge) throw new PasskeyRefusedError();
  // Per passkey as a link is per address: guessing at one passkey is slowed wherever it comes from.
  await takeSignInAttempt(deps, now, {
    kind: 'passkey',
    subject: response.id,
    limit: perEmail,
    windowMinutes,
  });
  const spent = await deps.passkeys.spendChallenge(challengeHashOf(challenge), now);
  if (spent?.purpose !== 'sign_in') throw new PasskeyRefusedError();
  const passkey = await deps.passkeys.getPasskey(passkeyIdOf(response.id));
  if (!passkey || passkey.credentialId !== response.id) throw new PasskeyRefusedError();
  const who = { accountId: passkey.accountId, userId: passkey.userId };
  const refuse = async () => {
    await recordPasskeyEvent(deps, 'passkey_sign_in_failed', who, client);
    return new PasskeyRefusedError();
  };

  const handle = response.response.userHandle;
  if (handle && handle !== isoBase64URL.fromBuffer(userHandleOf(who.accountId, who.userId)))
    throw await refuse();
  const [user, account] = await Promise.all([
    deps.accounts.getUser(who.accountId, who.userId),
    deps.accounts.getAccount(who.accountId),
  ]);
  // A removed user's passkeys stay behind, but sign no one in.
  if (!user || !account) throw await refuse();
  let newCounter: number;
  try {
    const verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: deps.relyingParty.origin,
      expectedRPID: deps.relyingParty.id,
      credential: {
        id: passkey.credentialId,
        publicKey: isoBase64URL.toBuffer(passkey.publicKey),
        counter: passkey.counter,
        transports: passkey.transports as never,
      },
      requireUserVerification: true,
    });
    if (!verified.verified) throw await refuse();
    newCounter = verified.authenticationInfo.newCounter;
  } catch (err) {
    if (err instanceof PasskeyRefusedError) throw err;
    throw await refuse();
  }
  if (!(await deps.passkeys.recordUse(passkey.id, passkey.counter, newCounter, now.toISOString()))) {
    throw await refuse();
  }
  return beginSession(deps, user, account, client, 'signed_in_with_passkey');
}
