import {
  GetQueueAttributesCommand,
  type Message,
  ReceiveMessageCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSBatchResponse, SQSRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildNotificationsWorker } from '#functions/notifications-worker/app';
import { dataPaths } from '#infra/local/layout';
import { listMailbox, snsEventOf, type TMailboxEmail, type TMailboxSms } from '#infra/local/mailbox/index';
import type { TRuntime } from '#infra/local/runtime';
import { accountKeys } from '#shared/adapters/dynamodb/entities/account';
import { notificationKeys } from '#shared/adapters/dynamodb/entities/notification';
import { signingKeys } from '#shared/adapters/dynamodb/entities/signing';
import { createLogger } from '#shared/adapters/telemetry/logger';
import { createCountingBundleStore } from '#shared/composition/bundle-publishing';
import { bySigner, SYSTEM } from '#shared/domain/bundles/actor';
import { event } from '#shared/domain/bundles/audit-event';
import { changeBundle } from '#shared/domain/bundles/change-bundle';
import type { TNotificationRecord } from '#shared/domain/notifications/notification';
import type { TNotificationJob } from '#shared/domain/outbox/jobs/notifications';
import { hashToken } from '#shared/domain/tokens';
import { aBundle, aPdfB64 } from '../helpers/bundles';
import { apiClient, startTestRuntime } from '../helpers/runtime';

let runtime: TRuntime;
let call: ReturnType<typeof apiClient>;
let b64: string;
let sqs: SQSClient;

beforeAll(async () => {
  // Retries after 0.3 s, 1.2 s… instead of 30 s, 2 min…
  runtime = await startTestRuntime({ notificationRetryScale: 0.01 });
  call = apiClient(runtime);
  b64 = await aPdfB64();
  sqs = new SQSClient({
    region: runtime.config.region,
    endpoint: runtime.config.endpoints.sqs,
    credentials: runtime.config.credentials,
  });
});
afterAll(async () => {
  sqs?.destroy();
  await runtime?.stop();
});

