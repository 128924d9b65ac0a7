import { changeBundle } from '../bundles/change-bundle';
import { hasOpened } from '../bundles/lifecycle/status';
import * as lifecycle from '../bundles/lifecycle/transitions';
import { GoneError, NotFoundError, said, ValidationError } from '../errors';
import { hashToken, newToken } from '../tokens';
import {
  cannotSign,
  changeSigner,
  loadSigner,
  saveStep,
  type TClient,
  type TSigningDeps,
} from './signer-context';

/** How long a signing session lasts; the page asks the signer to open the link again after it. */
export const SESSION_TTL_MS = 2 * 60 * 60 * 1000;

/**
 * Exchanges a link token (emailed, texted or embedded) for a session. An embedded URL is
 * single use: the exchange consumes it, and a second one answers 410. Opening the page when
 * the signer may sign makes the packet `st` (and a bundle still `se`), firing packet_viewed
 * once: a later open finds the packet `st` already.
 */
export async function openSession(
  deps: TSigningDeps,
  token: unknown,
  client: TClient,
): Promise<{ session: string; expires: string; embedded: boolean }> {
  if (typeof token !== 'string' || !/^[0-9A-Za-z]{43}$/.test(token)) {
    throw said(
      new ValidationError('Invalid signing link.', [
        { field: 'token', message: 'Not a signing link token.', said: { key: 'errors.linkNotToken' } },
      ]),
      'errors.linkInvalid',
    );
  }
  const hash = hashToken(token);
  const link = await deps.tokens.get(hash);
  const now = deps.clock.now();
  if (!link || link.kind === 'session' || Date.parse(link.expires) <= now.getTime()) {
    throw said(new NotFoundError('This signing link is not valid or has expired.'), 'errors.linkInvalid');
  }
  const at = now.toISOString();
  if (link.kind === 'embed' && !(await deps.tokens.consume(hash, at))) {
    throw said(new GoneError('This signing link was already used. Ask for a new one.'), 'errors.linkUsed');
  }
  const session = newToken();
  const expires = new Date(
    Math.min(now.getTime() + SESSION_TTL_MS, Date.parse(link.expires) + SESSION_TTL_MS),
  ).toISOString();
  await deps.tokens.create({
    hash: hashToken(session),
    accountId: link.accountId,
    bundleId: link.bundleId,
    packetId: link.packetId,
    kind: 'session',
    expires,
  });

  const ctx = await loadSigner(deps, link.accountId, link.bundleId, link.packetId);
  if (!cannotSign(ctx.bundle, ctx.packet, now) && !hasOpened(ctx.packet.status)) {
    await changeBundle(deps, link.accountId, link.bundleId, (b) =>
      lifecycle.openPacket(b, link.packetId, at, (p) => !cannotSign(b, p, now)),
    );
  }
  // The record as read above (the bundle change does not touch it); read again only after a race.
  const call = { deps, signer: ctx, client };
  const action = link.kind === 'embed' ? 'opened embedded' : 'opened link';
  await changeSigner(call, (signer) => saveStep(call, signer, {}, action, at));
  return { session, expires, embedded: link.kind === 'embed' };
}
