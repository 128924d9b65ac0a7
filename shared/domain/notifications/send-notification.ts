import { SYSTEM } from '../bundles/actor';
import { event } from '../bundles/audit-event';
import type { TBundle, TBundleEvent } from '../bundles/bundle';
import { changeBundle } from '../bundles/change-bundle';
import { bundleAt } from '../bundles/expiry';
import { ServiceError } from '../errors';
import { copyAttachments, createCopyLink } from '../evidence/copy-link';
import { notificationJob, type TNotificationJob, type TNotifyOutcome } from '../outbox/jobs/notifications';
import type { TAccountStore } from '../ports/accounts';
import type { TBundleStore } from '../ports/bundles';
import type { TCopyLinkStore, TEvidenceStore } from '../ports/evidence';
import type { TBlobStore } from '../ports/files';
import type { TMetrics } from '../ports/metrics';
import type { TEmailAttachment, TMailer, TNotificationStore, TSmsSender } from '../ports/notifications';
import type { TSigningTokenStore } from '../ports/signing';
import type { TClock, TIds } from '../ports/system';
import { createSigningLink } from '../signing/signing-link';
import { maskRecipient, STALE_SENDING_MS, type TNotificationRecord, type TSentMessage } from './notification';
import { planMessages, type TPlannedMessage } from './plan-messages';

export type TNotifyDeps = {
  bundles: TBundleStore;
  accounts: Pick<TAccountStore, 'getAccount'>;
  tokens: TSigningTokenStore;
  notifications: TNotificationStore;
  mailer: TMailer;
  sms: TSmsSender;
  clock: TClock;
  ids: TIds;
  /** The configured sender address (MAIL_FROM); the requester's name is shown with it. */
  mailFrom: string;
  /** Where signing links point (the signing pages are served below it). */
  publicBaseUrl: string;
  /** The links to signed copies a documents-ready message carries, and the files it may attach. */
  copies: TCopyLinkStore;
  evidence: Pick<TEvidenceStore, 'get'>;
  blobs: Pick<TBlobStore, 'get'>;
  /** How long a copy link works (COPY_LINK_DAYS); copy-link.ts's default when absent. */
  copyLinkDays?: number;
  /** Counts each message handed to the provider (NotificationsSent); none in tests that do not ask. */
  metrics?: TMetrics;
};

/** How soon a job whose bundle read was older than the job looks again. */
const STALE_READ_RETRY_SECONDS = 5;

/** Some messages of a job were not sent; each is recorded on the bundle already. */
export class NotificationNotSentError extends ServiceError {
  override name = 'NotificationNotSentError';
  constructor(readonly failures: { recipient: string; error: unknown }[]) {
    super(`${failures.length} message(s) not sent: ${failures.map((f) => errorName(f.error)).join(', ')}`);
  }
}

/** A message that can never be sent as addressed (not retried; recorded on the bundle). */
class UndeliverableError extends ServiceError {
  override name = 'UndeliverableError';
}

type TOneOutcome =
  | { kind: 'sent' | 'already-sent' | 'undeliverable' }
  | { kind: 'busy'; seconds: number }
  | { kind: 'failed'; error: unknown };

/**
 * One job of the notifications queue (see plan-messages.ts for who gets what). Each message is
 * claimed before it is sent (`NOTIFY#<bundle>#<seq>#<recipient>`), so a job handed out twice, or
 * published twice, sends each message once; a message whose last attempt failed, or whose
 * attempt died mid-way (a claim older than STALE_SENDING_MS), is sent again. A failed send is
 * recorded on the bundle as an `nf` audit event, and the job then fails so that the queue retries
 * it; `attempt` is how many times the queue has handed the job out.
 */
export async function sendNotification(
  deps: TNotifyDeps,
  job: TNotificationJob,
  attempt = 1,
): Promise<TNotifyOutcome> {
  const bundle = await deps.bundles.get(job.accountId, job.bundleId);
  if (!bundle) return { kind: 'done', sent: 0, skipped: 'bundle not found' };
  // The read predates the change that queued the job (reads are eventually consistent): deciding
  // on it could skip a signer whose turn that change made. Look again shortly.
  if (job.seq >= (bundle.archivedEvents ?? 0) + bundle.events.length) {
    return { kind: 'wait', seconds: STALE_READ_RETRY_SECONDS };
  }
  const account = await deps.accounts.getAccount(job.accountId);
  const plan = planMessages({
    job,
    // A signing request or reminder for a bundle past its expiry sends nothing, recorded or not.
    bundle: bundleAt(bundle, deps.clock.now()),
    ...(account ? { account } : {}),
    ...(job.type === 'declined' ? { jobEvent: await eventAt(deps, bundle, job.seq) } : {}),
    mailFrom: deps.mailFrom,
  });
  if (plan.messages.length === 0)
    return { kind: 'done', sent: 0, ...(plan.skipped ? { skipped: plan.skipped } : {}) };

  let sent = 0;
  let wait = 0;
  const failures: { recipient: string; error: unknown }[] = [];
  // One after another: a documents-ready notice goes to a few dozen addresses at most, and a
  // steady pace stays within the provider's sending rate.
  for (const message of plan.messages) {
    const outcome = await deliverOnce(deps, bundle, job, message, attempt);
    if (outcome.kind === 'sent') {
      sent += 1;
      deps.metrics?.count('NotificationsSent');
    } else if (outcome.kind === 'busy') wait = Math.max(wait, outcome.seconds);
    else if (outcome.kind === 'failed') failures.push({ recipient: message.recipient, error: outcome.error });
  }
  if (failures.length > 0) throw new NotificationNotSentError(failures);
  return wait > 0 ? { kind: 'wait', seconds: wait } : { kind: 'done', sent };
}

