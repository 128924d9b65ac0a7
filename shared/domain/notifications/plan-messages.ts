// Who a notification job messages and what each message says. Pure: the use case
// (send-notification.ts) loads what this needs and sends what it returns.

import { translator } from '#shared/i18n/catalogs';
import { directionOf, signerLanguage, type TLanguage } from '#shared/i18n/languages';
import type { TAccount } from '../accounts/account';
import type { TBundle, TBundleEvent, TPacket } from '../bundles/bundle';
import { signsWithSender } from '../bundles/delivery';
import { EVENT_KINDS } from '../bundles/event-kinds';
import { isFinished, isOut, isPacketWaiting } from '../bundles/lifecycle/status';
import { roleOf, signingStepOf } from '../bundles/packet-roles';
import type { TCopyRecipient } from '../evidence/copy-link';
import type { TNotificationJob } from '../outbox/jobs/notifications';
import type { TEmailAttachment, TEmailMessage } from '../ports/notifications';
import { isolate, oneLine, renderEmail, type TEmailBody } from './message-content';
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
  /**
   * Whom the fresh link to the signed copies the message carries is for (shared/domain/evidence/
   * copy-link.ts); `attach`: the files go with the email too, size permitting.
   */
  copyFor?: TCopyRecipient & { attach?: boolean };
  /** Why this message cannot be sent at all; recorded on the bundle instead of sending. */
  undeliverable?: string;
  /** `link`: the signing or copy link made for it; `attachments`: the files sent with it. */
  compose(link?: TSigningLink, attachments?: TEmailAttachment[]): TOutgoing;
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
  account?: Pick<TAccount, 'emailMessage' | 'smsMessage' | 'language'> & {
    features?: Partial<TAccount['features']>;
  };
  /** The job's own audit event (a decline carries its reason there). */
  jobEvent?: TBundleEvent;
  /** The configured sender address; the requester's name is shown with it. */
  mailFrom: string;
}

/** Bundle and signer statuses in which a signer is still waiting for a message. */
const SMS_MESSAGE_MAX = 300;

/**
 * The language a signer's messages are in: the packet's, else the bundle's, else the account's
 * default, else English (a message has no browser to ask; shared/i18n/languages.ts, signerLanguage).
 */
const languageOf = (b: TBundle, account: TPlanInput['account'], p?: TPacket): TLanguage =>
  signerLanguage({ packet: p?.language, bundle: b.language, account: account?.language });

const labelOf = (b: TBundle, lang: TLanguage = 'en') =>
  oneLine(b.label, 200) || translator(lang)('message.yourDocuments');
const requesterOf = (b: TBundle, lang: TLanguage = 'en') =>
  oneLine(b.requesterName, 100) || b.requesterEmail || translator(lang)('message.theSender');
/**
 * The catalog's words in `lang` with every text of a sender or signer in them (labels, names,
 * reasons, messages) isolated from the sentence's direction (message-content.ts, `isolate`).
 */
function wordsIn(lang: TLanguage) {
  const t = translator(lang);
  const dir = directionOf(lang);
  return (key: string, values?: Record<string, unknown>): string =>
    t(
      key,
      values &&
        Object.fromEntries(
          Object.entries(values).map(([k, v]) => [
            k,
            k !== 'url' && typeof v === 'string' ? isolate(v, dir) : v,
          ]),
        ),
    );
}

const firstText = (...texts: (string | undefined)[]) => texts.find((t) => t !== undefined && t.trim() !== '');

/** A day as the message's language writes it (in UTC, as the service keeps time). */
const dayIn = (lang: TLanguage, iso: string) =>
  new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(iso));

/** The HTML part's language and direction, and the button's fallback line, in `lang`. */
const emailLanguage = (lang: TLanguage) => ({
  lang,
  dir: directionOf(lang),
  buttonFallback: translator(lang)('message.buttonFallback'),
});

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

/** The subject of a signing request (a reminder puts "Reminder: " before it), in `lang`. */
export function signingSubject(b: TBundle, lang: TLanguage = 'en'): string {
  return oneLine(b.emailSubject) || wordsIn(lang)('message.signSubject', { label: labelOf(b, lang) });
}

