import { ConflictError } from '../errors';
import type { TBundle, TBundleEvent, TPacket } from './bundle';
import { EVENT_KINDS } from './event-kinds';

export function event(
  kind: keyof typeof EVENT_KINDS,
  timestamp: string,
  packetId?: string,
  detail?: string,
): TBundleEvent {
  const k = EVENT_KINDS[kind];
  // Details name fields, tags or signers; they are cut so that an event stays small.
  const shown = detail && detail.length > 300 ? `${detail.slice(0, 299)}…` : detail;
  return {
    kind: k.code,
    description: shown ? `${k.text}: ${shown}` : k.text,
    timestamp,
    ...(packetId ? { packetId } : {}),
  };
}

/** Which signers may sign now: everyone, or with in_order the lowest order not yet complete. */
export function signersUpNow(bundle: Pick<TBundle, 'inOrder' | 'packets'>): TPacket[] {
  const open = bundle.packets.filter((p) => p.status !== 'co');
  if (!bundle.inOrder) return open;
  const first = Math.min(...open.map((p) => p.order));
  return open.filter((p) => p.order === first);
}

/**
 * Sending: the bundle becomes `se`; signers who may sign now become `se` (notified by email or
 * SMS) or `re` (embedded: nothing is sent), the others stay `ne` until earlier signers finish.
 */
export function applySend(bundle: TBundle, now: string): TBundle {
  if (bundle.status !== 'dr')
    throw new ConflictError(`Only a draft can be sent; this bundle is "${bundle.status}".`);
  const up = new Set(signersUpNow(bundle).map((p) => p.id));
  const events = [event('sent', now)];
  const packets = bundle.packets.map((p): TPacket => {
    if (!up.has(p.id)) return p;
    const status = p.deliverVia === 'embed' ? 're' : 'se';
    events.push(event(status === 're' ? 'packetReady' : 'packetSent', now, p.id, p.name));
    return { ...p, status, ...(status === 'se' ? { sentAt: now } : {}) };
  });
  return { ...bundle, status: 'se', sent: now, packets, events: [...bundle.events, ...events] };
}

/**
 * `next` with `sentAt` set on each packet whose signing request (`ps`) is among the audit events
 * appended since `previous`, whoever appended it (sending, a signer's turn coming in order).
 */
export function withRequestTimes(previous: TBundle, next: TBundle): TBundle {
  const requested = new Map<string, string>();
  for (const e of next.events.slice(previous.events.length)) {
    if (e.kind === EVENT_KINDS.packetSent.code && e.packetId) requested.set(e.packetId, e.timestamp);
  }
  if (requested.size === 0) return next;
  return {
    ...next,
    packets: next.packets.map((p) => {
      const at = requested.get(p.id);
      return at && p.sentAt !== at ? { ...p, sentAt: at } : p;
    }),
  };
}

/**
 * Usage counts bundles sent, per calendar month (UTC); test bundles never count. Counted after
 * the send is written, so a crash in between loses one count rather than counting twice.
 */
export async function countUsage(
  deps: { accounts: { countSentBundle(accountId: string, month: string): Promise<void> } },
  b: TBundle,
): Promise<void> {
  if (b.isTest || !b.sent) return;
  await deps.accounts.countSentBundle(b.accountId, b.sent.slice(0, 7));
}
