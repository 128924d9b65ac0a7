import type { TBundleStore } from '../../ports';
import { ConflictError } from '../errors';
import { findPacket } from './find-packet';

/**
 * The Certificate of Evidence exists once the packet is complete and the evidence work has
 * produced it; until then the answer is 409, as the spec says.
 */
export async function getCoe(
  deps: { bundles: TBundleStore },
  accountId: string,
  packetId: string,
): Promise<never> {
  const { packet } = await findPacket(deps, accountId, packetId);
  if (packet.status !== 'co') throw new ConflictError('The packet is not complete yet.');
  throw new ConflictError('The Certificate of Evidence is not ready yet.');
}
