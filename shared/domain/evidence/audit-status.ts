import { CHAIN_START, eventHash, verifyChain } from '../bundles/audit-chain';
import type { TBundle } from '../bundles/bundle';
import type { TBundleStore } from '../ports/bundles';
import type { TFileHashEntry } from './evidence-files';

/**
 * Whether the bundle's audit trail still holds for a sealed file: the whole chain recomputed
 * from every event (verifyChain) matches the head the bundle keeps, and the events the file
 * printed are still those events (the chain after the first `eventCount` events hashes to the
 * head the file was made with). Any changed, removed or reordered event fails one or the other.
 */
export async function auditTrailIntact(
  deps: { bundles: TBundleStore },
  b: TBundle,
  entry: Pick<TFileHashEntry, 'chainHead' | 'eventCount'>,
): Promise<boolean> {
  const events = await deps.bundles.events(b);
  if (!verifyChain(events, b.chainHead).intact) return false;
  if (events.length < entry.eventCount) return false;
  const issuedHead = entry.eventCount === 0 ? CHAIN_START : eventHash(events[entry.eventCount - 1]!);
  return issuedHead === entry.chainHead;
}
