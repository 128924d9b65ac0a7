import { signerGeneration, type TBundle, type TPacket } from '../bundles/bundle';
import type { TSigningTokenStore } from '../ports/signing';
import type { TClock } from '../ports/system';
import { hashToken, newToken } from '../tokens';

/** How long an emailed or texted signing link works when the bundle sets no expiry. */
export const SIGNING_LINK_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * The link a signer gets by email or SMS: unguessable (43 base62 characters, ~256 bits), only
 * its hash stored, bound to one packet, working until the bundle expires (or for
 * SIGNING_LINK_TTL_MS), for the packet's current signer only. Unlike an embedded URL it may be
 * opened again; every reminder carries a fresh one. A link of a finished bundle opens only the page saying so.
 */
export async function createSigningLink(
  deps: { tokens: TSigningTokenStore; clock: TClock },
  bundle: Pick<TBundle, 'id' | 'accountId' | 'expires'>,
  packet: Pick<TPacket, 'id' | 'handovers'>,
  publicBaseUrl: string,
): Promise<{ url: string; expires: string }> {
  const token = newToken();
  const now = deps.clock.now().getTime();
  const expires = new Date(
    bundle.expires ? Math.max(Date.parse(bundle.expires), now) : now + SIGNING_LINK_TTL_MS,
  ).toISOString();
  await deps.tokens.create({
    hash: hashToken(token),
    accountId: bundle.accountId,
    bundleId: bundle.id,
    packetId: packet.id,
    kind: 'link',
    expires,
    // Bound to this signer: a handover makes it open nothing (reassign-packet.ts).
    ...(signerGeneration(packet) > 0 ? { generation: signerGeneration(packet) } : {}),
  });
  return { url: `${publicBaseUrl.replace(/\/$/, '')}/sign/${token}`, expires };
}
