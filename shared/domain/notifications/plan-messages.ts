// Who a notification job messages and what each message says. Pure: the use case
// (send-notification.ts) loads what this needs and sends what it returns.
import type { TEmailMessage } from '../../ports/notifications';
import type { TAccount } from '../accounts/account';
import type { TBundle, TBundleEvent, TPacket } from '../bundles/bundle';
import { EVENT_KINDS } from '../bundles/event-kinds';
import { isFinished, isOut, isPacketWaiting } from '../bundles/lifecycle/status';
import type { TNotificationJob } from '../outbox/outbox';
import { oneLine, renderEmail } from './message-content';
import { formatMailbox, normalizeAddress, SERVICE_NAME, type TChannel, toE164 } from './notification';

export type TOutgoing =
  | { channel: 'email'; message: TEmailMessage }
  | { channel: 'sms'; phone: string; text: string };

export interface TSigningLink {
  url: string;
  expires: string;
}

export interface TPlannedMessage {
  channel: TChannel;
  /** A lower-cased email or an E.164 phone: with the job, what a message is sent once to. */
  recipient: string;
  packetId?: string;
  /** The signer whose fresh signing link the message carries. */
  linkFor?: TPacket;
  /** Why this message cannot be sent at all; recorded on the bundle instead of sending. */
  undeliverable?: string;
  compose(link?: TSigningLink): TOutgoing;
}

export interface TPlan {
  messages: TPlannedMessage[];
  /** Why nothing is sent, for the log. */
  skipped?: string;
}

export interface TPlanInput {
  job: TNotificationJob;
  bundle: TBundle;
  /** Holds the default messages; absent when the account is gone. */
  account?: Pick<TAccount, 'emailMessage' | 'smsMessage'>;
  /** The job's own audit event (a decline carries its reason there). */
  jobEvent?: TBundleEvent;
  /** The configured sender address; the requester's name is shown with it. */
  mailFrom: string;
}

/** Bundle and signer statuses in which a signer is still waiting for a message. */
const SMS_MESSAGE_MAX = 300;

const labelOf = (b: TBundle) => oneLine(b.label, 200) || 'your documents';
const requesterOf = (b: TBundle) => oneLine(b.requesterName, 100) || b.requesterEmail || 'The sender';
const firstText = (...texts: (string | undefined)[]) => texts.find((t) => t !== undefined && t.trim() !== '');

export function planMessages(input: TPlanInput): TPlan {
  switch (input.job.type) {
    case 'signing_request':
    case 'reminder':
      return planSigningMessage(input);
    case 'docs_ready':
      return planDocsReady(input);
    case 'declined':
      return planDeclined(input);
    default:
      return { messages: [], skipped: `unknown job type ${String(input.job.type)}` };
  }
}

/** The subject of a signing request (a reminder puts "Reminder: " before it). */
export function signingSubject(b: TBundle): string {
  return oneLine(b.emailSubject) || `Please sign: ${labelOf(b)}`;
}

function planSigningMessage({ job, bundle, account, mailFrom }: TPlanInput): TPlan {
  const reminder = job.type === 'reminder';
  const packet = bundle.packets.find((p) => p.id === job.packetId);
  if (!packet) return { messages: [], skipped: 'packet not found' };
  if (packet.deliverVia === 'embed') return { messages: [], skipped: 'embedded signer' };
  if (packet.suppressAll) return { messages: [], skipped: 'suppress_all' };
  if (!reminder && packet.suppressSigning) return { messages: [], skipped: 'suppress_signing' };
  if (reminder && packet.suppressReminder) return { messages: [], skipped: 'suppress_reminder' };
  if (isFinished(bundle.status) || !isOut(bundle.status) || !isPacketWaiting(packet.status)) {
    return { messages: [], skipped: `no longer waiting (bundle ${bundle.status}, packet ${packet.status})` };
  }
  const requester = requesterOf(bundle);
  const label = labelOf(bundle);

  if (packet.deliverVia === 'phone') {
    const phone = toE164(packet.phone ?? '');
    const smsText =
      firstText(packet.smsMessage, bundle.smsMessage, account?.smsMessage) ??
      `Please review and sign "${label}".`;
    const text = (url: string) =>
      `${reminder ? `Reminder from ${requester}` : requester}: ${oneLine(smsText, SMS_MESSAGE_MAX)} ${url}`;
    return {
      messages: [
        {
          channel: 'sms',
          recipient: phone ?? (packet.phone ?? '').trim(),
          packetId: packet.id,
          linkFor: packet,
          ...(phone ? {} : { undeliverable: 'the phone number is not in international format (+…)' }),
          compose: (link) => ({ channel: 'sms', phone: phone!, text: text(link!.url) }),
        },
      ],
    };
  }

  if (!packet.email) return { messages: [], skipped: 'no email address' };
  const message =
    firstText(packet.emailMessage, bundle.emailMessage, account?.emailMessage) ??
    `${requester} has sent you "${label}" to review and sign.`;
  const subject = `${reminder ? 'Reminder: ' : ''}${signingSubject(bundle)}`;
  const to = packet.email;
  return {
    messages: [
      {
        channel: 'email',
        recipient: normalizeAddress(to),
        packetId: packet.id,
        linkFor: packet,
        compose: (link) => ({
          channel: 'email',
          message: {
            from: formatMailbox(requester, mailFrom),
            to: [to],
            ...(bundle.requesterEmail ? { replyTo: [bundle.requesterEmail] } : {}),
            ...renderEmail({
              subject,
              ...(packet.name ? { greeting: `Hello ${oneLine(packet.name, 100)},` } : {}),
              paragraphs: [
                ...(reminder ? [`A reminder: "${label}" is still waiting for your signature.`] : []),
                message,
              ],
              button: { label: 'Review and sign', url: link!.url },
              footer: [
                `Sent by ${requester}${bundle.requesterEmail ? ` (${bundle.requesterEmail})` : ''}. Reply to this email to reach them.`,
                `This link is for you alone: please do not forward this email. It works until ${link!.expires.slice(0, 10)} (UTC).`,
              ],
            }),
          },
        }),
      },
    ],
  };
}

