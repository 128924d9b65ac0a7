import { ConflictError } from '../errors';
import type { TBundleStore } from '../ports/bundles';
import type { TSigningToken, TSigningTokenStore } from '../ports/signing';
import type { TClock } from '../ports/system';
import { hashToken, newToken } from '../tokens';
import type { TBundle, TDeliverVia, TPacket } from './bundle';
import { bundleAt } from './expiry';
import { findPacket } from './find-packet';
import { isOut, isPacketUp } from './lifecycle/status';

/** How long a link the sender opens (embedded or kiosk) may wait before it is opened. */
export const SENDER_LINK_TTL_SECONDS = 15 * 60;

const NOT_SET: Record<'embed' | 'kiosk', string> = {
  embed: 'This packet is not set for embedded signing.',
  kiosk: 'This packet is not set for signing in person (deliver_via "kiosk").',
};

/**
 * A single-use, unguessable (43 base62 characters, ~256 bits), expiring signing link the sender
 * opens itself, for a packet set for `kind` whose signer may sign now. Only the token's hash is
 * stored; `extra` is what the link carries besides (a kiosk link's host).
 */
export async function mintSenderLink(
  deps: { bundles: TBundleStore; tokens: TSigningTokenStore; clock: TClock },
  accountId: string,
  packetId: string,
  publicBaseUrl: string,
  kind: 'embed' | 'kiosk',
  extra: (bundle: TBundle, packet: TPacket, now: Date) => Partial<TSigningToken> = () => ({}),
): Promise<{ url: string; expires: string }> {
  const found = await findPacket(deps, accountId, packetId);
  const now = deps.clock.now();
  // Past its expiry the bundle is expired, whether or not the scheduler has recorded it yet.
  const bundle = bundleAt(found.bundle, now);
  const packet = bundle.packets.find((p) => p.id === packetId)!;
  if (packet.deliverVia !== (kind satisfies TDeliverVia)) throw new ConflictError(NOT_SET[kind]);
  if (!isOut(bundle.status) || !isPacketUp(packet.status)) {
    throw new ConflictError(
      `This signer cannot sign now (bundle "${bundle.status}", packet "${packet.status}").`,
    );
  }
  const token = newToken();
  const expires = new Date(now.getTime() + SENDER_LINK_TTL_SECONDS * 1000).toISOString();
  await deps.tokens.create({
    ...extra(bundle, packet, now),
    hash: hashToken(token),
    accountId,
    bundleId: bundle.id,
    packetId,
    kind,
    expires,
  });
  return { url: `${publicBaseUrl.replace(/\/$/, '')}/sign/${token}`, expires };
}
