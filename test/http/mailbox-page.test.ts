import { SESv2Client } from '@aws-sdk/client-sesv2';
import { SNSClient } from '@aws-sdk/client-sns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { createSesMailer } from '#shared/adapters/ses/ses-mailer';
import { createSnsSmsSender } from '#shared/adapters/sns/sns-sms-sender';
import { startTestRuntime } from '../helpers/runtime';

let runtime: TRuntime;
beforeAll(async () => {
  runtime = await startTestRuntime();
});
afterAll(() => runtime.stop());

const clientConfig = (endpoint: string | undefined) => ({
  region: runtime.config.region,
  endpoint,
  credentials: runtime.config.credentials,
});

describe('/dev/mailbox on the local runtime', () => {
  it('lists what the service emailed and texted, and opens each message with its links', async () => {
    const mailer = createSesMailer(new SESv2Client(clientConfig(runtime.config.endpoints.sesv2)));
    const sms = createSnsSmsSender(new SNSClient(clientConfig(runtime.config.endpoints.sns)));
    const emailId = await mailer.send({
      from: 'sender@example.com',
      to: ['ann@example.com'],
      subject: 'Please sign: NDA',
      text: 'Sign here: http://localhost:3000/sign/abc123',
    });
    await sms.send('+15550102000', 'Your code is 424242');

    const page = await fetch(`${runtime.baseUrl}/dev/mailbox/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await page.text();
    expect(html).toContain('Please sign: NDA');
    expect(html).toContain('Your code is 424242');

    const message = await fetch(`${runtime.baseUrl}/dev/mailbox/${encodeURIComponent(emailId)}`);
    expect(message.status).toBe(200);
    expect(await message.text()).toContain('href="http://localhost:3000/sign/abc123"');

    // The same list as JSON, newest first, for scripts (npm run demo).
    const listed = await fetch(`${runtime.baseUrl}/dev/mailbox.json`);
    expect(listed.status).toBe(200);
    expect(listed.headers.get('content-type')).toBe('application/json');
    const messages = (await listed.json()) as { id: string; kind: string; subject?: string }[];
    expect(messages.map((m) => m.kind)).toEqual(['sms', 'email']);
    expect(messages[1]).toMatchObject({ id: emailId, subject: 'Please sign: NDA' });

    expect((await fetch(`${runtime.baseUrl}/dev/mailbox/..%2Fdemo-account.json`)).status).toBe(404);
    expect((await fetch(`${runtime.baseUrl}/dev/mailbox/%zz`)).status).toBe(404);
  });
});