function planDocsReady({ bundle, mailFrom }: TPlanInput): TPlan {
  // Signers first, then cc_emails, then the sender: one message per address, the first role wins.
  const recipients = new Map<string, { to: string; name?: string; packetId?: string; sender?: boolean }>();
  const add = (to: string, extra: { name?: string; packetId?: string; sender?: boolean }) => {
    const key = normalizeAddress(to);
    if (key && !recipients.has(key)) recipients.set(key, { to, ...extra });
  };
  for (const p of bundle.packets) {
    if (p.email && !p.suppressAll && !p.suppressDocsReady) add(p.email, { name: p.name, packetId: p.id });
  }
  for (const cc of bundle.ccEmails) add(cc, {});
  if (bundle.ccSender && bundle.requesterEmail) add(bundle.requesterEmail, { sender: true });
  if (recipients.size === 0) return { messages: [], skipped: 'no recipients' };

  const requester = requesterOf(bundle);
  const label = labelOf(bundle);
  return {
    messages: [...recipients].map(([recipient, r]) => ({
      channel: 'email' as const,
      recipient,
      ...(r.packetId ? { packetId: r.packetId } : {}),
      compose: () => ({
        channel: 'email',
        message: {
          from: formatMailbox(requester, mailFrom),
          to: [r.to],
          ...(bundle.requesterEmail && !r.sender ? { replyTo: [bundle.requesterEmail] } : {}),
          ...renderEmail({
            subject: `Documents ready: ${label}`,
            ...(r.name ? { greeting: `Hello ${oneLine(r.name, 100)},` } : {}),
            paragraphs: [
              `Everyone has signed "${label}", and the final documents are ready.`,
              r.sender
                ? `Download them with the API: GET /api/v2/bundles/${bundle.id}/files/`
                : `You can get a copy from ${requester}${bundle.requesterEmail ? ` (${bundle.requesterEmail})` : ''}.`,
            ],
            footer: [`Sent on behalf of ${requester}.`],
          }),
        },
      }),
    })),
  };
}

function planDeclined({ job, bundle, jobEvent, mailFrom }: TPlanInput): TPlan {
  if (!bundle.requesterEmail) return { messages: [], skipped: 'no requester email' };
  const packet = bundle.packets.find((p) => p.id === job.packetId);
  const signer = oneLine(packet?.name ?? '', 100) || 'A signer';
  const contact = packet?.email ?? packet?.phone;
  const label = labelOf(bundle);
  const prefix = `${EVENT_KINDS.declined.text}: `;
  const reason =
    jobEvent?.kind === EVENT_KINDS.declined.code && jobEvent.description.startsWith(prefix)
      ? jobEvent.description.slice(prefix.length).trim()
      : '';
  const to = bundle.requesterEmail;
  return {
    messages: [
      {
        channel: 'email',
        recipient: normalizeAddress(to),
        ...(packet ? { packetId: packet.id } : {}),
        compose: () => ({
          channel: 'email',
          message: {
            from: formatMailbox(SERVICE_NAME, mailFrom),
            to: [to],
            ...(packet?.email ? { replyTo: [packet.email] } : {}),
            ...renderEmail({
              subject: `${signer} declined to sign: ${label}`,
              paragraphs: [
                `${signer}${contact ? ` (${contact})` : ''} declined to sign "${label}".`,
                reason ? `Their reason:\n${reason}` : 'They gave no reason.',
              ],
              footer: [`Bundle ${bundle.id}${bundle.customKey ? `, custom key ${bundle.customKey}` : ''}.`],
            }),
          },
        }),
      },
    ],
  };
}
