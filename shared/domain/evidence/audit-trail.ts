import { resolveLanguage } from '#shared/i18n/languages';
import type { TAuditEntry, TAuditPage } from '#shared/pdf/evidence-types';
import { isSender } from '../bundles/actor';
import type { TBundle, TBundleEvent, TDocument, TPacket } from '../bundles/bundle';
import { EVENT_KINDS } from '../bundles/event-kinds';
import type { TSigningRecord } from '../signing/signing-record';
import { legacyActor } from './legacy-events';
import { eventWords } from './stored-words';

/**
 * Who held the packet when the event happened: the signer it names now, or, before a handover,
 * the one who handed it on (a handover's own event is theirs too).
 */
function holderAt(packet: TPacket, e: TBundleEvent): string {
  const later = (packet.handovers ?? []).find((h) =>
    e.kind === EVENT_KINDS.reassigned.code ? h.at >= e.timestamp : h.at > e.timestamp,
  );
  return later?.from.name ?? packet.name;
}

/**
 * The bundle's audit events as the evidence prints them: what happened (in the page's language,
 * stored-words.ts), who acted (whoActed) and, for what a signer did, the IP address their
 * signing record logged for that very moment.
 */
export function auditEntries(
  events: TBundleEvent[],
  packets: TPacket[],
  records: TSigningRecord[],
): TAuditEntry[] {
  const byId = new Map(packets.map((p) => [p.id, p]));
  const stepsOf = new Map(records.map((r) => [r.packetId, r.steps]));
  return events.map((e) => {
    const who = whoActed(e, byId);
    const ip = who.signer ? stepsOf.get(who.signer.id)?.find((s) => s.at === e.timestamp)?.ip : undefined;
    return {
      timestamp: e.timestamp,
      description: eventWords(e, e.packetId ? byId.get(e.packetId) : undefined),
      ...(who.actor ? { actor: who.actor } : {}),
      ...(ip ? { ip } : {}),
    };
  });
}

/**
 * Who acted, as the evidence prints it: a signer by name (the one who held the packet then),
 * `sender` (through the API, as a user, or by the sender's portal link) or `service` (the
 * scheduler, the operator, the service itself). Read from the event's actor; an event stored
 * before events recorded one is read by the legacy rules (legacy-events.ts).
 */
function whoActed(e: TBundleEvent, byId: Map<string, TPacket>): { actor?: string; signer?: TPacket } {
  if (!e.actor) {
    const packet = e.packetId ? byId.get(e.packetId) : undefined;
    const legacy = legacyActor(e, packet !== undefined);
    return legacy === 'signer' && packet ? { actor: holderAt(packet, e), signer: packet } : { actor: legacy };
  }
  if (e.actor.type === 'signer') {
    const packet = byId.get(e.actor.packetId);
    return packet ? { actor: holderAt(packet, e), signer: packet } : {};
  }
  return { actor: isSender(e.actor) ? 'sender' : 'service' };
}

export const signersOf = (packets: TPacket[]): TAuditPage['signers'] =>
  packets.map((p) => ({
    name: p.name,
    ...(p.email ? { email: p.email } : {}),
    ...(p.phone ? { phone: p.phone } : {}),
    ...(p.completedAt ? { completedAt: p.completedAt } : {}),
    ...(p.role ? { role: p.role } : {}),
  }));

/** The audit page appended to a final (or interim) document, in the bundle's language (else English). */
export function auditPage(
  b: TBundle,
  doc: Pick<TDocument, 'name' | 'sha256'>,
  events: TAuditEntry[],
  chainHead: string,
): TAuditPage {
  return {
    language: resolveLanguage(b.language),
    bundleId: b.id,
    label: b.label,
    documentName: doc.name,
    originalSha256: doc.sha256,
    signers: signersOf(b.packets),
    events,
    chainHead,
    ...(b.completedAt ? { completedAt: b.completedAt } : {}),
  };
}
