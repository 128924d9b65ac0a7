// The sender hands a packet to another person: the same switch as a signer's own handover
// (lifecycle.reassign), so the packet keeps its place and fields, its signer generation moves on
// (every link and session of the earlier signer stops working at once, unlike a PATCH of the
// packet's email) and the new signer is sent the request. The sender needs no leave from the
// packet (`allow_reassign` is the signer's), and may give no reason.
import * as z from 'zod';
import type { TActing } from '../bundles/actor';
import { MAX_HANDOVERS, mayHandOn, signerGeneration, type TBundle, type TPacket } from '../bundles/bundle';
import { changeBundle } from '../bundles/change-bundle';
import { bundleAt } from '../bundles/expiry';
import { findPacket } from '../bundles/find-packet';
import { isOut, isPacketUp } from '../bundles/lifecycle/status';
import * as lifecycle from '../bundles/lifecycle/transitions';
import { linkPerson } from '../bundles/link-person';
import { ConflictError } from '../errors';
import { parseInput } from '../parse-input';
import type { TBundleStore } from '../ports/bundles';
import type { TPersonStore } from '../ports/persons';
import type { TClock, TIds } from '../ports/system';
import { checkNewSigner, identityOf, REASON_MAX, ZReassignSchema } from './reassign-packet';

export const ZHandOverSchema = ZReassignSchema.extend({
  reason: z.string().trim().max(REASON_MAX, `At most ${REASON_MAX} characters.`).optional(),
});

const CURRENT = 'This person signs this part now: name someone else.';

/** Refuses a packet that cannot change hands now: the bundle not out, the signer not up, or too often. */
function refuseUnlessUp(b: TBundle, p: TPacket, now: Date): void {
  const status = bundleAt(b, now).status;
  if (!isOut(status) || !isPacketUp(p.status)) {
    throw new ConflictError(
      `Only a signer whose turn it is can be replaced (bundle "${status}", packet "${p.status}").`,
    );
  }
  if (!mayHandOn(p)) throw new ConflictError(`This part changed hands ${MAX_HANDOVERS} times already.`);
}

export async function handOverPacket(
  deps: { bundles: TBundleStore; persons: TPersonStore; ids: TIds; clock: TClock },
  { accountId, by }: TActing,
  packetId: string,
  body: unknown,
): Promise<TPacket> {
  const input = parseInput(ZHandOverSchema, body);
  const to = identityOf(input);
  const { bundle, packet } = await findPacket(deps, accountId, packetId);
  // Checked before a Person is made for the new signer, and again on the bundle as it is written.
  refuseUnlessUp(bundle, packet, deps.clock.now());
  checkNewSigner(bundle.packets, packet, to, CURRENT);
  const personId = await linkPerson(deps, accountId, to, 'name');
  // The link first, as on create: a Person in a live bundle is not deleted.
  await deps.bundles.linkPerson(accountId, personId, bundle.id);
  const now = deps.clock.now();
  const changed = await changeBundle(deps, accountId, bundle.id, (b) => {
    const p = b.packets.find((x) => x.id === packetId)!;
    const handover = { from: identityOf(p), to, reason: input.reason ?? '', at: now.toISOString() };
    return lifecycle.reassign(
      b,
      packetId,
      signerGeneration(p),
      handover,
      personId,
      (current) => {
        refuseUnlessUp(b, current, now);
        checkNewSigner(b.packets, current, to, CURRENT);
      },
      by,
    );
  });
  return changed.packets.find((x) => x.id === packetId)!;
}
