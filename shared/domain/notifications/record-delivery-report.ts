import { SYSTEM } from '../bundles/actor';
import { event } from '../bundles/audit-event';
import { changeBundle } from '../bundles/change-bundle';
import { ServiceError } from '../errors';
import type { TBundleStore } from '../ports/bundles';
import type { TNotificationStore } from '../ports/notifications';
import type { TClock } from '../ports/system';
import { maskRecipient, type TDeliveryReport } from './notification';

/** A report names a message this service has no record of (yet): the caller retries it later. */
export class UnknownMessageError extends ServiceError {
  override name = 'UnknownMessageError';
}

const WHAT: Record<TDeliveryReport['kind'], string> = {
  bounce: 'bounced',
  complaint: 'was marked as spam by the recipient',
  reject: 'was refused by the mail service',
};

/**
 * A provider's report that an accepted message did not reach its recipient (a bounce), or
 * upset them (a complaint), becomes an `nb` audit event on the bundle it belongs to, found from
 * the provider's message id kept when it was sent. A report delivered twice is recorded once
 * (the kinds recorded are noted on the sent message after the bundle is written).
 */
export async function recordDeliveryReport(
  deps: { bundles: TBundleStore; notifications: TNotificationStore; clock: TClock },
  report: TDeliveryReport,
): Promise<'recorded' | 'duplicate'> {
  const sent = await deps.notifications.findSent(report.providerMessageId);
  if (!sent) throw new UnknownMessageError(`No sent message ${report.providerMessageId}`);
  if (sent.reported?.includes(report.kind)) return 'duplicate';
  const what = `${sent.channel === 'email' ? 'email' : 'SMS'} to ${maskRecipient(sent.recipient)} ${WHAT[report.kind]}`;
  const at = deps.clock.now().toISOString();
  await changeBundle(deps, sent.accountId, sent.bundleId, (b) => ({
    ...b,
    events: [
      ...b.events,
      event('messageBounced', at, SYSTEM, sent.packetId, report.detail ? `${what} (${report.detail})` : what),
    ],
  }));
  await deps.notifications.noteReport(report.providerMessageId, report.kind);
  return 'recorded';
}
