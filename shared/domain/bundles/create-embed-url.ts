import type { TBundleStore } from '../ports/bundles';
import type { TSigningTokenStore } from '../ports/signing';
import type { TClock } from '../ports/system';
import { mintSenderLink, SENDER_LINK_TTL_SECONDS } from './sender-link';

/** How long an embedded signing link may wait before it is opened. */
export const EMBED_URL_TTL_SECONDS = SENDER_LINK_TTL_SECONDS;

/**
 * A single-use, unguessable, expiring link for a packet set for embedded signing that may sign
 * now (sender-link.ts).
 */
export function createEmbedUrl(
  deps: { bundles: TBundleStore; tokens: TSigningTokenStore; clock: TClock },
  accountId: string,
  packetId: string,
  publicBaseUrl: string,
): Promise<{ url: string; expires: string }> {
  return mintSenderLink(deps, accountId, packetId, publicBaseUrl, 'embed');
}
