import type { TBundleStore } from '../../ports/bundles';
import type { TSigningTokenStore } from '../../ports/signing';
import type { TClock } from '../../ports/system';
import { ConflictError } from '../errors';
import { hashToken, newToken } from '../tokens';
import { bundleAt } from './expiry';
import { findPacket } from './find-packet';
import { hasOpened, isOut, isPacketReady } from './lifecycle/status';

/** How long an embedded signing link may wait before it is opened. */
export const EMBED_URL_TTL_SECONDS = 15 * 60;

/**
 * A single-use, unguessable (43 base62 characters, ~256 bits), expiring link for a packet set
 * for embedded signing that may sign now. Only the token's hash is stored.
 */
export async function createEmbedUrl(
  deps: { bundles: TBundleStore; tokens: TSigningTokenStore; clock: TClock },
  accountId: string,
  packetId: string,
  publicBaseUrl: string,
): Promise<{ url: string; expires: string }> {
  const found = await findPacket(deps, accountId, packetId);
  const now = deps.clock.now();
  // Past its expiry the bundle is expired, whether or not the scheduler has recorded it yet.
  const bundle = bundleAt(found.bundle, now);
  const packet = bundle.packets.find((p) => p.id === packetId)!;
  if (packet.deliverVia !== 'embed') throw new ConflictError('This packet is not set for embedded signing.');
  if (!isOut(bundle.status) || !(isPacketReady(packet.status) || hasOpened(packet.status))) {
    throw new ConflictError(
      `This signer cannot sign now (bundle "${bundle.status}", packet "${packet.status}").`,
    );
  }
  const token = newToken();
  const expires = new Date(now.getTime() + EMBED_URL_TTL_SECONDS * 1000).toISOString();
  await deps.tokens.create({
    hash: hashToken(token),
    accountId,
    bundleId: bundle.id,
    packetId,
    kind: 'embed',
    expires,
  });
  return { url: `${publicBaseUrl.replace(/\/$/, '')}/sign/${token}`, expires };
}
