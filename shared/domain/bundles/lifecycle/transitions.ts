// How a bundle moves through its life, as pure functions of the bundle and the moment: each
// takes the bundle as stored and answers the bundle after the change, with its audit events
// (what each sets off is the EFFECTS table), or refuses with the error the caller answers.
// Use cases apply them inside changeBundle, so a retry after a lost race decides again on the
// newer state. Who signs next and how open signers are closed are written once, here. Each
// event records who acted: a signer for what they do, `by` (the caller's actor) for a sender's
// change, the scheduler for expiry, and the service itself for what follows from any of those
// (a signer's turn coming, the bundle complete or cancelled by a decline, documents ready).
import { ConflictError } from '#shared/domain/errors';
import { bySigner, SCHEDULER, SYSTEM, type TActor } from '../actor';
import { event } from '../audit-event';
import type { TBundle, TBundleError, TBundleEvent, THandover, TPacket, TSignerIdentity } from '../bundle';
import { signsWithSender } from '../delivery';
import { bundleAt } from '../expiry';
import { roleOf } from '../packet-roles';
import {
  BUNDLE,
  hasOpened,
  hasSigned,
  isBundleComplete,
  isDraft,
  isFinished,
  PACKET,
  type TPacketStatus,
} from './status';

/** Which signers may sign now: everyone not finished, or with in_order the lowest order left. */
export function signersUpNow(bundle: Pick<TBundle, 'inOrder' | 'packets'>): TPacket[] {
  const open = bundle.packets.filter((p) => !hasSigned(p.status));
  if (!bundle.inOrder) return open;
  const first = Math.min(...open.map((p) => p.order));
  return open.filter((p) => p.order === first);
}

/**
 * The signers whose turn has come and who are still `ne` get their request: `se` (notified by
 * email or SMS, `ps`) or `re` (embedded or in person: nothing is sent, `pr`).
 */
function bringUp(
  packets: TPacket[],
  inOrder: boolean,
  at: string,
): { packets: TPacket[]; events: TBundleEvent[] } {
  const up = new Set(signersUpNow({ inOrder, packets }).map((p) => p.id));
  const events: TBundleEvent[] = [];
  const next = packets.map((p): TPacket => {
    if (!up.has(p.id) || p.status !== PACKET.new) return p;
    const status: TPacketStatus = signsWithSender(p.deliverVia) ? PACKET.ready : PACKET.sent;
    const kind =
      status === PACKET.sent
        ? 'packetSent'
        : p.deliverVia === 'kiosk'
          ? 'packetReadyInPerson'
          : 'packetReady';
    events.push(event(kind, at, SYSTEM, p.id, p.name));
    return { ...p, status, ...(status === PACKET.sent ? { sentAt: at } : {}) };
  });
  return { packets: next, events };
}

/** Every signer who has not signed ends with the bundle, as `status`. */
const closeOpen = (packets: TPacket[], status: TPacketStatus) =>
  packets.map((p): TPacket => (hasSigned(p.status) ? p : { ...p, status }));

/** Sending a draft (`by` sends it): the bundle `se`; the signers whose turn it is get their request. */
export function send(bundle: TBundle, now: string, by: TActor): TBundle {
  if (!isDraft(bundle.status))
    throw new ConflictError(`Only a draft can be sent; this bundle is "${bundle.status}".`);
  const up = bringUp(bundle.packets, bundle.inOrder, now);
  return {
    ...bundle,
    status: BUNDLE.sent,
    sent: now,
    packets: up.packets,
    events: [...bundle.events, event('sent', now, by), ...up.events],
  };
}

/**
 * A signer opened their link: the packet `st` (and the bundle, if only sent), with `pv`. No change
 * when it was opened before, or when `canOpen` says the signer may not sign now. A viewer is done
 * once they open it (`rd`, as completePacket).
 */
export function openPacket(
  b: TBundle,
  packetId: string,
  at: string,
  canOpen: (p: TPacket) => boolean,
): TBundle {
  const p = b.packets.find((x) => x.id === packetId);
  if (!p || !canOpen(p) || hasOpened(p.status)) return b;
  const opened: TBundle = {
    ...b,
    status: b.status === BUNDLE.sent ? BUNDLE.started : b.status,
    packets: b.packets.map((x) => (x.id === p.id ? { ...x, status: PACKET.started, lastAccessedAt: at } : x)),
    events: [...b.events, event('viewed', at, bySigner(p.id), p.id, p.name)],
  };
  // A viewer has nothing to do but read: opening is their whole part, in the same write.
  return roleOf(p) === 'viewer' ? completePacket(opened, p.id, at, () => undefined) : opened;
}

/** The event that says a packet is done, by what its person did. */
const FINISHED_AS = { signer: 'packetCompleted', approver: 'approved', viewer: 'read' } as const;

/**
 * A signer finished: the packet `co`; the bundle `co` when it was the last one, exactly once
 * however many finish at the same moment; with in_order, the next signers get their request.
 * A packet that finished already is left as it is. `check` refuses a signer who may not sign.
 */
export function completePacket(
  b: TBundle,
  packetId: string,
  at: string,
  check: (p: TPacket) => void,
): TBundle {
  const p = b.packets.find((x) => x.id === packetId)!;
  if (hasSigned(p.status)) return b;
  check(p);
  const packets = b.packets.map(
    (x): TPacket => (x.id === packetId ? { ...x, status: PACKET.complete, completedAt: at } : x),
  );
  const events = [event(FINISHED_AS[roleOf(p)], at, bySigner(packetId), packetId, p.name)];
  if (packets.every((x) => hasSigned(x.status))) {
    return {
      ...b,
      packets,
      status: BUNDLE.complete,
      completedAt: at,
      events: [...b.events, ...events, event('completed', at, SYSTEM)],
    };
  }
  const up = bringUp(packets, b.inOrder, at);
  return { ...b, packets: up.packets, events: [...b.events, ...events, ...up.events] };
}

