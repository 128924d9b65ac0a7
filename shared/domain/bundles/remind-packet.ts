import { ConflictError, ValidationError } from '../errors';
import type { TBundleStore } from '../ports/bundles';
import type { TClock } from '../ports/system';
import type { TActing } from './actor';
import { event } from './audit-event';
import type { TPacket } from './bundle';
import { changeBundle } from './change-bundle';
import { bundleAt } from './expiry';
import { findPacket } from './find-packet';
import { isDraft, isFinished, isPacketFinished, PACKET } from './lifecycle/status';

const HOUR_MS = 3_600_000;

/**
 * Records a reminder `by` asked for (the sender; the scheduler's are apply-due-work.ts's); its
 * audit event sets off the message (EFFECTS.reminderSent) from the same write, so a reminder is
 * sent exactly when it is recorded.
 */
export async function remindPacket(
  deps: { bundles: TBundleStore; clock: TClock },
  { accountId, by }: TActing,
  packetId: string,
): Promise<TPacket> {
  const { bundle } = await findPacket(deps, accountId, packetId);
  const now = deps.clock.now();
  const at = now.toISOString();
  let reminded: TPacket | undefined;
  await changeBundle(deps, accountId, bundle.id, (stored) => {
    // Decided on the bundle as it stands now: past its expiry it is expired, recorded or not.
    const b = bundleAt(stored, now);
    const p = b.packets.find((x) => x.id === packetId)!;
    if (isFinished(b.status) || isDraft(b.status) || isPacketFinished(p.status) || p.status === PACKET.new) {
      throw new ConflictError(`No reminder can be sent now (bundle "${b.status}", packet "${p.status}").`);
    }
    if (p.lastReminderAt && now.getTime() - Date.parse(p.lastReminderAt) < HOUR_MS) {
      throw new ValidationError('A reminder was sent less than an hour ago.', [
        { field: 'non_field_errors', message: 'At most one reminder an hour.' },
      ]);
    }
    reminded = { ...p, lastReminderAt: at };
    return {
      ...b,
      packets: b.packets.map((x) => (x.id === packetId ? reminded! : x)),
      events: [...b.events, event('reminderSent', at, by, packetId, p.name)],
    };
  });
  return reminded!;
}
