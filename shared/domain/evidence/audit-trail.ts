import { resolveLanguage } from '../../i18n/languages';
import type { TAuditEntry, TAuditPage } from '../../pdf/evidence-types';
import type { TBundle, TBundleEvent, TDocument, TPacket } from '../bundles/bundle';
import { EVENT_KINDS } from '../bundles/event-kinds';
import type { TSigningRecord } from '../signing/signing-record';
import { eventWords } from './stored-words';

/**
 * Audit kinds a signer does themselves (opening, starting in person, finishing, declining, handing
 * on): their steps give the address.
 */
const SIGNER_ACTIONS = new Set<string>(
  [
    EVENT_KINDS.viewed,
    EVENT_KINDS.inPerson,
    EVENT_KINDS.packetCompleted,
    EVENT_KINDS.declined,
    EVENT_KINDS.reassigned,
  ].map((k) => k.code),
);

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
 * stored-words.ts), who (the signer an event is about, by name; the sender or the service
 * otherwise) and, for what a signer did, the IP address their signing record logged for that
 * very moment.
 */
export function auditEntries(
  events: TBundleEvent[],
  packets: TPacket[],
  records: TSigningRecord[],
): TAuditEntry[] {
  const byId = new Map(packets.map((p) => [p.id, p]));
  const stepsOf = new Map(records.map((r) => [r.packetId, r.steps]));
  return events.map((e) => {
    const packet = e.packetId ? byId.get(e.packetId) : undefined;
    const ip =
      e.packetId && SIGNER_ACTIONS.has(e.kind)
        ? stepsOf.get(e.packetId)?.find((s) => s.at === e.timestamp)?.ip
        : undefined;
    return {
      timestamp: e.timestamp,
      description: eventWords(e, packet),
      actor: actorOf(e, packet),
      ...(ip ? { ip } : {}),
    };
  });
}

/** What the sender does through the API; the rest is the service's (requests, reminders it sends). */
const SENDER_KINDS = new Set<string>(
  [
    EVENT_KINDS.created,
    EVENT_KINDS.drafted,
    EVENT_KINDS.sent,
    EVENT_KINDS.updated,
    EVENT_KINDS.tagsChanged,
    EVENT_KINDS.cancelled,
    EVENT_KINDS.interimRequested,
    EVENT_KINDS.packetUpdated,
  ].map((k) => k.code),
);

function actorOf(e: TBundleEvent, packet: TPacket | undefined): string {
  if (packet && SIGNER_ACTIONS.has(e.kind)) return holderAt(packet, e);
  if (e.kind === 'rm') return e.description.includes('(automatic)') ? 'service' : 'sender';
  return SENDER_KINDS.has(e.kind) ? 'sender' : 'service';
}

export const signersOf = (packets: TPacket[]): TAuditPage['signers'] =>
  packets.map((p) => ({
    name: p.name,
    ...(p.email ? { email: p.email } : {}),
    ...(p.phone ? { phone: p.phone } : {}),
    ...(p.completedAt ? { completedAt: p.completedAt } : {}),
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