/**
 * A signer declined with a reason (an approver rejected: `rj` for `pd`): the bundle and every
 * open packet `ca`, with `pd` and `ca`.
 */
export function decline(
  b: TBundle,
  packetId: string,
  at: string,
  reason: string,
  check: (p: TPacket) => void,
): TBundle {
  const p = b.packets.find((x) => x.id === packetId)!;
  check(p);
  return {
    ...b,
    status: BUNDLE.cancelled,
    packets: closeOpen(b.packets, PACKET.cancelled),
    events: [
      ...b.events,
      event(
        roleOf(p) === 'approver' ? 'rejected' : 'declined',
        at,
        bySigner(p.id),
        p.id,
        `${p.name}: ${reason}`,
      ),
      event('cancelled', at, SYSTEM),
    ],
  };
}

/** `by` cancels: the bundle and its open packets `ca`; a finished bundle cannot be (409). */
export function cancel(b: TBundle, now: Date, by: TActor): TBundle {
  // A bundle past its expiry is finished (expired), whether or not the scheduler recorded it.
  const status = bundleAt(b, now).status;
  if (isFinished(status)) throw new ConflictError(`The bundle is already finished ("${status}").`);
  return {
    ...b,
    status: BUNDLE.cancelled,
    packets: closeOpen(b.packets, PACKET.cancelled),
    events: [...b.events, event('cancelled', now.toISOString(), by)],
  };
}

/** Its expiry came (the scheduler saw it): the bundle and its open packets `ex`, with `ex` (bundleAt decides when). */
export function expire(b: TBundle, now: Date): TBundle {
  return { ...bundleAt(b, now), events: [...b.events, event('expired', now.toISOString(), SCHEDULER)] };
}

/**
 * Its final documents could not be made: a complete bundle whose documents are not ready
 * becomes `fa`, with the error on `errors` and a `fa` event; any other is left as it is.
 */
export function fail(b: TBundle, at: string, error: TBundleError, errors: TBundleError[]): TBundle {
  if (b.docsReady || !isBundleComplete(b.status)) return b;
  return {
    ...b,
    status: BUNDLE.failed,
    errors,
    events: [...b.events, event('failed', at, SYSTEM, undefined, error.message)],
  };
}

/** Its final documents are ready: `docsReady` and `dk`, once, on a complete bundle only. */
export function markDocsReady(b: TBundle, at: string, detail: string, errors: TBundleError[]): TBundle {
  if (b.docsReady || !isBundleComplete(b.status)) return b;
  return {
    ...b,
    docsReady: true,
    errors,
    events: [...b.events, event('docsReady', at, SYSTEM, undefined, detail)],
  };
}

/** A signer as the audit trail names them: `Name <email>`, else `Name (phone)`. */
export function identityLabel(s: TSignerIdentity): string {
  if (s.email) return `${s.name} <${s.email}>`;
  return s.phone ? `${s.name} (${s.phone})` : s.name;
}

const sameHandover = (a: THandover, b: THandover) =>
  JSON.stringify([a.from, a.to, a.reason]) === JSON.stringify([b.from, b.to, b.reason]);

/**
 * A signer handed their packet to another person: the packet names the new signer (their
 * Person, their email or phone, delivered by email if they have one, else by SMS), its signer
 * generation moves on (so the earlier signer's links and sessions stop working), and the new
 * signer is sent the request (`se`, `ps`) after the `ra` event. `generation` is the one the
 * handing signer held: a packet already handed on from it is left as it is when the handover is
 * this very one (a retried request), else refused. `check` refuses a signer who may not sign.
 * `by` is who handed it on: the signer, or the sender (signing/hand-over-packet.ts), whose
 * handover may give no reason.
 */
export function reassign(
  b: TBundle,
  packetId: string,
  generation: number,
  handover: THandover,
  personId: string,
  check: (p: TPacket) => void,
  by: TActor = bySigner(packetId),
): TBundle {
  const p = b.packets.find((x) => x.id === packetId)!;
  const done = p.handovers ?? [];
  if (done.length === generation + 1 && sameHandover(done[generation]!, handover)) return b;
  if (done.length !== generation) throw new ConflictError('This packet was already handed to someone else.');
  check(p);
  const { to } = handover;
  const next: TPacket = {
    ...p,
    name: to.name,
    personId,
    deliverVia: to.email ? 'email' : 'phone',
    status: PACKET.sent,
    sentAt: handover.at,
    handovers: [...done, handover],
    // The new signer always gets their link from the service: the sender may not know them.
    // What the sender suppressed beyond the request stays suppressed.
    suppressAll: false,
    suppressSigning: false,
    suppressDocsReady: p.suppressAll || p.suppressDocsReady,
    suppressReminder: p.suppressAll || p.suppressReminder,
  };
  delete next.email;
  delete next.phone;
  delete next.lastAccessedAt;
  if (to.email) next.email = to.email;
  if (to.phone) next.phone = to.phone;
  const moved = `${identityLabel(handover.from)} to ${identityLabel(to)}`;
  const detail = handover.reason ? `${moved}: ${handover.reason}` : moved;
  return {
    ...b,
    packets: b.packets.map((x) => (x.id === packetId ? next : x)),
    events: [
      ...b.events,
      event('reassigned', handover.at, by, packetId, detail),
      event('packetSent', handover.at, SYSTEM, packetId, to.name),
    ],
  };
}
