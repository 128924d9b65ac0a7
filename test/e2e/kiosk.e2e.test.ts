// Signing in person in a real headless Chromium against the whole local runtime: the sender makes a
// kiosk link for a signer with SMS pin, opens it on "their" device, hands it over; the signer
// passes the texted code, signs and finishes; the page locks to the hand-back screen, the link and
// the session are dead, and the Certificate of Evidence (pdftotext) and the evidence record say who
// hosted it. Declining locks the page the same way; the hand-over screen speaks the signer's
// language (Arabic, right to left). Screenshots go to test-artifacts/kiosk-*.png.
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations, describeViolations } from '../helpers/axe';
import { runBrowser, shot, watchProblems } from '../helpers/browser';
import { browserSuite } from '../helpers/browser-suite';
import { attachedFiles, textOf } from '../helpers/poppler';
import { eventually } from '../helpers/receiver';

const suite = browserSuite({
  pdf: [
    {
      size: 'Letter',
      text: [
        { value: 'Loan agreement', x: 72, y: 720, size: 20 },
        { value: 'Borrower signature:', x: 72, y: 300, size: 11 },
      ],
    },
  ],
  browserArgs: ['--disable-component-update', '--disable-sync'],
});

/** A sent bundle with one kiosk signer and their signature field; `packet` adds to the signer. */
const aKioskBundle = (label: string, packet: Record<string, unknown> = {}) =>
  suite.sentBundle({
    label,
    requester_name: 'Branch Office',
    packets: [{ key: 'kim', name: 'Kim Borrower', deliver_via: 'kiosk', ...packet }],
    document: 'loan',
    fields: [
      { key: 'sig', kind: 'sig', page: 1, x: 30, y: 58, w: 30, h: 6, editors: ['kim'], required: true },
    ],
  });