function planSigningMessage({ job, bundle, account, mailFrom }: TPlanInput): TPlan {
  const reminder = job.type === 'reminder';
  const packet = bundle.packets.find((p) => p.id === job.packetId);
  if (!packet) return { messages: [], skipped: 'packet not found' };
  if (signsWithSender(packet.deliverVia))
    return { messages: [], skipped: packet.deliverVia === 'kiosk' ? 'signs in person' : 'embedded signer' };
  if (packet.suppressAll) return { messages: [], skipped: 'suppress_all' };
  if (!reminder && packet.suppressSigning) return { messages: [], skipped: 'suppress_signing' };
  if (reminder && packet.suppressReminder) return { messages: [], skipped: 'suppress_reminder' };
  if (isFinished(bundle.status) || !isOut(bundle.status) || !isPacketWaiting(packet.status)) {
    return { messages: [], skipped: `no longer waiting (bundle ${bundle.status}, packet ${packet.status})` };
  }
  // The signer's language: the words of the service; the sender's own texts stay as written.
  const lang = languageOf(bundle, account, packet);
  const t = wordsIn(lang);
  const requester = requesterOf(bundle, lang);
  const label = labelOf(bundle, lang);

  if (packet.deliverVia === 'phone') {
    const phone = toE164(packet.phone ?? '');
    // The text, the sender's own or ours, goes into the catalog's sentence, which isolates it.
    const smsText =
      firstText(packet.smsMessage, bundle.smsMessage, account?.smsMessage) ??
      t('message.smsDefault', { label });
    const text = (url: string) =>
      t(reminder ? 'message.smsReminder' : 'message.sms', {
        requester,
        text: oneLine(smsText, SMS_MESSAGE_MAX),
        url,
      });
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
  const own = firstText(packet.emailMessage, bundle.emailMessage, account?.emailMessage);
  const role = roleOf(packet);
  // Which step of the signing order this is, and who shares it (packet-roles.ts).
  const step = signingStepOf(bundle, packet.id);
  const stepLine = step
    ? [
        step.alongside.length === 0
          ? t('roles.message.stepLine', { step: step.step, steps: step.steps })
          : t('roles.message.stepLineAlongside', {
              step: step.step,
              steps: step.steps,
              names: step.alongside.map((n) => oneLine(n, 100)).join(', '),
            }),
      ]
    : [];
  // The sender's own message is a paragraph of their words, isolated whole.
  const message =
    own !== undefined ? isolate(own, directionOf(lang)) : t(ROLE_WORDS[role].message, { requester, label });
  const subject = reminder
    ? t('message.reminderSubject', { subject: signingSubject(bundle, lang) })
    : signingSubject(bundle, lang);
  const to = packet.email;
  // A packet handed on: the new signer learns who asked them to sign instead, and why.
  const handover = packet.handovers?.at(-1);
  const handedOn = handover
    ? [t('message.handedOn', { name: oneLine(handover.from.name, 100), reason: handover.reason })]
    : [];
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
              ...emailLanguage(lang),
              ...(packet.name ? { greeting: t('message.hello', { name: oneLine(packet.name, 100) }) } : {}),
              paragraphs: [
                ...(reminder ? [t('message.reminderLine', { label })] : []),
                message,
                ...handedOn,
                ...stepLine,
              ],
              button: { label: t(ROLE_WORDS[role].button), url: link!.url },
              footer: [
                bundle.requesterEmail
                  ? t('message.sentByEmail', { requester, email: bundle.requesterEmail })
                  : t('message.sentBy', { requester }),
                t('message.personal', { date: dayIn(lang, link!.expires) }),
              ],
            }),
          },
        }),
      },
    ],
  };
}

/**
 * Documents ready: every signer (in their language) and every cc recipient (in the bundle's) gets
 * a link of their own to download the signed copies (copy-link.ts); by email, or by SMS for a
 * signer with a phone and no email. The sender, with cc_sender, is told how to get them with the
 * API. One message per address, the first role wins.
 */
