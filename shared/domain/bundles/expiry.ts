// When a bundle expires, decided in one place from `expires` and the clock. The scheduler records
// an expiry up to five minutes late (it runs every five minutes), so every operation that would
// start or continue work on a bundle decides from the time itself, through `bundleAt`, and answers
// exactly as it does once the scheduler has recorded the `ex`.
import type { TBundle, TPacket } from './bundle';
import { BUNDLE, isOut, isPacketOpen, PACKET } from './lifecycle/status';

/** The bundle's expiry (epoch ms), if it has one and is still open to signing (`se`, `st`). */
export function expiresAt(b: Pick<TBundle, 'status' | 'expires'>): number | undefined {
  if (!isOut(b.status) || !b.expires) return undefined;
  const at = Date.parse(b.expires);
  return Number.isNaN(at) ? undefined : at;
}

/** Whether the bundle is open to signing and its expiry has come at `now`, recorded or not. */
export function isPastExpiry(b: Pick<TBundle, 'status' | 'expires'>, now: Date): boolean {
  const at = expiresAt(b);
  return at !== undefined && at <= now.getTime();
}

/**
 * The bundle as it stands at `now`: past its expiry it is `ex`, its open packets `ex` with it,
 * as the scheduler will record it; otherwise the very object given. For deciding only: a change
 * is still applied to the bundle as stored (the scheduler adds the `ex` event when it records it).
 */
export function bundleAt(b: TBundle, now: Date): TBundle {
  if (!isPastExpiry(b, now)) return b;
  return {
    ...b,
    status: BUNDLE.expired,
    packets: b.packets.map((p): TPacket => (isPacketOpen(p.status) ? { ...p, status: PACKET.expired } : p)),
  };
}
