// SESv2 speaks REST-JSON: the operation is the method and path, errors name their type in the
// x-amzn-ErrorType header, which is what the SDK reads to pick the exception class.
import { createHash } from 'node:crypto';
import type { TMailboxAttachment, TMailboxEmail } from './message';
import { fault, type TParseResult, type TWireFault, type TWireReply } from './wire';

export const SES_SEND_EMAIL_PATH = '/v2/email/outbound-emails';
export const SES_PATH_PREFIX = '/v2/email/';

export function parseSendEmail(body: string, id: string, time: Date): TParseResult<TMailboxEmail> {
  let input: unknown;
  try {
    input = JSON.parse(body);
  } catch {
    return fault(400, 'BadRequestException', 'Request body is not valid JSON');
  }
  const from = str(at(input, 'FromEmailAddress'));
  if (!from) return fault(400, 'BadRequestException', 'FromEmailAddress is required');
  const to = strings(at(input, 'Destination', 'ToAddresses'));
  const cc = strings(at(input, 'Destination', 'CcAddresses'));
  const bcc = strings(at(input, 'Destination', 'BccAddresses'));
  if (to.length + cc.length + bcc.length === 0) {
    return fault(400, 'BadRequestException', 'Destination needs at least one address');
  }
  const simple = at(input, 'Content', 'Simple');
  if (simple === undefined) {
    // Raw and Template content would need MIME parsing or template storage; nothing here sends them.
    return fault(400, 'BadRequestException', 'The local mailbox accepts only Content.Simple emails');
  }
  const subject = str(at(simple, 'Subject', 'Data'));
  if (subject === undefined) return fault(400, 'BadRequestException', 'Content.Simple.Subject is required');
  const text = str(at(simple, 'Body', 'Text', 'Data'));
  const html = str(at(simple, 'Body', 'Html', 'Data'));
  if (text === undefined && html === undefined) {
    return fault(400, 'BadRequestException', 'Content.Simple.Body needs Text or Html');
  }
  const attachments = attachmentsOf(at(simple, 'Attachments'));
  if (typeof attachments === 'string') return fault(400, 'BadRequestException', attachments);
  const configurationSetName = str(at(input, 'ConfigurationSetName'));
  return {
    ok: true,
    value: {
      id,
      kind: 'email',
      time: time.toISOString(),
      from,
      to,
      cc,
      bcc,
      replyTo: strings(at(input, 'ReplyToAddresses')),
      subject,
      text: text ?? '',
      ...(html !== undefined ? { html } : {}),
      ...(attachments.length > 0 ? { attachments } : {}),
      ...(configurationSetName ? { configurationSetName } : {}),
    },
  };
}

export function sesSendEmailReply(messageId: string, requestId: string): TWireReply {
  return json(200, { MessageId: messageId }, requestId);
}

export function sesFaultReply(f: TWireFault, requestId: string): TWireReply {
  const reply = json(f.status, { message: f.message }, requestId);
  reply.headers['x-amzn-ErrorType'] = f.code;
  return reply;
}

function json(status: number, body: unknown, requestId: string): TWireReply {
  return {
    status,
    headers: { 'content-type': 'application/json', 'x-amzn-RequestId': requestId },
    body: JSON.stringify(body),
  };
}

function at(value: unknown, ...path: string[]): unknown {
  let current = value;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/**
 * Content.Simple.Attachments as the SDK sends them (RawContent base64, FileName required): the
 * mailbox keeps each one's name, type, size and SHA-256, enough to tell which file was sent
 * without keeping megabytes per message. A fault's message when malformed.
 */
function attachmentsOf(value: unknown): TMailboxAttachment[] | string {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return 'Content.Simple.Attachments must be a list';
  const out: TMailboxAttachment[] = [];
  for (const a of value) {
    const fileName = str(at(a, 'FileName'));
    const raw = str(at(a, 'RawContent'));
    if (!fileName || raw === undefined) return 'Each attachment needs FileName and RawContent';
    const bytes = Buffer.from(raw, 'base64');
    out.push({
      fileName,
      contentType: str(at(a, 'ContentType')) ?? 'application/octet-stream',
      size: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    });
  }
  return out;
}
