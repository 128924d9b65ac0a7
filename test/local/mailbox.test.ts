import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetAccountCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { CreateTopicCommand, PublishCommand, SNSClient } from '@aws-sdk/client-sns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  listMailbox,
  readMailboxMessage,
  renderMailboxMessage,
  renderMailboxPage,
  startMailboxServer,
  type TMailboxEmail,
  type TMailboxMessage,
  type TMailboxServer,
  type TMailboxSms,
} from '#infra/local/mailbox/index';
import { mailboxPages } from '#infra/local/mailbox-pages';
import { createSesMailer } from '#shared/adapters/ses/ses-mailer';
import { createSnsSmsSender } from '#shared/adapters/sns/sns-sms-sender';

const clientConfig = (endpoint: string) => ({
  endpoint,
  region: 'us-east-1',
  credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
  // Errors here are deliberate; retrying them would only slow the suite down.
  maxAttempts: 1,
});

const signingLink = 'https://sign.example.test/s/abc123?t=tok&x=1';
const hostileSubject = '<script>alert(1)</script>';

let dir: string;
let server: TMailboxServer;
let ses: SESv2Client;
let sns: SNSClient;
let emailId: string;
let smsId: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mailbox-test-'));
  server = await startMailboxServer({ port: 0, dir });
  ses = new SESv2Client(clientConfig(server.endpoint));
  sns = new SNSClient(clientConfig(server.endpoint));
  // Sequential on purpose: the list order under test is the order of sending.
  emailId = await createSesMailer(ses, { configurationSetName: 'local' }).send({
    from: 'Acme Signing <noreply@acme.test>',
    to: ['ann@example.test'],
    cc: ['bob@example.test'],
    replyTo: ['owner@acme.test'],
    subject: hostileSubject,
    text: `Hello Ann,\nplease sign here: ${signingLink}.\nThanks`,
    html: `<!doctype html><p>Please <a href="${signingLink}">sign</a> & <b>return</b></p>`,
  });
  smsId = await createSnsSmsSender(sns, { senderId: 'ACME' }).send(
    '+15551234567',
    `Acme: sign your document\n${signingLink}`,
  );
});

