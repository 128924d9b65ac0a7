import type { TSubscribableEventType } from '#shared/schemas/vocabulary';
import type { TBundle, TSignerIdentity } from '../bundles/bundle';
import type { TBundleStore } from '../ports/bundles';
import type { TQueue } from '../ports/queue';
import type { TClock } from '../ports/system';
import type { TWebhookEventStore, TWebhookStore } from '../ports/webhooks';
import type { TWebhook } from '../webhooks/webhook';
import { type TWebhookEvent, webhookEventId } from '../webhooks/webhook-event';
import type { TDocumentJob } from './jobs/document-jobs';
import type { TNotificationJob } from './jobs/notifications';
import type { TWebhookJob } from './jobs/webhook-deliveries';
import type { TOutboxEntry } from './outbox-entry';

export type TPublishDeps = {
  bundles: TBundleStore;
  webhooks: TWebhookStore;
  webhookEvents: TWebhookEventStore;
  queue: TQueue;
  clock: TClock;
};

/**
 * The call's `payload` object: `bundle_id`, and `packet_id` for packet events
 * (docs/api-decisions.md, Webhooks); `custom_key` is added so integrators can match the bundle to
 * their own record without another request. packet_reassigned also says who handed the packet to
 * whom and why (`from`, `to`: name, email, phone; `reason`).
 */
function payloadOf(bundle: TBundle, entry: TOutboxEntry): Record<string, unknown> {
  return {
    bundle_id: bundle.id,
    ...(entry.packetId ? { packet_id: entry.packetId } : {}),
    ...(bundle.customKey ? { custom_key: bundle.customKey } : {}),
    ...(entry.type === 'packet_reassigned' ? handoverPayload(bundle, entry) : {}),
  };
}

const signerPayload = (s: TSignerIdentity) => ({ name: s.name, email: s.email ?? '', phone: s.phone ?? '' });

/** The handover the entry records: the packet's, made at the entry's moment. */
function handoverPayload(bundle: TBundle, entry: TOutboxEntry) {
  const handovers = bundle.packets.find((p) => p.id === entry.packetId)?.handovers ?? [];
  const h = handovers.find((x) => x.at === entry.date) ?? handovers.at(-1);
  return h ? { from: signerPayload(h.from), to: signerPayload(h.to), reason: h.reason } : {};
}

/**
 * Who hears of an event: enabled webhooks subscribed to its type get it delivered; webhooks the
 * service disabled for failing (not the sender) still get it logged, so it can be redelivered
 * once their receiver is back. A webhook the sender switched off gets nothing.
 */
export const listens = (w: TWebhook, type: TSubscribableEventType) =>
  w.eventTypes.includes(type) && (w.enabled || w.disabledAt !== undefined);

/**
 * Publishes a bundle's outbox: for each webhook event and each webhook that listens, a
 * WebhookEvent is logged and a delivery job queued; each notification is queued for the
 * notifications worker, each evidence job for the document worker; then the outbox is emptied. Every step can
 * be repeated safely (the event id is derived from the bundle, the entry and the webhook; a job is
 * queued until its event is marked queued), so a publishing that dies part-way is simply run
 * again: by the outbox relay, given the stream record again or the bundle's next one, or by the
 * sweeper.
 */
export async function publishBundleEvents(deps: TPublishDeps, bundle: TBundle): Promise<void> {
  const outbox = bundle.outbox ?? [];
  if (outbox.length === 0) return;
  const hooks = await deps.webhooks.all(bundle.accountId);
  const created = deps.clock.now().toISOString();
  const work: Promise<void>[] = [];
  for (const entry of outbox) {
    if (entry.notify) work.push(queueNotification(deps, bundle, entry));
    if (entry.document) work.push(queueDocumentJob(deps, bundle, entry));
    const type = entry.type;
    if (!type) continue;
    for (const hook of hooks.filter((w) => listens(w, type))) {
      const event: TWebhookEvent = {
        id: webhookEventId(bundle.id, entry.seq, hook.id),
        accountId: bundle.accountId,
        webhookId: hook.id,
        type,
        created,
        eventDate: entry.date,
        bundleId: bundle.id,
        ...(entry.packetId ? { packetId: entry.packetId } : {}),
        payload: JSON.stringify(payloadOf(bundle, entry)),
        status: 0,
        success: false,
        deliveries: [],
        queued: false,
      };
      work.push(logAndQueue(deps, event, hook.enabled));
    }
  }
  await Promise.all(work);
  await deps.bundles.clearOutbox(bundle);
}

/**
 * Queued again if publishing is repeated; the worker sends each `<bundle>#<seq>` once (see the
 * notifications worker).
 */
async function queueNotification(deps: TPublishDeps, bundle: TBundle, entry: TOutboxEntry): Promise<void> {
  const job: TNotificationJob = {
    type: entry.notify!,
    accountId: bundle.accountId,
    bundleId: bundle.id,
    ...(entry.packetId ? { packetId: entry.packetId } : {}),
    seq: entry.seq,
    date: entry.date,
  };
  await deps.queue.send('notifications', { ...job });
}

/** Queued again if publishing is repeated; the document worker's work is idempotent per bundle. */
async function queueDocumentJob(deps: TPublishDeps, bundle: TBundle, entry: TOutboxEntry): Promise<void> {
  const job: TDocumentJob = {
    type: entry.document!,
    accountId: bundle.accountId,
    bundleId: bundle.id,
    seq: entry.seq,
    date: entry.date,
  };
  await deps.queue.send('documentJobs', { ...job });
}

/** Logs one webhook's copy of an event once (its id is derived) and queues its delivery once. */
export async function logAndQueue(
  deps: Pick<TPublishDeps, 'webhookEvents' | 'queue'>,
  fresh: TWebhookEvent,
  deliver: boolean,
): Promise<void> {
  const { event } = await deps.webhookEvents.createOnce(fresh);
  if (!deliver || event.queued) return;
  const job: TWebhookJob = { accountId: event.accountId, eventId: event.id };
  await deps.queue.send('webhookDeliveries', { ...job });
  await deps.webhookEvents.markQueued(event);
}

/** How long the outbox relay has to publish a change before the sweeper takes its outbox over. */
export const SWEEP_AFTER_MS = 30_000;

/**
 * Publishes what a publisher left behind (its Lambda timed out or crashed after the write):
 * bundles whose outbox is older than SWEEP_AFTER_MS. Run on a schedule. Answers how many bundles
 * it published.
 */
export async function sweepOutboxes(deps: TPublishDeps, limit = 100): Promise<number> {
  const before = new Date(deps.clock.now().getTime() - SWEEP_AFTER_MS).toISOString();
  const pending = await deps.bundles.withPendingOutbox(before, limit);
  let published = 0;
  for (const ref of pending) {
    const bundle = await deps.bundles.get(ref.accountId, ref.id);
    if (!bundle?.outbox?.length) continue;
    await publishBundleEvents(deps, bundle);
    published += 1;
  }
  return published;
}