async function deliverOnce(
  deps: TNotifyDeps,
  bundle: TBundle,
  job: TNotificationJob,
  planned: TPlannedMessage,
  attempt: number,
): Promise<TOneOutcome> {
  const now = deps.clock.now();
  const record: TNotificationRecord = {
    accountId: bundle.accountId,
    bundleId: bundle.id,
    seq: job.seq,
    recipient: planned.recipient,
    channel: planned.channel,
    type: job.type,
    ...(planned.packetId ? { packetId: planned.packetId } : {}),
    state: 'sending',
    claimId: deps.ids.uuid(),
    updated: now.toISOString(),
  };
  const claim = await deps.notifications.claim(
    record,
    new Date(now.getTime() - STALE_SENDING_MS).toISOString(),
  );
  if (!claim.claimed) {
    if (claim.current.state === 'sent') return { kind: 'already-sent' };
    const staleAt = Date.parse(claim.current.updated) + STALE_SENDING_MS;
    return { kind: 'busy', seconds: Math.max(1, Math.ceil((staleAt - now.getTime()) / 1000)) };
  }

  let providerMessageId: string;
  try {
    if (planned.undeliverable) throw new UndeliverableError(planned.undeliverable);
    let link: { url: string; expires: string } | undefined;
    let attachments: TEmailAttachment[] | undefined;
    if (planned.linkFor || planned.copyFor) {
      if (!deps.publicBaseUrl) throw new Error('No public base URL is configured for signing links');
    }
    if (planned.linkFor) {
      // A fresh link for every message: a reminder's link works even if an older one leaked.
      link = await createSigningLink(deps, bundle, planned.linkFor, deps.publicBaseUrl);
    } else if (planned.copyFor) {
      link = await createCopyLink(deps, bundle, planned.copyFor, deps.publicBaseUrl, deps.copyLinkDays);
      if (planned.copyFor.attach) attachments = await copyAttachments(deps, bundle, planned.copyFor.packetId);
    }
    const outgoing = planned.compose(link, attachments);
    providerMessageId =
      outgoing.channel === 'email'
        ? await deps.mailer.send(outgoing.message)
        : await deps.sms.send(outgoing.phone, outgoing.text);
  } catch (error) {
    const at = deps.clock.now().toISOString();
    await deps.notifications.markFailed(record, errorName(error), at);
    const permanent = error instanceof UndeliverableError;
    await recordFailure(deps, bundle, planned, error, permanent ? undefined : attempt, at);
    return permanent ? { kind: 'undeliverable' } : { kind: 'failed', error };
  }

  const sentAt = deps.clock.now().toISOString();
  const sent: TSentMessage = {
    providerMessageId,
    accountId: bundle.accountId,
    bundleId: bundle.id,
    seq: job.seq,
    ...(planned.packetId ? { packetId: planned.packetId } : {}),
    channel: planned.channel,
    recipient: planned.recipient,
    type: job.type,
    sent: sentAt,
  };
  await deps.notifications.markSent(record, sent);
  return { kind: 'sent' };
}

/** `nf` on the bundle: the sender sees which message failed, to whom (masked) and why, briefly. */
async function recordFailure(
  deps: TNotifyDeps,
  bundle: TBundle,
  planned: TPlannedMessage,
  error: unknown,
  attempt: number | undefined,
  at: string,
): Promise<void> {
  const to = `${planned.channel === 'email' ? 'email' : 'SMS'} to ${maskRecipient(planned.recipient)}`;
  const why =
    attempt === undefined
      ? (error as Error).message
      : `${errorName(error)}; attempt ${attempt} of ${notificationJob.maxAttempts}${attempt < notificationJob.maxAttempts ? ', will retry' : ''}`;
  await changeBundle(deps, bundle.accountId, bundle.id, (b) => ({
    ...b,
    events: [...b.events, event('messageFailed', at, SYSTEM, planned.packetId, `${to} (${why})`)],
  }));
}

/**
 * What went wrong, without the provider's message: SDK errors are named after the service's
 * error code (MessageRejected, Throttling), network failures carry a code (ECONNREFUSED).
 */
export function errorName(error: unknown): string {
  const e = error as { name?: unknown; code?: unknown } | undefined;
  const name = typeof e?.name === 'string' ? e.name : 'Error';
  if (name === 'Error' && typeof e?.code === 'string') return e.code;
  return name.replace(/[^\w.-]/g, '').slice(0, 60) || 'Error';
}

/** The audit event at `seq`, from the bundle item or, once archived, from the event pages. */
async function eventAt(deps: TNotifyDeps, bundle: TBundle, seq: number): Promise<TBundleEvent | undefined> {
  const inline = seq - (bundle.archivedEvents ?? 0);
  if (inline >= 0) return bundle.events[inline];
  return (await deps.bundles.events(bundle))[seq];
}
