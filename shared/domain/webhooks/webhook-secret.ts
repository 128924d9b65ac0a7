import { randomBytes } from 'node:crypto';
import { ConcurrentUpdateError } from '../errors';
import type { TClock } from '../ports/system';
import type { TSecretCipher, TWebhookSecretStore } from '../ports/webhooks';
import { retryOnConflict } from '../retry-on-conflict';
import { base58Encode } from './base58';
import type { TSealedSecret, TWebhookSecretRecord } from './webhook-secret-record';

export type { TSealedSecret, TWebhookSecretRecord } from './webhook-secret-record';

/**
 * How long a replaced secret keeps signing calls next to the new one, so receivers can switch
 * without dropping calls: every call carries one signature per secret in use.
 */
export const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** Shortest text form of a secret: 32 random bytes are 43 or 44 base58 characters. */
export const SECRET_MIN_LENGTH = 43;

/** The secret as the API shows it. */
export interface TWebhookSecret {
  secret: string;
  created: string;
}

export type TSecretDeps = { webhookSecrets: TWebhookSecretStore; cipher: TSecretCipher; clock: TClock };

/** Binds a sealed secret to its account. */
const contextOf = (accountId: string) => ({ accountId });

/**
 * 32 random bytes (256 bits) in base58. The rare draw whose leading zero bytes would make it
 * shorter than SECRET_MIN_LENGTH characters (under 1 in 200) is drawn again, so every secret
 * has the same shape; that costs less than 0.01 bit.
 */
export function newWebhookSecret(random: (n: number) => Uint8Array = randomBytes): string {
  for (;;) {
    const secret = base58Encode(random(32));
    if (secret.length >= SECRET_MIN_LENGTH) return secret;
  }
}

async function sealNew(
  deps: TSecretDeps,
  accountId: string,
): Promise<{ secret: string; sealed: TSealedSecret }> {
  const secret = newWebhookSecret();
  const sealed = await deps.cipher.encrypt(secret, contextOf(accountId));
  return { secret, sealed: { sealed, created: deps.clock.now().toISOString() } };
}

const open = (deps: TSecretDeps, accountId: string, s: TSealedSecret) =>
  deps.cipher.decrypt(s.sealed, contextOf(accountId));

/**
 * The account's current secret. None yet: one is generated on this first read (rather than
 * answering 404), with a conditional put, so racing first reads all answer the one that was
 * stored first.
 */
export async function getWebhookSecret(deps: TSecretDeps, accountId: string): Promise<TWebhookSecret> {
  const stored = await deps.webhookSecrets.get(accountId);
  if (stored) return { secret: await open(deps, accountId, stored.current), created: stored.current.created };
  const fresh = await sealNew(deps, accountId);
  try {
    await deps.webhookSecrets.save({ accountId, current: fresh.sealed, version: 1 }, undefined);
    return { secret: fresh.secret, created: fresh.sealed.created };
  } catch (err) {
    if (!(err instanceof ConcurrentUpdateError)) throw err;
    const winner = await deps.webhookSecrets.get(accountId);
    if (!winner) throw err;
    return { secret: await open(deps, accountId, winner.current), created: winner.current.created };
  }
}

/**
 * A new current secret. The one it replaces becomes `previous` and keeps signing for
 * SECRET_OVERLAP_MS; a `previous` already there is dropped, even inside its overlap, so at most
 * two secrets sign at any time.
 */
export async function regenerateWebhookSecret(deps: TSecretDeps, accountId: string): Promise<TWebhookSecret> {
  const fresh = await sealNew(deps, accountId);
  await retryOnConflict(async () => {
    const stored = await deps.webhookSecrets.get(accountId);
    const next: TWebhookSecretRecord = stored
      ? {
          accountId,
          current: fresh.sealed,
          previous: { ...stored.current, retiredAt: fresh.sealed.created },
          version: stored.version + 1,
        }
      : { accountId, current: fresh.sealed, version: 1 };
    await deps.webhookSecrets.save(next, stored);
  });
  return { secret: fresh.secret, created: fresh.sealed.created };
}

/** Whether a replaced secret still signs at `now`. */
export function inOverlap(previous: { retiredAt: string }, now: Date): boolean {
  return now.getTime() < Date.parse(previous.retiredAt) + SECRET_OVERLAP_MS;
}

/**
 * The secrets that sign a call made at `now`: the current one first, then the previous one while
 * inside its overlap. An account without a secret gets one, as on its first read: every call is
 * signed, and the receiver reads the same secret with `GET /webhooks/secret/`.
 */
export async function signingSecrets(deps: TSecretDeps, accountId: string, now: Date): Promise<string[]> {
  const stored = await deps.webhookSecrets.get(accountId);
  if (!stored) return [(await getWebhookSecret(deps, accountId)).secret];
  const secrets = [await open(deps, accountId, stored.current)];
  if (stored.previous && inOverlap(stored.previous, now)) {
    secrets.push(await open(deps, accountId, stored.previous));
  }
  return secrets;
}
