// SES reports what happened to a message after it accepted it by publishing a JSON notification
// to an SNS topic: from a configuration set's event destination (`eventType`), or from an
// identity's feedback notifications (`notificationType`); both shapes carry `mail.messageId`
// (the id SendEmail answered) and a `bounce` / `complaint` / `reject` object.
import type { TDeliveryReport } from '#shared/domain/notifications/notification';

const DETAIL_MAX = 200;

type TJson = Record<string, unknown>;

const obj = (v: unknown): TJson => (typeof v === 'object' && v !== null ? (v as TJson) : {});
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const list = (v: unknown): TJson[] => (Array.isArray(v) ? v.map(obj) : []);

function cut(s: string): string {
  const line = s.replace(/\s+/g, ' ').trim();
  return line.length > DETAIL_MAX ? `${line.slice(0, DETAIL_MAX - 1)}…` : line;
}

/**
 * The report in an SES notification (the SNS message text), or undefined for notifications that
 * need no action (Send, Delivery, Open…) and for text that is not an SES notification.
 */
export function parseSesNotification(message: string): TDeliveryReport | undefined {
  let n: TJson;
  try {
    n = obj(JSON.parse(message));
  } catch {
    return undefined;
  }
  const type = str(n.eventType) ?? str(n.notificationType);
  const providerMessageId = str(obj(n.mail).messageId);
  if (!type || !providerMessageId) return undefined;

  if (type === 'Bounce') {
    const b = obj(n.bounce);
    const bounced = list(b.bouncedRecipients);
    const diagnostic = bounced.map((r) => str(r.diagnosticCode)).find(Boolean);
    const kind = [str(b.bounceType), str(b.bounceSubType)].filter(Boolean).join(', ');
    return {
      providerMessageId,
      kind: 'bounce',
      recipients: bounced.map((r) => str(r.emailAddress)).filter((r): r is string => !!r),
      detail: cut([kind, diagnostic].filter(Boolean).join(': ')),
    };
  }
  if (type === 'Complaint') {
    const c = obj(n.complaint);
    return {
      providerMessageId,
      kind: 'complaint',
      recipients: list(c.complainedRecipients)
        .map((r) => str(r.emailAddress))
        .filter((r): r is string => !!r),
      detail: cut(str(c.complaintFeedbackType) ?? ''),
    };
  }
  if (type === 'Reject') {
    const destination = obj(n.mail).destination;
    return {
      providerMessageId,
      kind: 'reject',
      recipients: Array.isArray(destination)
        ? destination.filter((r): r is string => typeof r === 'string')
        : [],
      detail: cut(str(obj(n.reject).reason) ?? ''),
    };
  }
  return undefined;
}