const quiet = createLogger('silent');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let counter = 0;
/** Every test writes to addresses of its own, so the shared mailbox tells them apart. */
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}`;
const phoneOf = (n: number) => `+1 555 010 ${String(n).padStart(4, '0')}`;
let phones = 1000;

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await sleep(100);
  }
}

const mailbox = () => listMailbox(dataPaths(runtime.dataDir).mailbox);
const emailsTo = async (address: string) =>
  (await mailbox()).filter(
    (m): m is TMailboxEmail =>
      m.kind === 'email' && [...m.to, ...m.cc].some((t) => t.toLowerCase() === address.toLowerCase()),
  );
const textsTo = async (phone: string) =>
  (await mailbox()).filter((m): m is TMailboxSms => m.kind === 'sms' && m.phone === phone);
const anEmailTo = (address: string) =>
  waitFor(`an email to ${address}`, async () => (await emailsTo(address))[0]);

/** Nothing waiting, in flight or delayed on the notifications queue, twice in a row. */
async function drained(): Promise<void> {
  let calm = 0;
  await waitFor('the notifications queue to drain', async () => {
    const { Attributes = {} } = await sqs.send(
      new GetQueueAttributesCommand({
        QueueUrl: runtime.config.queues!.notifications,
        AttributeNames: ['All'],
      }),
    );
    const busy = [
      'ApproximateNumberOfMessages',
      'ApproximateNumberOfMessagesNotVisible',
      'ApproximateNumberOfMessagesDelayed',
    ]
      .map((k) => Number(Attributes[k as keyof typeof Attributes] ?? 0))
      .some((n) => n > 0);
    calm = busy ? 0 : calm + 1;
    if (calm >= 2) return true;
    await sleep(150);
    return undefined;
  });
}

async function create(body: Record<string, unknown>, key?: string) {
  const res = await apiClient(runtime, key)('POST', '/bundles/', { json: aBundle(body, b64) });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

async function eventsOf(
  bundleId: string,
): Promise<{ kind: string; description: string; packet_id: string | null }[]> {
  const res = await call('GET', `/bundles/${bundleId}/events/`);
  expect(res.status).toBe(200);
  return res.body;
}

/** The job's `seq`: the place of the packet's audit event of `kind` in the bundle's history. */
async function seqOf(bundleId: string, kind: string, packetId: string): Promise<number> {
  const seq = (await eventsOf(bundleId)).findIndex((e) => e.kind === kind && e.packet_id === packetId);
  expect(seq).toBeGreaterThanOrEqual(0);
  return seq;
}

async function recordOf(
  bundleId: string,
  seq: number,
  recipient: string,
  accountId = runtime.demo.accountId,
) {
  const out = await runtime.db.send(
    new GetCommand({
      TableName: runtime.config.tableName,
      Key: notificationKeys.record(accountId, bundleId, seq, recipient),
    }),
  );
  return out.Item as (TNotificationRecord & Record<string, unknown>) | undefined;
}

const LINK = () => new RegExp(`${runtime.baseUrl}/sign/([0-9A-Za-z]{43})`);

async function tokenOf(text: string) {
  const token = LINK().exec(text)?.[1];
  expect(token, text).toBeDefined();
  const out = await runtime.db.send(
    new GetCommand({ TableName: runtime.config.tableName, Key: signingKeys.token(hashToken(token!)) }),
  );
  return out.Item;
}

/** A bundle store that publishes what it writes, as the functions' own stores do. */
const publishing = () => ({
  bundles: createCountingBundleStore(runtime.config, runtime.db),
});

function recordOfMessage(m: Message): SQSRecord {
  return {
    messageId: m.MessageId!,
    receiptHandle: m.ReceiptHandle!,
    body: m.Body!,
    attributes: {
      ApproximateReceiveCount: m.Attributes?.ApproximateReceiveCount ?? '1',
      SentTimestamp: m.Attributes?.SentTimestamp ?? '',
      SenderId: '',
      ApproximateFirstReceiveTimestamp: '',
    },
    messageAttributes: {},
    md5OfBody: m.MD5OfBody ?? '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:esign-local-notifications',
    awsRegion: 'us-east-1',
  };
}

describe('signing requests when a bundle is sent', () => {
  it('emails the email signer (HTML and text, from the requester) and texts the phone signer, each a fresh link', async () => {
    const u = unique();
    const email = `ann-${u}@example.com`;
    const phone = phoneOf(phones++);
    const b = await create({
      label: `Lease ${u}`,
      packets: [
        { key: 'ann', name: 'Ann <Lee>', email },
        { key: 'bob', name: 'Bob Roe', phone, deliver_via: 'phone' },
      ],
    });
    const [ann, bob] = b.packets;

    const mail = await anEmailTo(email);
    expect(mail).toMatchObject({
      from: '"Demo Account" <no-reply@esign.local>',
      to: [email],
      replyTo: ['demo@example.com'],
      subject: `Please sign: Lease ${u}`,
      configurationSetName: 'esign-local',
    });
    const url = LINK().exec(mail.text)?.[0];
    expect(mail.text).toContain(`Demo Account has sent you "Lease ${u}" to review and sign.`);
    expect(mail.text).toContain(`Review and sign: ${url}`);
    expect(mail.html).toContain(`href="${url}"`);
    // Every piece of user text is escaped in the HTML part.
    expect(mail.html).toContain('Hello Ann &#60;Lee&#62;,');
    expect(mail.html).not.toContain('<Lee>');
    expect(await tokenOf(mail.text)).toMatchObject({
      accountId: runtime.demo.accountId,
      bundleId: b.id,
      packetId: ann.id,
      kind: 'link',
    });

    const e164 = phone.replace(/ /g, '');
    const sms = await waitFor('a text', async () => (await textsTo(e164))[0]);
    expect(sms.text).toMatch(
      new RegExp(`^Demo Account: Please review and sign "Lease ${u}"\\. ${LINK().source}$`),
    );
    expect(sms.smsType).toBe('Transactional');
    expect(await tokenOf(sms.text)).toMatchObject({ bundleId: b.id, packetId: bob.id, kind: 'link' });

    // The record of each message: sent, with the provider's id (the local mailbox's message id).
    const record = await recordOf(b.id, await seqOf(b.id, 'ps', ann.id), email);
    expect(record).toMatchObject({
      state: 'sent',
      channel: 'email',
      type: 'signing_request',
      providerMessageId: mail.id,
    });
    const smsRecord = await recordOf(b.id, await seqOf(b.id, 'ps', bob.id), e164);
    expect(smsRecord).toMatchObject({ state: 'sent', channel: 'sms', providerMessageId: sms.id });
    // A successful send adds no audit event of its own: `ps` already says it.
    expect((await eventsOf(b.id)).filter((e) => e.kind.startsWith('n'))).toEqual([]);
  });

  it('messages only the first signer of an in_order bundle, and nobody for embedded signing', async () => {
    const u = unique();
    const first = `first-${u}@example.com`;
    const second = `second-${u}@example.com`;
    const embedded = `embedded-${u}@example.com`;
    await create({
      in_order: true,
      packets: [
        { key: 'ann', name: 'First', email: first, order: 1 },
        { key: 'bob', name: 'Second', email: second, order: 2 },
      ],
    });
    await create({ packets: [{ key: 'ann', name: 'Embedded', email: embedded, deliver_via: 'embed' }] });
    await anEmailTo(first);
    await drained();
    expect(await emailsTo(second)).toEqual([]);
    expect(await emailsTo(embedded)).toEqual([]);
  });
});

describe('suppress flags', () => {
  it('holds back what each flag names, and suppress_all everything', async () => {
    const u = unique();
    const to = (k: string) => `${k}-${u}@example.com`;
    const b = await create({
      packets: [
        { key: 'ann', name: 'No signing request', email: to('signing'), suppress_signing: true },
        { key: 'bob', name: 'Nothing at all', email: to('all'), suppress_all: true },
        { key: 'cat', name: 'No reminders', email: to('reminder'), suppress_reminder: true },
        { key: 'dan', name: 'Everything', email: to('none') },
      ],
    });
    const [signing, all, reminder, none] = b.packets;
    await anEmailTo(to('none'));
    await anEmailTo(to('reminder'));
    await drained();
    expect(await emailsTo(to('signing'))).toEqual([]);
    expect(await emailsTo(to('all'))).toEqual([]);

    for (const p of [signing, all, reminder, none]) {
      const res = await call('PUT', `/packets/${p.id}/remind/`);
      expect(res.status, res.text).toBe(200);
    }
    // suppress_signing does not hold back reminders.
    const reminded = await anEmailTo(to('signing'));
    expect(reminded.subject).toMatch(/^Reminder: Please sign: /);
    expect(reminded.text).toContain('A reminder: "Lease" is still waiting for your signature.');
    await waitFor('the reminder', async () => ((await emailsTo(to('none'))).length === 2 ? true : undefined));
    await drained();
    expect(await emailsTo(to('all'))).toEqual([]);
    expect((await emailsTo(to('reminder'))).map((m) => m.subject)).toEqual(['Please sign: Lease']);
  });
});

describe('message precedence', () => {
  it('takes the packet message over the bundle message over the account default over the built-in text', async () => {
    const u = unique();
    const to = (k: string) => `${k}-${u}@example.com`;
    const [cat, dan] = [phoneOf(phones++), phoneOf(phones++)];
    await create({
      email_subject: 'Your lease, please',
      email_message: 'The bundle says: sign by Friday.',
      sms_message: 'Bundle SMS text.',
      packets: [
        {
          key: 'ann',
          name: 'Ann',
          email: to('packet'),
          email_message: 'Ann, <script>alert(1)</script> please.',
        },
        { key: 'bob', name: 'Bob', email: to('bundle') },
        { key: 'cat', name: 'Cat', phone: cat, deliver_via: 'phone', sms_message: 'Packet SMS text.' },
        { key: 'dan', name: 'Dan', phone: dan, deliver_via: 'phone' },
      ],
    });
    const packetMail = await anEmailTo(to('packet'));
    expect(packetMail.subject).toBe('Your lease, please');
    expect(packetMail.text).toContain('Ann, <script>alert(1)</script> please.');
    expect(packetMail.text).not.toContain('The bundle says');
    expect(packetMail.html).toContain('Ann, &#60;script&#62;alert(1)&#60;/script&#62; please.');
    expect(packetMail.html).not.toContain('<script>');
    expect((await anEmailTo(to('bundle'))).text).toContain('The bundle says: sign by Friday.');
    const catText = await waitFor('a text', async () => (await textsTo(cat.replace(/ /g, '')))[0]);
    expect(catText.text).toMatch(/^Demo Account: Packet SMS text\. http/);
    const danText = await waitFor('a text', async () => (await textsTo(dan.replace(/ /g, '')))[0]);
    expect(danText.text).toMatch(/^Demo Account: Bundle SMS text\. http/);

    // An account with defaults of its own, and one without.
    const acme = await runtime.seedAccount('Acme Corp', `ops-${u}@acme.test`);
    await runtime.db.send(
      new UpdateCommand({
        TableName: runtime.config.tableName,
        Key: accountKeys.item(acme.accountId),
        UpdateExpression: 'SET emailMessage = :e, smsMessage = :s',
        ExpressionAttributeValues: { ':e': 'Acme asks you to sign.', ':s': 'Acme SMS default.' },
      }),
    );
    const eve = phoneOf(phones++);
    await create(
      {
        packets: [
          { key: 'ann', name: 'Ann', email: to('account') },
          { key: 'bob', name: 'Eve', phone: eve, deliver_via: 'phone' },
        ],
      },
      acme.apiKey,
    );
    const accountMail = await anEmailTo(to('account'));
    expect(accountMail.text).toContain('Acme asks you to sign.');
    expect(accountMail.from).toBe(`"Acme Corp" <no-reply@esign.local>`);
    expect(accountMail.replyTo).toEqual([`ops-${u}@acme.test`]);
    const eveText = await waitFor('a text', async () => (await textsTo(eve.replace(/ /g, '')))[0]);
    expect(eveText.text).toMatch(/^Acme Corp: Acme SMS default\. http/);

    await create({ label: `Plain ${u}`, packets: [{ key: 'ann', name: 'Ann', email: to('builtin') }] });
    expect((await anEmailTo(to('builtin'))).text).toContain(
      `Demo Account has sent you "Plain ${u}" to review and sign.`,
    );
  });
});

describe('exactly once per job', () => {
  it('sends a job that comes twice (or three times) once', async () => {
    const u = unique();
    const email = `twice-${u}@example.com`;
    const b = await create({ packets: [{ key: 'ann', name: 'Ann', email }] });
    const ann = b.packets[0];
    const mail = await anEmailTo(email);
    const job: TNotificationJob = {
      type: 'signing_request',
      accountId: runtime.demo.accountId,
      bundleId: b.id,
      packetId: ann.id,
      seq: await seqOf(b.id, 'ps', ann.id),
      date: new Date().toISOString(),
    };
    for (let i = 0; i < 2; i++) {
      await sqs.send(
        new SendMessageCommand({
          QueueUrl: runtime.config.queues!.notifications,
          MessageBody: JSON.stringify(job),
        }),
      );
    }
    await drained();
    expect((await emailsTo(email)).map((m) => m.id)).toEqual([mail.id]);
    expect(await recordOf(b.id, job.seq, email)).toMatchObject({ state: 'sent', providerMessageId: mail.id });
  });

  it('waits while another attempt holds a fresh claim, and sends again once that claim is stale', async () => {
    const u = unique();
    const email = `claimed-${u}@example.com`;
    const b = await create({ packets: [{ key: 'ann', name: 'Ann', email }] });
    const ann = b.packets[0];
    await anEmailTo(email);
    // A reminder whose message another attempt claimed a moment ago and is still sending.
    await runtime.workers.notifications.stop();
    try {
      expect((await call('PUT', `/packets/${ann.id}/remind/`)).status).toBe(200);
      const seq = await seqOf(b.id, 'rm', ann.id);
      const claim = (updated: Date) =>
        runtime.db.send(
          new PutCommand({
            TableName: runtime.config.tableName,
            Item: {
              ...notificationKeys.record(runtime.demo.accountId, b.id, seq, email),
              accountId: runtime.demo.accountId,
              bundleId: b.id,
              seq,
              recipient: email,
              channel: 'email',
              type: 'reminder',
              state: 'sending',
              claimId: 'another-attempt',
              updated: updated.toISOString(),
            },
          }),
        );
      await claim(new Date());
      // Driven directly (no queue URL: nothing to reschedule), so the job stays on the queue.
      const worker = buildNotificationsWorker({
        config: { ...runtime.config, queues: {} },
        db: runtime.db,
        log: quiet,
      });
      const job = {
        type: 'reminder',
        accountId: runtime.demo.accountId,
        bundleId: b.id,
        packetId: ann.id,
        seq,
        date: '',
      };
      const record = recordOfMessage({ MessageId: 'm-1', ReceiptHandle: 'r-1', Body: JSON.stringify(job) });
      const busy = (await worker({ Records: [record] })) as SQSBatchResponse;
      expect(busy.batchItemFailures).toEqual([{ itemIdentifier: 'm-1' }]);
      expect(await emailsTo(email)).toHaveLength(1);

      // That attempt died: its claim goes stale and the queued job sends the reminder.
      await claim(new Date(Date.now() - 6 * 60_000));
    } finally {
      runtime.workers.notifications.start();
    }
    await waitFor('the reminder', async () => ((await emailsTo(email)).length === 2 ? true : undefined));
    await drained();
    expect((await emailsTo(email)).map((m) => m.subject)).toEqual([
      'Reminder: Please sign: Lease',
      'Please sign: Lease',
    ]);
  });
});

describe('failures are never silent', () => {
  it('records an nf event when the provider fails, fails the job, and sends on the retry', async () => {
    const u = unique();
    const email = `fails-${u}@example.com`;
    await runtime.workers.notifications.stop();
    let bundleId = '';
    try {
      const b = await create({ packets: [{ key: 'ann', name: 'Ann', email }] });
      bundleId = b.id;
      // Take this bundle's job off the queue, as the event source would.
      const message = await waitFor('the job', async () => {
        const got = await sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: runtime.config.queues!.notifications,
            MaxNumberOfMessages: 10,
            WaitTimeSeconds: 1,
            MessageSystemAttributeNames: ['All'],
            VisibilityTimeout: 0,
          }),
        );
        return got.Messages?.find((m) => JSON.parse(m.Body!).bundleId === b.id);
      });
      // The same worker with an email provider that is not there.
      const failing = buildNotificationsWorker({
        config: {
          ...runtime.config,
          endpoints: { ...runtime.config.endpoints, sesv2: 'http://127.0.0.1:1' },
        },
        db: runtime.db,
        sqs,
        log: quiet,
      });
      const record = recordOfMessage(message);
      const result = (await failing({ Records: [record] })) as SQSBatchResponse;
      expect(result.batchItemFailures).toEqual([{ itemIdentifier: record.messageId }]);

      const nf = (await eventsOf(b.id)).filter((e) => e.kind === 'nf');
      expect(nf).toHaveLength(1);
      expect(nf[0]).toMatchObject({ packet_id: b.packets[0].id });
      expect(nf[0]!.description).toMatch(
        /^Message could not be sent: email to f\*\*\*@example\.com \([\w.-]+; attempt 1 of 5, will retry\)$/,
      );
      expect(await recordOf(b.id, await seqOf(b.id, 'ps', b.packets[0].id), email)).toMatchObject({
        state: 'failed',
      });
      expect(await emailsTo(email)).toEqual([]);
    } finally {
      runtime.workers.notifications.start();
    }
    // The queue hands the job out again and the real provider takes it.
    const mail = await anEmailTo(email);
    await drained();
    expect(await emailsTo(email)).toHaveLength(1);
    const ann = (await eventsOf(bundleId)).find((e) => e.kind === 'ps')!;
    expect(await recordOf(bundleId, await seqOf(bundleId, 'ps', ann.packet_id!), email)).toMatchObject({
      state: 'sent',
      providerMessageId: mail.id,
    });
    expect((await eventsOf(bundleId)).filter((e) => e.kind === 'nf')).toHaveLength(1);
  });

  it('records a number it cannot text as undeliverable, once, without retrying', async () => {
    const u = unique();
    const b = await create({
      label: `National ${u}`,
      packets: [{ key: 'ann', name: 'Ann', phone: '555 010 9999', deliver_via: 'phone' }],
    });
    const nf = await waitFor('an nf event', async () => {
      const found = (await eventsOf(b.id)).filter((e) => e.kind === 'nf');
      return found.length > 0 ? found : undefined;
    });
    await drained();
    expect((await eventsOf(b.id)).filter((e) => e.kind === 'nf')).toHaveLength(1);
    expect(nf[0]!.description).toBe(
      'Message could not be sent: SMS to ********9999 (the phone number is not in international format (+…))',
    );
  });
});

describe('bounces and complaints', () => {
  it("turns SES's simulated bounce and complaint into nb events on the bundle", async () => {
    const b = await create({
      packets: [
        { key: 'ann', name: 'Bounces', email: 'bounce@simulator.amazonses.com' },
        { key: 'bob', name: 'Complains', email: 'complaint@simulator.amazonses.com' },
      ],
    });
    const [ann, bob] = b.packets;
    const nb = await waitFor('two nb events', async () => {
      const found = (await eventsOf(b.id)).filter((e) => e.kind === 'nb');
      return found.length === 2 ? found : undefined;
    });
    expect(nb).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          packet_id: ann.id,
          description:
            'Message not delivered: email to b***@simulator.amazonses.com bounced (Permanent, General: smtp; 550 5.1.1 user unknown)',
        }),
        expect.objectContaining({
          packet_id: bob.id,
          description:
            'Message not delivered: email to c***@simulator.amazonses.com was marked as spam by the recipient (abuse)',
        }),
      ]),
    );
  });

  it('records a bounce notification in the real SES format once, however often SNS delivers it', async () => {
    const u = unique();
    const email = `full-${u}@example.com`;
    const b = await create({ packets: [{ key: 'ann', name: 'Ann', email }] });
    const mail = await anEmailTo(email);
    // SES feedback notification (identity notifications; configuration sets send `eventType`).
    const notification = JSON.stringify({
      notificationType: 'Bounce',
      bounce: {
        bounceType: 'Transient',
        bounceSubType: 'MailboxFull',
        bouncedRecipients: [
          {
            emailAddress: email,
            action: 'failed',
            status: '4.2.2',
            diagnosticCode: 'smtp; 452 4.2.2 The email account that you tried to reach is over quota',
          },
        ],
        timestamp: new Date().toISOString(),
        feedbackId: '0100017f2c8f9f1e-6d6b3c2e-0a9b-4f0e-9a0e-2f5c1d0c6d1e-000000',
        remoteMtaIp: '203.0.113.5',
        reportingMTA: 'dsn; a8-70.smtp-out.amazonses.com',
      },
      mail: {
        timestamp: mail.time,
        source: 'no-reply@esign.local',
        sourceArn: 'arn:aws:ses:us-east-1:123456789012:identity/esign.local',
        sourceIp: '192.0.2.10',
        sendingAccountId: '123456789012',
        callerIdentity: 'esign-notifications',
        messageId: mail.id,
        destination: [email],
      },
    });
    const worker = buildNotificationsWorker({ config: runtime.config, db: runtime.db, log: quiet });
    await worker(snsEventOf(notification));
    await worker(snsEventOf(notification));
    const nb = (await eventsOf(b.id)).filter((e) => e.kind === 'nb');
    expect(nb).toEqual([
      expect.objectContaining({
        packet_id: b.packets[0].id,
        description:
          'Message not delivered: email to f***@example.com bounced (Transient, MailboxFull: smtp; 452 4.2.2 The email account that you tried to reach is over quota)',
      }),
    ]);

    // Deliveries need nothing; a report about a message we never sent is retried (it may be early).
    await worker(
      snsEventOf(JSON.stringify({ eventType: 'Delivery', mail: { messageId: mail.id }, delivery: {} })),
    );
    expect((await eventsOf(b.id)).filter((e) => e.kind === 'nb')).toHaveLength(1);
    const unknown = notification.replace(mail.id, 'not-a-message-we-sent');
    await expect(worker(snsEventOf(unknown))).rejects.toThrow(/No sent message/);
  });
});

describe('documents ready and declines', () => {
  it('tells every signer with an email who is not suppressed, the cc list, and the sender with cc_sender', async () => {
    const u = unique();
    const to = (k: string) => `${k}-${u}@example.com`;
    const b = await create({
      label: `Final ${u}`,
      cc_emails: [to('cc'), to('ann').toUpperCase()],
      packets: [
        { key: 'ann', name: 'Ann', email: to('ann') },
        { key: 'bob', name: 'Bob', phone: phoneOf(phones++), deliver_via: 'phone' },
        { key: 'cat', name: 'Cat', email: to('cat'), suppress_docs_ready: true },
        { key: 'dan', name: 'Dan', email: to('dan'), suppress_all: true },
        { key: 'eve', name: 'Eve', email: to('eve'), phone: phoneOf(phones++), deliver_via: 'phone' },
      ],
    });
    expect((await call('PATCH', `/bundles/${b.id}/`, { json: { cc_sender: true } })).status).toBe(200);
    await drained();
    // The evidence worker does not exist yet: mark the documents ready through the domain.
    await changeBundle(publishing(), runtime.demo.accountId, b.id, (x) => ({
      ...x,
      docsReady: true,
      events: [...x.events, event('docsReady', new Date().toISOString(), SYSTEM)],
    }));
    const subject = `Documents ready: Final ${u}`;
    const ready = async (address: string) => (await emailsTo(address)).filter((m) => m.subject === subject);
    for (const k of ['ann', 'cc', 'eve']) {
      await waitFor(`documents ready to ${k}`, async () => (await ready(to(k)))[0]);
    }
    const sender = await waitFor(
      'documents ready to the sender',
      async () => (await ready('demo@example.com'))[0],
    );
    await drained();
    expect(await ready(to('ann'))).toHaveLength(1);
    expect(await ready(to('cat'))).toEqual([]);
    expect(await ready(to('dan'))).toEqual([]);
    const annMail = (await ready(to('ann')))[0]!;
    expect(annMail.text).toContain(`Everyone has signed "Final ${u}", and the final documents are ready.`);
    expect(annMail.text).toContain(
      'Download the signed documents and your Certificate of Evidence with the button below.',
    );
    expect(annMail.text).toMatch(
      new RegExp(`Download the documents: ${runtime.baseUrl}/sign/copies/[0-9A-Za-z]{43}`),
    );
    expect(annMail.replyTo).toEqual(['demo@example.com']);
    expect(sender.text).toContain(`GET /api/v2/bundles/${b.id}/files/`);
  });

  it('tells the sender who declined, with the reason the decline event carries', async () => {
    const u = unique();
    const b = await create({
      label: `Offer ${u}`,
      packets: [
        { key: 'ann', name: 'Ann', email: `ann-${u}@example.com` },
        { key: 'bob', name: 'Bob Roe', email: `bob-${u}@example.com` },
      ],
    });
    const bob = b.packets[1];
    await changeBundle(publishing(), runtime.demo.accountId, b.id, (x) => ({
      ...x,
      events: [
        ...x.events,
        event('declined', new Date().toISOString(), bySigner(bob.id), bob.id, 'The fee is <b>too high</b>.'),
      ],
    }));
    const mail = await waitFor('the decline notice', async () =>
      (await emailsTo('demo@example.com')).find((m) => m.subject === `Bob Roe declined to sign: Offer ${u}`),
    );
    expect(mail).toMatchObject({
      from: '"Open eSignature" <no-reply@esign.local>',
      to: ['demo@example.com'],
      replyTo: [`bob-${u}@example.com`],
    });
    expect(mail.text).toContain(`Bob Roe (bob-${u}@example.com) declined to sign "Offer ${u}".`);
    expect(mail.text).toContain('Their reason:\nThe fee is <b>too high</b>.');
    expect(mail.html).toContain('The fee is &#60;b&#62;too high&#60;/b&#62;.');
  });
});
