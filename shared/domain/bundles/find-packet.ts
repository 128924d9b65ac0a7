import { NotFoundError } from '../errors';
import type { TBundleStore } from '../ports/bundles';
import type { TBundle, TPacket } from './bundle';
import { getBundle } from './get-bundle';

const SLUG = /^[0-9A-Za-z]{10}$/;

/** The packet and its bundle; another account's packet and a malformed id are not found. */
export async function findPacket(
  deps: { bundles: TBundleStore },
  accountId: string,
  packetId: string,
): Promise<{ bundle: TBundle; packet: TPacket }> {
  const ref = SLUG.test(packetId) ? await deps.bundles.findPacket(packetId) : undefined;
  if (!ref || ref.accountId !== accountId) throw new NotFoundError('Packet not found.');
  const bundle = await getBundle(deps, accountId, ref.bundleId).catch(() => undefined);
  const packet = bundle?.packets.find((p) => p.id === packetId);
  if (!bundle || !packet) throw new NotFoundError('Packet not found.');
  return { bundle, packet };
}
