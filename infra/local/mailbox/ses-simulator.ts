// SES's mailbox simulator, locally: an email to bounce@simulator.amazonses.com (or
// complaint@…, with an optional +label) is accepted and then reported, as SES reports it to a
// configuration set's SNS destination. The runtime hands each notification to the notifications
// worker wrapped in an SNS event, the same path it takes on AWS.
import { randomUUID } from 'node:crypto';
import type { SNSEvent } from 'aws-lambda';
import type { TMailboxEmail } from './message';

const SIMULATOR = /^(bounce|complaint)(\+[^@]*)?@simulator\.amazonses\.com$/i;
const LOCAL_ACCOUNT = '000000000000';
const LOCAL_REGION = 'us-east-1';

/** `Name <a@b>` → `a@b`. */
function address(mailbox: string): string {
  const m = /<([^>]+)>\s*$/.exec(mailbox);
  return (m ? m[1]! : mailbox).trim();
}

/**
 * The notifications SES would publish for this email (event publishing format, as a
 * configuration set's SNS event destination sends them): one per simulator kind addressed.
 */
export function simulatedSesEvents(email: TMailboxEmail, now = new Date()): string[] {
  const recipients = [...email.to, ...email.cc, ...email.bcc].map(address);
  const of = (kind: string) => recipients.filter((r) => SIMULATOR.exec(r)?.[1]?.toLowerCase() === kind);
  const timestamp = now.toISOString();
  const mail = {
    timestamp: email.time,
    source: email.from,
    sourceArn: `arn:aws:ses:${LOCAL_REGION}:${LOCAL_ACCOUNT}:identity/${address(email.from).split('@')[1] ?? ''}`,
    sendingAccountId: LOCAL_ACCOUNT,
    messageId: email.id,
    destination: recipients,
    headersTruncated: false,
    headers: [
      { name: 'From', value: email.from },
      { name: 'To', value: email.to.join(', ') },
      { name: 'Subject', value: email.subject },
    ],
    commonHeaders: { from: [email.from], to: email.to, messageId: email.id, subject: email.subject },
    tags: email.configurationSetName ? { 'ses:configuration-set': [email.configurationSetName] } : {},
  };
  const events: string[] = [];
  const bounced = of('bounce');
  if (bounced.length > 0) {
    events.push(
      JSON.stringify({
        eventType: 'Bounce',
        bounce: {
          feedbackId: `${randomUUID()}-000000`,
          bounceType: 'Permanent',
          bounceSubType: 'General',
          bouncedRecipients: bounced.map((emailAddress) => ({
            emailAddress,
            action: 'failed',
            status: '5.1.1',
            diagnosticCode: 'smtp; 550 5.1.1 user unknown',
          })),
          timestamp,
          reportingMTA: 'dns; a8-70.smtp-out.amazonses.com',
        },
        mail,
      }),
    );
  }
  const complained = of('complaint');
  if (complained.length > 0) {
    events.push(
      JSON.stringify({
        eventType: 'Complaint',
        complaint: {
          feedbackId: `${randomUUID()}-000000`,
          complaintSubType: null,
          complainedRecipients: complained.map((emailAddress) => ({ emailAddress })),
          timestamp,
          userAgent: 'Amazon SES Mailbox Simulator',
          complaintFeedbackType: 'abuse',
          arrivalDate: timestamp,
        },
        mail,
      }),
    );
  }
  return events;
}

/** A notification as Lambda receives it from an SNS subscription. */
export function snsEventOf(
  message: string,
  topicArn = `arn:aws:sns:${LOCAL_REGION}:${LOCAL_ACCOUNT}:local-mail-events`,
): SNSEvent {
  return {
    Records: [
      {
        EventSource: 'aws:sns',
        EventVersion: '1.0',
        EventSubscriptionArn: `${topicArn}:${randomUUID()}`,
        Sns: {
          Type: 'Notification',
          MessageId: randomUUID(),
          TopicArn: topicArn,
          Subject: '',
          Message: message,
          Timestamp: new Date().toISOString(),
          SignatureVersion: '1',
          Signature: '',
          SigningCertUrl: '',
          UnsubscribeUrl: '',
          MessageAttributes: {},
        },
      },
    ],
  };
}
