// What a packet's `role` lets its person do, written once. A signer (the default) fills and
// signs; an approver reads everything and approves or rejects with a reason (a rejection ends
// the bundle as a decline does); a viewer follows a link when their step comes and reads, and
// is done once they open it. Approvers and viewers fill nothing: no field may name them, and a
// field without editors belongs to the signers only.
import type { TPacketRequest } from '#shared/schemas/bundle-request';
import type { TPacketRole } from '#shared/schemas/vocabulary';
import type { TFieldError } from '../errors';
import type { TPacketDraft } from './build-packets';
import type { TPacket } from './bundle';

export type { TPacketRole };

/** The packet's role: `signer` when the request named none. */
export const roleOf = (p: Pick<TPacket, 'role'> | Pick<TPacketRequest, 'role'>): TPacketRole =>
  p.role ?? 'signer';

/** Whether the packet fills and signs (its fields are its own). */
export const fillsFields = (p: Pick<TPacket, 'role'>): boolean => roleOf(p) === 'signer';

/**
 * The fields that name an approver or a viewer among their editors, each reported with its path
 * (`documents[0].fields[2].editors[0]`): those roles have nothing to fill.
 */
export function readerFieldErrors(
  drafts: readonly TPacketDraft[],
  documents: readonly { path?: string; fields: readonly { editors: readonly string[] }[] }[],
): TFieldError[] {
  const readers = new Map(
    drafts.filter((d) => roleOf(d.request) !== 'signer').map((d) => [d.key, roleOf(d.request)]),
  );
  if (readers.size === 0) return [];
  const errors: TFieldError[] = [];
  documents.forEach((d, di) => {
    d.fields.forEach((f, fi) => {
      f.editors.forEach((e, ei) => {
        const key = e.startsWith('-') ? e.slice(1) : e;
        const role = readers.get(key);
        if (role)
          errors.push({
            field: `${d.path ?? `documents[${di}]`}.fields[${fi}].editors[${ei}]`,
            message: `"${key}" is ${role === 'approver' ? 'an approver' : 'a viewer'}: only signers fill fields. Name a signer, or give "${key}" the role "signer".`,
          });
      });
    });
  });
  return errors;
}

/** Where a packet stands in the signing order: step `step` of `steps`, with the others in it. */
export interface TOrderStep {
  step: number;
  steps: number;
  /** The names of the other packets sharing this step, in packet order. */
  alongside: string[];
}

/**
 * The packet's step, when the bundle signs in order and has more than one step: packets sharing
 * an `order` are one step (they are sent their requests together, and the next step starts once
 * all of them are done, transitions.ts), numbered from 1 in order of `order`.
 */
export function signingStepOf(
  bundle: { inOrder: boolean; packets: readonly Pick<TPacket, 'id' | 'order' | 'name'>[] },
  packetId: string,
): TOrderStep | undefined {
  if (!bundle.inOrder) return undefined;
  const orders = [...new Set(bundle.packets.map((p) => p.order))].sort((a, b) => a - b);
  const packet = bundle.packets.find((p) => p.id === packetId);
  if (!packet || orders.length < 2) return undefined;
  return {
    step: orders.indexOf(packet.order) + 1,
    steps: orders.length,
    alongside: bundle.packets.filter((p) => p.order === packet.order && p.id !== packetId).map((p) => p.name),
  };
}