function planDocsReady({ bundle, account, mailFrom }: TPlanInput): TPlan {
  type TRecipient = { to: string; name?: string; packetId?: string; sender?: boolean; lang?: TLanguage };
  const recipients = new Map<string, TRecipient>();
  const add = (to: string, extra: Omit<TRecipient, 'to'>) => {
    const key = normalizeAddress(to);
    if (key && !recipients.has(key)) recipients.set(key, { to, ...extra });
  };
  const texts: TPlannedMessage[] = [];
  for (const p of bundle.packets) {
    if (p.suppressAll || p.suppressDocsReady) continue;
    const lang = languageOf(bundle, account, p);
    if (p.email) add(p.email, { name: p.name, packetId: p.id, lang });
    else if (p.phone) texts.push(copyText(bundle, p, lang));
  }
  for (const cc of bundle.ccEmails) add(cc, {});
  if (bundle.ccSender && bundle.requesterEmail) add(bundle.requesterEmail, { sender: true });
  if (recipients.size === 0 && texts.length === 0) return { messages: [], skipped: 'no recipients' };
  const attach = account?.features?.email_attachments === true;

  const emails = [...recipients].map(([recipient, r]): TPlannedMessage => {
    // Signers read it in their language, copies in the bundle's; the sender's API hint stays English.
    const lang = r.sender ? 'en' : (r.lang ?? languageOf(bundle, account));
    const t = wordsIn(lang);
    const requester = requesterOf(bundle, lang);
    const label = labelOf(bundle, lang);
    const envelope = {
      from: formatMailbox(requester, mailFrom),
      to: [r.to],
      ...(bundle.requesterEmail && !r.sender ? { replyTo: [bundle.requesterEmail] } : {}),
    };
    const common = {
      subject: t('message.readySubject', { label }),
      ...emailLanguage(lang),
      ...(r.name ? { greeting: t('message.hello', { name: oneLine(r.name, 100) }) } : {}),
    };
    // The message itself: the envelope, the words every recipient reads, and what is theirs.
    const email = (
      body: Pick<TEmailBody, 'paragraphs' | 'footer' | 'button'>,
      attachments?: TEmailAttachment[],
    ) => ({
      channel: 'email' as const,
      message: {
        ...envelope,
        ...renderEmail({ ...common, ...body }),
        ...(attachments?.length ? { attachments } : {}),
      },
    });
    if (r.sender) {
      return {
        channel: 'email',
        recipient,
        compose: () =>
          email({
            paragraphs: [
              t('message.readyText', { label }),
              `Download them with the API: GET /api/v2/bundles/${bundle.id}/files/`,
            ],
            footer: [t('message.onBehalf', { requester })],
          }),
      };
    }
    return {
      channel: 'email',
      recipient,
      ...(r.packetId ? { packetId: r.packetId } : {}),
      copyFor: { ...(r.packetId ? { packetId: r.packetId } : {}), language: lang, attach },
      compose: (link, attachments) =>
        email(
          {
            paragraphs: [
              t('message.readyText', { label }),
              t(r.packetId ? 'message.readyDownload' : 'message.readyDownloadCc'),
              ...(attachments?.length ? [t('message.readyAttached')] : []),
            ],
            button: { label: t('message.downloadCopies'), url: link!.url },
            footer: [
              t('message.onBehalf', { requester }),
              t('message.personal', { date: dayIn(lang, link!.expires) }),
            ],
          },
          attachments,
        ),
    };
  });
  return { messages: [...emails, ...texts] };
}

/** The documents-ready text to a signer who has only a phone: who sent it, what, and the link. */
function copyText(bundle: TBundle, p: TPacket, lang: TLanguage): TPlannedMessage {
  const t = wordsIn(lang);
  const phone = toE164(p.phone ?? '');
  return {
    channel: 'sms',
    recipient: phone ?? (p.phone ?? '').trim(),
    packetId: p.id,
    copyFor: { packetId: p.id, language: lang },
    ...(phone ? {} : { undeliverable: 'the phone number is not in international format (+…)' }),
    compose: (link) => ({
      channel: 'sms',
      phone: phone!,
      text: t('message.readySms', {
        requester: requesterOf(bundle, lang),
        label: oneLine(labelOf(bundle, lang), 100),
        url: link!.url,
      }),
    }),
  };
}

function planDeclined({ job, bundle, jobEvent, mailFrom }: TPlanInput): TPlan {
  if (!bundle.requesterEmail) return { messages: [], skipped: 'no requester email' };
  const packet = bundle.packets.find((p) => p.id === job.packetId);
  // The sender's message is English; a name, label or reason in another script is isolated in it.
  const signer = isolate(oneLine(packet?.name ?? '', 100), 'ltr') || 'A signer';
  const contact = packet?.email ?? packet?.phone;
  const label = isolate(labelOf(bundle), 'ltr');
  // An approver's rejection is told the same way, in its own words (packet-roles.ts).
  const kind = jobEvent?.kind === EVENT_KINDS.rejected.code ? EVENT_KINDS.rejected : EVENT_KINDS.declined;
  const did = kind === EVENT_KINDS.rejected ? 'rejected' : 'declined to sign';
  const prefix = `${kind.text}: `;
  const reason =
    jobEvent?.kind === kind.code && jobEvent.description.startsWith(prefix)
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
              subject: `${signer} ${did}: ${label}`,
              paragraphs: [
                `${signer}${contact ? ` (${contact})` : ''} ${did} "${label}".`,
                reason ? `Their reason:\n${isolate(reason, 'ltr')}` : 'They gave no reason.',
              ],
              footer: [`Bundle ${bundle.id}${bundle.customKey ? `, custom key ${bundle.customKey}` : ''}.`],
            }),
          },
        }),
      },
    ],
  };
}

/** What the request asks of each role: its default message and its button. */
const ROLE_WORDS = {
  signer: { message: 'message.defaultMessage', button: 'message.reviewAndSign' },
  approver: { message: 'roles.message.approveMessage', button: 'roles.message.approveButton' },
  viewer: { message: 'roles.message.viewMessage', button: 'roles.message.viewButton' },
} as const;
