import { ZKioskUrlRequestSchema } from '#shared/schemas/kiosk-url';
import { parseInput } from '../parse-input';
import type { TBundleStore } from '../ports/bundles';
import type { TSigningTokenStore } from '../ports/signing';
import type { TClock } from '../ports/system';
import { mintSenderLink } from './sender-link';

/**
 * A kiosk link (deliver_via kiosk, this service's own): single use and short-lived like an
 * embedded one, opened by the sender on their own device and handed to the signer. It carries its
 * host (the body's, else the bundle's requester) and the API key that made it, as evidence.
 */
export function createKioskUrl(
  deps: { bundles: TBundleStore; tokens: TSigningTokenStore; clock: TClock },
  caller: { accountId: string; keyId: string; userId?: string },
  packetId: string,
  body: unknown,
  publicBaseUrl: string,
): Promise<{ url: string; expires: string }> {
  const input = parseInput(ZKioskUrlRequestSchema, body ?? {});
  return mintSenderLink(deps, caller.accountId, packetId, publicBaseUrl, 'kiosk', (bundle, _p, now) => {
    const email = input.host_email ?? (input.host_name ? undefined : bundle.requesterEmail || undefined);
    return {
      kiosk: {
        name: input.host_name ?? (bundle.requesterName || email || 'the sender'),
        ...(email ? { email } : {}),
        ...(input.device ? { device: input.device } : {}),
        keyId: caller.keyId,
        ...(caller.userId ? { userId: caller.userId } : {}),
        madeAt: now.toISOString(),
      },
    };
  });
}