afterAll(async () => {
  ses?.destroy();
  sns?.destroy();
  await server?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('mailbox stand-in server', () => {
  it('binds to loopback on the port it reports', () => {
    expect(server.port).toBeGreaterThan(0);
    expect(server.endpoint).toBe(`http://127.0.0.1:${server.port}`);
  });

  it('writes one JSON file per accepted message, named by the returned message id', async () => {
    const files = (await readdir(dir)).sort();
    expect(files).toEqual([`${emailId}.json`, `${smsId}.json`].sort());

    const email = JSON.parse(await readFile(join(dir, `${emailId}.json`), 'utf8')) as TMailboxEmail;
    expect(email).toMatchObject({
      id: emailId,
      kind: 'email',
      from: 'Acme Signing <noreply@acme.test>',
      to: ['ann@example.test'],
      cc: ['bob@example.test'],
      bcc: [],
      replyTo: ['owner@acme.test'],
      subject: hostileSubject,
      configurationSetName: 'local',
    });
    expect(email.text).toContain(signingLink);
    expect(email.html).toContain('<b>return</b>');
    expect(Number.isNaN(Date.parse(email.time))).toBe(false);

    const sms = JSON.parse(await readFile(join(dir, `${smsId}.json`), 'utf8')) as TMailboxSms;
    expect(sms).toMatchObject({
      id: smsId,
      kind: 'sms',
      phone: '+15551234567',
      from: 'ACME',
      smsType: 'Transactional',
      text: `Acme: sign your document\n${signingLink}`,
    });
  });

  it('lists messages newest first and reads them back by id', async () => {
    const messages = await listMailbox(dir);
    expect(messages.map((m) => m.id)).toEqual([smsId, emailId]);
    expect(messages.map((m) => m.kind)).toEqual(['sms', 'email']);
    expect(await readMailboxMessage(dir, emailId)).toEqual(messages[1]);
  });

  it('treats ids that are not plain file stems as not found', async () => {
    expect(await readMailboxMessage(dir, '../etc/passwd')).toBeUndefined();
    expect(await readMailboxMessage(dir, `${emailId}/..`)).toBeUndefined();
    expect(await readMailboxMessage(dir, 'nope')).toBeUndefined();
  });

  it('skips files that are not mailbox messages', async () => {
    const other = await mkdtemp(join(tmpdir(), 'mailbox-junk-'));
    try {
      await writeFile(join(other, 'broken.json'), '{not json');
      await writeFile(join(other, 'notes.txt'), 'hello');
      await writeFile(join(other, 'other.json'), JSON.stringify({ id: 'other', kind: 'fax' }));
      expect(await listMailbox(other)).toEqual([]);
      expect(await listMailbox(join(other, 'missing'))).toEqual([]);
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });

  it('surfaces an unsupported SNS action as an SDK error', async () => {
    await expect(sns.send(new CreateTopicCommand({ Name: 't' }))).rejects.toMatchObject({
      name: 'InvalidAction',
      $metadata: { httpStatusCode: 400 },
    });
  });

  it('surfaces an unsupported SESv2 operation as an SDK error', async () => {
    await expect(ses.send(new GetAccountCommand({}))).rejects.toMatchObject({
      name: 'BadRequestException',
      $metadata: { httpStatusCode: 400 },
    });
  });

  it('rejects what SNS itself would reject and stores nothing for it', async () => {
    await expect(
      sns.send(new PublishCommand({ PhoneNumber: '555-1234', Message: 'hi' })),
    ).rejects.toMatchObject({ name: 'InvalidParameterException' });
    await expect(
      sns.send(new PublishCommand({ TopicArn: 'arn:aws:sns:us-east-1:1:t', Message: 'hi' })),
    ).rejects.toMatchObject({ name: 'InvalidParameterException' });
    expect(await readdir(dir)).toHaveLength(2);
  });
});

describe('mailbox pages', () => {
  let messages: TMailboxMessage[];
  beforeAll(async () => {
    messages = await listMailbox(dir);
  });

  it('lists both messages with links to each, escaping the subject', () => {
    const html = renderMailboxPage(messages);
    expect(html).toContain(`href="/dev/mailbox/${emailId}"`);
    expect(html).toContain(`href="/dev/mailbox/${smsId}"`);
    expect(html).toContain('ann@example.test');
    expect(html).toContain('+15551234567');
    expect(html).toContain('Acme: sign your document');
    expect(html).not.toContain('<script>');
    expect(html).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
  });

  it('honours a different mount point', () => {
    expect(renderMailboxPage(messages, { basePath: '/x/' })).toContain(`href="/x/${smsId}"`);
  });

  it('says so when there are no messages', () => {
    expect(renderMailboxPage([])).toContain('No messages yet');
  });

  it('shows an email with headers, linked URLs and the HTML body in a sandboxed iframe', () => {
    const email = messages.find((m) => m.id === emailId)!;
    const html = renderMailboxMessage(email);
    expect(html).not.toContain('<script>');
    expect(html).toContain('bob@example.test');
    expect(html).toContain('owner@acme.test');
    const href = 'https://sign.example.test/s/abc123?t=tok&#38;x=1';
    // The sentence's full stop stays outside the link.
    expect(html).toContain(`<a href="${href}" target="_blank" rel="noopener noreferrer">${href}</a>.`);

    const iframe = /<iframe[^>]*>/.exec(html)?.[0] ?? '';
    expect(iframe).toMatch(/sandbox="[^"]*"/);
    expect(iframe).not.toMatch(/allow-scripts|allow-same-origin/);
    // The body is inert attribute text, never markup of this page.
    expect(iframe).toContain(
      'srcdoc="&#60;!doctype html&#62;&#60;base target=&#34;_blank&#34;&#62;&#60;p&#62;',
    );
    expect(html).not.toContain('<b>return</b>');
  });

  it('shows an SMS with its link clickable', () => {
    const sms = messages.find((m) => m.id === smsId)!;
    const html = renderMailboxMessage(sms);
    expect(html).toContain('SMS to +15551234567');
    expect(html).toContain('<a href="https://sign.example.test/s/abc123?t=tok&#38;x=1"');
    expect(html).not.toContain('<iframe');
  });

  it('leaves non-http schemes and attribute-breaking text as plain escaped text', () => {
    const html = renderMailboxMessage({
      id: 'x',
      kind: 'sms',
      time: new Date(0).toISOString(),
      phone: '+15550000000',
      text: 'javascript:alert(1) and https://a.test/"onmouseover="x and <img src=x onerror=y>',
    });
    expect(html).not.toContain('href="javascript');
    expect(html).toContain('<a href="https://a.test/"');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('"onmouseover');
  });
});

describe('mailbox pages on the service port', () => {
  // The service port may face a network (--host 0.0.0.0), which a test must not reach: the
  // callers' addresses are given as the socket would report them.
  async function open(path: string, remoteAddress: string) {
    const req = { method: 'GET', socket: { remoteAddress } } as unknown as IncomingMessage;
    const answer = { status: 0, body: '' };
    const res = {
      writeHead(status: number) {
        answer.status = status;
        return res;
      },
      end(body: string) {
        answer.body = body;
      },
    } as unknown as ServerResponse;
    const handled = await mailboxPages(dir)(req, res, new URL(path, 'http://service.test'));
    return { handled, ...answer };
  }

  it('shows the list and each message to callers on this machine', async () => {
    for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      const list = await open('/dev/mailbox', address);
      expect(list).toMatchObject({ handled: true, status: 200 });
      expect(list.body).toContain('ann@example.test');
      const one = await open(`/dev/mailbox/${emailId}`, address);
      expect(one).toMatchObject({ handled: true, status: 200 });
      expect(one.body).toContain('sign.example.test');
    }
  });

  it('refuses callers from a network, saying where to open it, and shows them no message', async () => {
    for (const address of ['192.168.1.20', '10.0.0.5', '::ffff:192.168.1.20', 'fe80::1']) {
      for (const path of ['/dev/mailbox', `/dev/mailbox/${emailId}`, `/dev/mailbox/${smsId}/`]) {
        const answer = await open(path, address);
        expect(answer).toMatchObject({ handled: true, status: 403 });
        expect(answer.body).toContain('only on the machine running the service');
        expect(answer.body).not.toContain('ann@example.test');
        expect(answer.body).not.toContain('sign.example.test');
      }
    }
  });
});
