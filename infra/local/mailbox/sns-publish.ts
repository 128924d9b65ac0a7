// @aws-sdk/client-sns 3.x uses the awsQuery protocol: a form-encoded POST to "/" naming the
// operation in Action=..., answered with XML. The SDK looks for <PublishResult> under the root
// element and, on errors, for <Error><Code> under <ErrorResponse>.
import type { TMailboxSms } from './message';
import { fault, type TParseResult, type TWireFault, type TWireReply } from './wire';

const XMLNS = 'http://sns.amazonaws.com/doc/2010-03-31/';
// What SNS itself enforces, so a malformed number fails locally the way it would on AWS.
const E164 = /^\+[1-9]\d{1,14}$/;

export function parsePublish(form: URLSearchParams, id: string, time: Date): TParseResult<TMailboxSms> {
  const action = form.get('Action');
  if (action !== 'Publish') {
    return fault(
      400,
      'InvalidAction',
      `The local mailbox does not support the SNS action ${action ?? '(none)'}`,
    );
  }
  const phone = form.get('PhoneNumber');
  if (!phone) {
    // Topic and endpoint publishes fan out to subscribers; the service only ever texts a number.
    return fault(400, 'InvalidParameter', 'The local mailbox accepts only Publish with PhoneNumber');
  }
  if (!E164.test(phone)) {
    return fault(400, 'InvalidParameter', 'Invalid parameter: PhoneNumber Reason: not in E.164 format');
  }
  const text = form.get('Message');
  if (!text) return fault(400, 'InvalidParameter', 'Invalid parameter: Message is empty');
  const attributes = messageAttributes(form);
  const from = attributes.get('AWS.SNS.SMS.SenderID');
  const smsType = attributes.get('AWS.SNS.SMS.SMSType');
  return {
    ok: true,
    value: {
      id,
      kind: 'sms',
      time: time.toISOString(),
      phone,
      text,
      ...(from ? { from } : {}),
      ...(smsType ? { smsType } : {}),
    },
  };
}

/** `MessageAttributes.entry.N.Name` / `.Value.StringValue` pairs, as the query serializer flattens maps. */
function messageAttributes(form: URLSearchParams): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 1; form.has(`MessageAttributes.entry.${i}.Name`); i++) {
    const name = form.get(`MessageAttributes.entry.${i}.Name`);
    const value = form.get(`MessageAttributes.entry.${i}.Value.StringValue`);
    if (name && value !== null) out.set(name, value);
  }
  return out;
}

export function snsPublishReply(messageId: string, requestId: string): TWireReply {
  return xml(
    200,
    `<PublishResponse xmlns="${XMLNS}"><PublishResult><MessageId>${escapeXml(messageId)}</MessageId>` +
      `</PublishResult><ResponseMetadata><RequestId>${escapeXml(requestId)}</RequestId>` +
      '</ResponseMetadata></PublishResponse>',
    requestId,
  );
}

export function snsFaultReply(f: TWireFault, requestId: string): TWireReply {
  const type = f.status >= 500 ? 'Receiver' : 'Sender';
  return xml(
    f.status,
    `<ErrorResponse xmlns="${XMLNS}"><Error><Type>${type}</Type><Code>${escapeXml(f.code)}</Code>` +
      `<Message>${escapeXml(f.message)}</Message></Error><RequestId>${escapeXml(requestId)}</RequestId>` +
      '</ErrorResponse>',
    requestId,
  );
}

function xml(status: number, body: string, requestId: string): TWireReply {
  return {
    status,
    headers: { 'content-type': 'text/xml', 'x-amzn-RequestId': requestId },
    body: `<?xml version="1.0"?>\n${body}`,
  };
}

function escapeXml(s: string): string {
  return s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}