describe.runIf(runBrowser)('signing in person (kiosk) in a real browser', () => {
  describe('hands over, passes the SMS code, signs, locks to the hand-back screen, and the certificate names the host', () => {
    let bundle: Awaited<ReturnType<typeof aKioskBundle>>;
    let packetId: string;
    let url: string;
    let context: BrowserContext;
    let page: Page;
    let problems: string[];

    it('the sender makes a kiosk link for a packet ready to sign', async () => {
      bundle = await aKioskBundle('Loan at the branch', { phone: '+1 555 010 5151', auth_sms: true });
      packetId = bundle.packets[0]!.id;
      expect(bundle.packets[0]!.status).toBe('re');

      const made = await suite.call('POST', `/packets/${packetId}/kiosk_url/`, {
        json: { host_name: 'Hana Host', host_email: 'hana@example.com', device: 'Branch tablet 3' },
      });
      expect(made.status, made.text).toBe(201);
      url = made.body.url as string;
    }, 60_000);

    it('the hand-over screen shows nothing of the documents and opens no session', async () => {
      // The sender's device: a phone-sized touch screen.
      context = await suite.browser.newContext({
        viewport: { width: 390, height: 844 },
        deviceScaleFactor: 2,
        isMobile: true,
        hasTouch: true,
        locale: 'en-US',
      });
      page = await context.newPage();
      problems = watchProblems(page);
      await page.goto(url);

      // The hand-over screen: nothing of the documents, and no session opened yet.
      await page.getByRole('heading', { name: 'Please hand this device to Kim Borrower' }).waitFor();
      await page
        .getByText('Hana Host has prepared documents for Kim Borrower to sign on this device.')
        .waitFor();
      expect(await page.locator('canvas.page-canvas').count()).toBe(0);
      const before = await suite.call('GET', `/packets/${packetId}/`);
      expect(before.body.status).toBe('re');
      await shot(page, 'kiosk-1-hand-over.png');
      expect(describeViolations(await axeViolations(page))).toEqual([]);
      await page.getByRole('button', { name: 'Start', exact: true }).click();
    }, 60_000);

    it('the signer passes the code texted to their own phone and signs', async () => {
      // The signer's own phone gets the code.
      await page.getByRole('heading', { name: 'Confirm it’s you' }).waitFor();
      const seen = await suite.inbox.seen();
      await page.getByRole('button', { name: 'Text me a code' }).click();
      const code = await suite.inbox.textedCode('5151', seen);
      await page.getByLabel('The 6-digit code').fill(code);
      await shot(page, 'kiosk-2-sms-code.png');
      await page.getByRole('button', { name: 'Confirm' }).click();

      await page.getByRole('heading', { name: 'Loan at the branch' }).waitFor();
      await page.locator('.page.rendered').first().waitFor();
      await page.getByRole('button', { name: 'Start', exact: true }).click();
      await page.keyboard.press('Enter');
      await page.getByRole('dialog', { name: 'Add your signature' }).waitFor();
      await page.getByRole('tab', { name: 'Type' }).click();
      expect(await page.getByRole('textbox', { name: 'Your full name' }).inputValue()).toBe('Kim Borrower');
      await page.getByRole('button', { name: 'Apply signature' }).click();
      await page.getByRole('button', { name: 'Go to finish' }).click();
      await page.getByLabel(/I agree to sign these documents electronically/).check();
      await shot(page, 'kiosk-3-finish.png');
      await page.getByRole('button', { name: 'Finish signing' }).click();
    }, 60_000);

    it('it locks to the hand-back screen, with no way back into the documents', async () => {
      // Locked: the hand-back screen, and no way back into the documents.
      await page.getByRole('heading', { name: 'Thank you' }).waitFor();
      await page.getByText('Please hand the device back to Hana Host.').waitFor();
      await shot(page, 'kiosk-4-hand-back.png');
      expect(describeViolations(await axeViolations(page))).toEqual([]);
      expect(await page.locator('#language select').count()).toBe(0);
      expect(await page.evaluate<number>('sessionStorage.length')).toBe(0);
      expect(problems).toEqual([]);

      const reloaded = await page.reload();
      expect(reloaded?.status()).toBe(410);
      await page.getByText('Please hand the device back to Hana Host.').waitFor();
      expect(await page.locator('canvas.page-canvas').count()).toBe(0);
      await page.goBack().catch(() => undefined);
      await page.goto(url);
      await page.getByText('Please hand the device back to Hana Host.').waitFor();
      expect(await page.getByRole('button', { name: 'Start', exact: true }).count()).toBe(0);
      await context.close();
    }, 60_000);

    it('the link opens no session any more, for anyone', async () => {
      // The link opens no session any more, for anyone.
      const token = new URL(url).pathname.split('/').pop();
      const reopen = await fetch(`${suite.runtime.baseUrl}/sign/api/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token }),
      });
      expect(reopen.status).toBe(410);
    }, 60_000);

    it('the packet, the audit trail and the Certificate of Evidence name the host', async () => {
      // The evidence: the packet, the audit trail and the Certificate of Evidence.
      const packet = await suite.call('GET', `/packets/${packetId}/`);
      expect(packet.body).toMatchObject({ deliver_via: 'kiosk', status: 'co' });
      const events = (await suite.call('GET', `/bundles/${bundle.id}/events/`)).body as {
        kind: string;
        description: string;
      }[];
      expect(events.find((e) => e.kind === 'ki')?.description).toBe(
        'Signing in person started: Kim Borrower, hosted by Hana Host (hana@example.com)',
      );
      const coe = await eventually(
        async () => {
          const res = await suite.call('GET', `/packets/${packetId}/coe/`);
          return res.status === 200 ? (res.body as { file_url: string }) : undefined;
        },
        60_000,
        'the Certificate of Evidence',
      );
      const pdf = new Uint8Array(await (await fetch(coe.file_url)).arrayBuffer());
      const text = textOf(pdf).replace(/\s+/g, ' ');
      expect(text).toContain('Signed in person, hosted by Hana Host (hana@example.com)');
      expect(text).toContain('“Branch tablet 3”');
      expect(text).toContain('Signing in person started: Kim Borrower, hosted by Hana Host');
      expect(text).toContain('opened in person');
    }, 60_000);

    it('the final document’s evidence record carries the host too', async () => {
      // The final document's evidence record carries it too.
      const files = (await suite.call('GET', `/bundles/${bundle.id}/files/`)).body as {
        kind: string;
        file_url: string;
      }[];
      const final = files.find((f) => f.kind === 'final')!;
      const finalPdf = new Uint8Array(await (await fetch(final.file_url)).arrayBuffer());
      const record = JSON.parse(attachedFiles(finalPdf).get('evidence-record.json')!.toString('utf8'));
      expect(record.signers[0].in_person).toMatchObject({
        host_name: 'Hana Host',
        host_email: 'hana@example.com',
        device: 'Branch tablet 3',
        api_key_id: expect.stringMatching(/./),
        user_id: suite.runtime.demo.userId,
        user_agent: expect.stringContaining('Chrome'),
      });
    }, 60_000);
  });

  it('locks to the hand-back screen when the signer declines', async () => {
    const bundle = await aKioskBundle('Loan declined at the branch');
    const made = await suite.call('POST', `/packets/${bundle.packets[0]!.id}/kiosk_url/`, {
      json: { host_name: 'Hana Host' },
    });
    expect(made.status, made.text).toBe(201);
    const context = await suite.browser.newContext({
      viewport: { width: 1280, height: 800 },
      locale: 'en-US',
    });
    const page = await context.newPage();
    const problems = watchProblems(page);
    await page.goto(made.body.url as string);
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await page.getByRole('heading', { name: 'Loan declined at the branch' }).waitFor();
    await page.getByRole('button', { name: 'Decline to sign' }).click();
    const dialog = page.getByRole('dialog', { name: 'Decline to sign?' });
    await dialog.getByLabel('Why are you declining?').fill('I need more time to read it.');
    await dialog.getByRole('button', { name: 'Decline' }).click();
    await page.getByText('Please hand the device back to Hana Host.').waitFor();
    await shot(page, 'kiosk-5-declined-hand-back.png');
    expect(problems).toEqual([]);
    expect((await page.reload())?.status()).toBe(410);
    await page.getByText('Please hand the device back to Hana Host.').waitFor();
    const after = await suite.call('GET', `/bundles/${bundle.id}/`);
    expect(after.body.status).toBe('ca');
    await context.close();
  }, 60_000);

  it('speaks the signer’s language on the hand-over screen, right to left in Arabic', async () => {
    const bundle = await aKioskBundle('قرض في الفرع', { language: 'ar' });
    const made = await suite.call('POST', `/packets/${bundle.packets[0]!.id}/kiosk_url/`, {
      json: { host_name: 'هناء' },
    });
    expect(made.status, made.text).toBe(201);
    const context = await suite.browser.newContext({
      viewport: { width: 390, height: 844 },
      locale: 'en-US',
    });
    const page = await context.newPage();
    await page.goto(made.body.url as string);
    await page.getByRole('heading', { name: 'يُرجى تسليم هذا الجهاز إلى Kim Borrower' }).waitFor();
    expect(await page.evaluate<string>('document.documentElement.dir')).toBe('rtl');
    await page.getByRole('button', { name: 'ابدأ', exact: true }).waitFor();
    await shot(page, 'kiosk-ar-hand-over.png');
    expect(describeViolations(await axeViolations(page))).toEqual([]);
    await context.close();
  }, 60_000);
});
