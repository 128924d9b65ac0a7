import { ZPacketPatchSchema } from '#shared/schemas/packet-patch';
import { ConflictError, type TFieldError, ValidationError } from '../errors';
import { parseInput } from '../parse-input';
import type { TAccountStore } from '../ports/accounts';
import type { TBundleStore } from '../ports/bundles';
import type { TPersonStore } from '../ports/persons';
import type { TClock, TIds } from '../ports/system';
import type { TActing } from './actor';
import { event } from './audit-event';
import type { TPacket } from './bundle';
import { changeBundle } from './change-bundle';
import { signsWithSender } from './delivery';
import { bundleAt } from './expiry';
import { findPacket } from './find-packet';
import { isFinished, isPacketFinished, isPacketReady, PACKET } from './lifecycle/status';
import { updateLinkedPerson } from './link-person';

/**
 * PATCH a packet: it must stay deliverable (email needs an email, phone a phone, SMS pin a
 * phone). A packet set for embedded signing may move to email, phone or kiosk; nothing is sent
 * then, the client sends a reminder when it wants the signer notified. Moving to kiosk keeps the
 * status: a link already sent by email or SMS stays valid until the bundle ends. The linked Person follows:
 * its name changes, new email or phone become channels.
 */
export async function updatePacket(
  deps: { bundles: TBundleStore; accounts: TAccountStore; persons: TPersonStore; clock: TClock; ids: TIds },
  { accountId, by }: TActing,
  packetId: string,
  body: unknown,
): Promise<TPacket> {
  const patch = parseInput(ZPacketPatchSchema, body);
  if (patch.signing_complete_redirect !== undefined) {
    const account = await deps.accounts.getAccount(accountId);
    if (!account?.features.signing_brands) {
      throw new ValidationError('Invalid input.', [
        {
          field: 'signing_complete_redirect',
          message: 'The signing brands feature is not enabled for this account.',
        },
      ]);
    }
  }
  const { bundle } = await findPacket(deps, accountId, packetId);
  let updated: TPacket | undefined;
  const now = deps.clock.now();
  await changeBundle(deps, accountId, bundle.id, (b) => {
    const p = b.packets.find((x) => x.id === packetId)!;
    // Decided as of now: a bundle past its expiry is finished, recorded or not.
    if (isFinished(bundleAt(b, now).status) || isPacketFinished(p.status)) {
      throw new ConflictError('The packet or its bundle is finished.');
    }
    const next: TPacket = {
      ...p,
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.email !== undefined ? { email: patch.email } : {}),
      ...(patch.phone !== undefined ? { phone: patch.phone } : {}),
      ...(patch.auth_sms !== undefined ? { authSms: patch.auth_sms } : {}),
      ...(patch.auth_selfie !== undefined ? { authSelfie: patch.auth_selfie } : {}),
      ...(patch.auth_id !== undefined ? { authId: patch.auth_id } : {}),
      ...(patch.signing_complete_redirect !== undefined
        ? { signingCompleteRedirect: patch.signing_complete_redirect }
        : {}),
      ...(patch.suppress_all !== undefined ? { suppressAll: patch.suppress_all } : {}),
      ...(patch.suppress_docs_ready !== undefined ? { suppressDocsReady: patch.suppress_docs_ready } : {}),
      ...(patch.suppress_signing !== undefined ? { suppressSigning: patch.suppress_signing } : {}),
      ...(patch.suppress_reminder !== undefined ? { suppressReminder: patch.suppress_reminder } : {}),
      ...(patch.deliver_via !== undefined ? { deliverVia: patch.deliver_via } : {}),
      ...(patch.language !== undefined ? { language: patch.language } : {}),
      ...(patch.allow_reassign !== undefined ? { allowReassign: patch.allow_reassign } : {}),
    };
    // A signer moved off signing with the sender who may sign now is waiting for a message: `se`.
    if (signsWithSender(p.deliverVia) && !signsWithSender(next.deliverVia) && isPacketReady(next.status))
      next.status = PACKET.sent;
    const errors: TFieldError[] = [];
    if (next.deliverVia === 'email' && !next.email)
      errors.push({ field: 'email', message: 'An email is required to deliver by email.' });
    if (next.deliverVia === 'phone' && !next.phone)
      errors.push({ field: 'phone', message: 'A phone is required to deliver by phone.' });
    if (next.authSms && !next.phone)
      errors.push({ field: 'phone', message: 'A phone is required for SMS pin authentication.' });
    if (errors.length > 0) throw new ValidationError('Invalid input.', errors);
    updated = next;
    const changed = Object.keys(patch).join(', ');
    return {
      ...b,
      packets: b.packets.map((x) => (x.id === packetId ? next : x)),
      events: [...b.events, event('packetUpdated', now.toISOString(), by, packetId, changed)],
    };
  });
  await updateLinkedPerson(deps, accountId, updated!.personId, {
    name: patch.name,
    email: patch.email,
    phone: patch.phone,
  });
  return updated!;
}
