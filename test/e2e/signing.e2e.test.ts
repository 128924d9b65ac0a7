// The signing pages in a real headless Chromium (Debian's, driven by playwright-core), against
// the whole local runtime: links from the outbox, the SMS code from the outbox, pdf.js pages,
// drawn and typed marks, an attachment, the embedded signer inside a partner's page on another
// origin, declining, and a cancelled bundle's link. Screenshots go to test-artifacts/.
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountStore } from '#shared/adapters/dynamodb/account-store';
import { runBrowser, shot, watchProblems } from '../helpers/browser';
import { browserSuite } from '../helpers/browser-suite';
import { aPdf } from '../helpers/pdfs';
import { eventually, startReceiver, type TReceiver } from '../helpers/receiver';
import { apiClient } from '../helpers/runtime';
import { DESKTOP } from '../helpers/signing-pages';

const STEP_TIMEOUT = 60_000;

const LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="64" viewBox="0 0 96 64">
<path d="M8 34 L32 12 L56 34 V58 H8 Z" fill="#0f766e"/><rect x="26" y="40" width="12" height="18" fill="#fff"/>
<path d="M60 58 V26 M60 30 Q74 18 88 30 M60 42 Q74 30 88 42" stroke="#0f766e" stroke-width="5" fill="none"/></svg>`;

/** The smallest PNG: one pixel. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

const PHONE = { width: 375, height: 667 };

let receiver: TReceiver;
let partner: { origin: string; server: Server };

/** The sender's own site: a page that frames the embedded signing URL, and where signers land after. */
async function startPartnerSite() {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://partner');
    if (url.pathname === '/embed') {
      const src = (url.searchParams.get('src') ?? '').replace(/"/g, '&quot;');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html><head><title>Partner app</title><style>
body{margin:0;font:15px system-ui,sans-serif;background:#f4f4f5}header{padding:10px 20px;background:#18181b;color:#fff}
iframe{display:block;width:calc(100% - 40px);height:700px;margin:16px 20px;border:1px solid #d4d4d8;border-radius:8px;background:#fff}
</style></head><body><header>Partner app · Your lease</header><iframe title="Sign your lease" src="${src}" allow="camera"></iframe></body></html>`);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>Back at the partner app</title><h1>Thanks for signing</h1>');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const suite = browserSuite({
  pdf: [
    {
      size: 'Letter',
      text: [
        { value: 'Residential Lease Agreement', x: 72, y: 720, size: 20 },
        { value: 'Tenant full legal name:', x: 72, y: 672, size: 11 },
        { value: 'Tenant email (optional):', x: 72, y: 608, size: 11 },
        { value: 'Lease start date:', x: 72, y: 545, size: 11 },
        { value: 'Plan:', x: 72, y: 482, size: 11 },
        { value: 'I agree to the terms above.', x: 100, y: 418, size: 11 },
        { value: 'Utilities included:', x: 72, y: 352, size: 11 },
        { value: 'I approve the house rules.', x: 100, y: 317, size: 11 },
        { value: 'Tenant signature:', x: 72, y: 265, size: 11 },
        { value: 'Name and date:', x: 340, y: 265, size: 11 },
      ],
    },
    {
      size: 'Letter',
      text: [
        { value: 'Landlord acknowledgement', x: 72, y: 720, size: 16 },
        { value: 'Landlord initials:', x: 72, y: 560, size: 11 },
        { value: 'Comments:', x: 72, y: 480, size: 11 },
      ],
    },
  ],
  browserArgs: [
    '--disable-quic',
    '--disable-component-update',
    '--disable-sync',
    // A made-up camera for the selfie step, allowed without a prompt.
    '--use-fake-device-for-media-stream',
    '--use-fake-ui-for-media-stream',
  ],
});

beforeAll(async () => {
  receiver = await startReceiver();
  partner = await startPartnerSite();
});

afterAll(async () => {
  await receiver?.stop();
  await new Promise<void>((done) => (partner ? partner.server.close(() => done()) : done()));
});

// ---------------------------------------------------------------------------------------------

async function newPage(viewport: { width: number; height: number }, mobile = false) {
  const context: BrowserContext = await suite.browser.newContext({
    viewport,
    deviceScaleFactor: mobile ? 2 : 1,
    isMobile: mobile,
    hasTouch: mobile,
    locale: 'en-US',
    permissions: ['camera'],
  });
  // The brand's logo lives on the sender's CDN; here it is answered locally.
  await context.route('https://cdn.maple.example/**', (route) =>
    route.fulfill({ status: 200, contentType: 'image/svg+xml', body: LOGO_SVG }),
  );
  const page = await context.newPage();
  return { context, page, problems: watchProblems(page) };
}

// The tests run under Node's types: code that runs in the page is given as text.
const focusedLabel = (where: Page | Frame) =>
  where.evaluate<string>(
    "(() => { const a = document.activeElement; return a?.getAttribute('aria-label') ?? a?.id ?? ''; })()",
  );
const focusedId = (where: Page | Frame) => where.evaluate<string>('document.activeElement?.id ?? ""');

/** Draws a signature-like stroke across the drawing pad. */
async function drawOnPad(page: Page) {
  const box = (await page.locator('canvas.pad').boundingBox())!;
  const y0 = box.y + box.height * 0.55;
  await page.mouse.move(box.x + box.width * 0.12, y0);
  await page.mouse.down();
  for (let i = 1; i <= 24; i++) {
    const x = box.x + box.width * (0.12 + (0.7 * i) / 24);
    const y = y0 - Math.sin(i / 2.2) * box.height * 0.22 - (i % 6 === 0 ? box.height * 0.1 : 0);
    await page.mouse.move(x, y, { steps: 2 });
  }
  await page.mouse.up();
}

async function hookFor(types: string[]) {
  const path = `/hook-${Math.random().toString(36).slice(2)}`;
  const res = await suite.call('POST', '/webhooks/', {
    json: { url: receiver.url(path), event_types: types },
  });
  expect(res.status, res.text).toBe(201);
  return path;
}

const eventsAt = (path: string) =>
  receiver
    .callsTo(path)
    .map((c) => JSON.parse(c.body) as { event_type: string; payload: Record<string, string> });

// ---------------------------------------------------------------------------------------------

/** A sent bundle with one signer and one required signature field of theirs at `box`. */
const aOneSignerBundle = (
  label: string,
  packet: { key: string } & Record<string, unknown>,
  document: string,
  box: { x: number; y: number; w: number; h: number },
) =>
  suite.sentBundle({
    label,
    packets: [packet],
    document,
    fields: [{ key: 'sig', kind: 'sig', page: 1, ...box, editors: [packet.key], required: true }],
  });

describe.runIf(runBrowser)('signing in a real browser', () => {
  describe('two signers in order: the emailed signer passes the SMS code and fills every kind of field on a phone; the second signs embedded in the partner site', () => {
    let hook: string;
    let bundleId: string;
    let annPacket: { id: string; key: string } | undefined;
    let bobPacket: { id: string; key: string } | undefined;
    let afterSign: string;
    let ann: Awaited<ReturnType<typeof newPage>>;
    let embed: Awaited<ReturnType<typeof suite.call>>;

    beforeAll(async () => {
      const accounts = createAccountStore(suite.runtime.db, suite.runtime.config.tableName);
      const accountId = suite.runtime.demo.accountId;
      await accounts.setFeatures(accountId, { signing_brands: true });
      await accounts.setEmbedOrigins(accountId, [partner.origin]);
      const brandId = 'b7c1d7a2-6a55-4c86-9a77-0c2f3f1e9a01';
      await accounts.addBrand({
        id: brandId,
        accountId,
        name: 'Maple Street Rentals',
        primaryColor: '#0f766e',
        logoUrl: 'https://cdn.maple.example/logo.png',
        created: new Date().toISOString(),
      });
      hook = await hookFor(['packet_viewed', 'packet_complete', 'bundle_complete']);

      const created = await suite.call('POST', '/bundles/', {
        json: {
          label: 'Lease for 12 Maple Street',
          in_order: true,
          packets: [
            {
              key: 'ann',
              name: 'Ann Lee',
              email: 'ann.e2e@example.com',
              phone: '+1 555 010 4242',
              auth_sms: true,
              order: 0,
            },
            { key: 'bob', name: 'Bob Roe', email: 'bob.e2e@example.com', deliver_via: 'embed', order: 1 },
          ],
          documents: [
            {
              key: 'lease',
              name: 'Lease agreement',
              file_b64: suite.pdfB64,
              fields: [
                {
                  key: 'legal_name',
                  kind: 'inp',
                  label: 'Full legal name',
                  page: 1,
                  x: 40,
                  y: 13.5,
                  w: 45,
                  h: 3.6,
                  editors: ['ann'],
                  required: true,
                  v_min: 3,
                },
                {
                  key: 'email',
                  kind: 'inp',
                  label: 'Email',
                  page: 1,
                  x: 40,
                  y: 21.6,
                  w: 45,
                  h: 3.6,
                  editors: ['-ann'],
                  v_pattern: 'email',
                },
                {
                  key: 'start',
                  kind: 'dat',
                  label: 'Lease start date',
                  page: 1,
                  x: 40,
                  y: 29.6,
                  w: 30,
                  h: 3.6,
                  editors: ['ann'],
                  required: true,
                },
                {
                  key: 'plan',
                  kind: 'sel',
                  label: 'Plan',
                  page: 1,
                  x: 40,
                  y: 37.5,
                  w: 30,
                  h: 3.6,
                  editors: ['ann'],
                  required: true,
                  format: 'Monthly|Yearly',
                },
                {
                  key: 'agree',
                  kind: 'chk',
                  label: 'I agree to the terms',
                  page: 1,
                  x: 11.6,
                  y: 46.2,
                  w: 2.6,
                  h: 2,
                  editors: ['ann'],
                  required: true,
                },
                {
                  key: 'utilities',
                  kind: 'cbg',
                  label: 'Utilities included',
                  page: 1,
                  x: 40,
                  y: 53,
                  w: 45,
                  h: 3.6,
                  editors: ['ann'],
                  required: true,
                  format: 'Water|Power|Internet',
                },
                {
                  key: 'rules',
                  kind: 'apr',
                  label: 'I approve the house rules',
                  page: 1,
                  x: 11.6,
                  y: 59,
                  w: 2.6,
                  h: 2,
                  editors: ['ann'],
                  required: true,
                },
                {
                  key: 'ann_sig',
                  kind: 'sig',
                  label: 'Tenant signature',
                  page: 1,
                  x: 11.5,
                  y: 68,
                  w: 32,
                  h: 7,
                  editors: ['ann'],
                  required: true,
                },
                {
                  key: 'ann_name',
                  kind: 'snm',
                  label: 'Tenant name',
                  page: 1,
                  x: 55,
                  y: 68,
                  w: 30,
                  h: 3,
                  editors: ['ann'],
                },
                {
                  key: 'ann_date',
                  kind: 'sdt',
                  label: 'Date signed',
                  page: 1,
                  x: 55,
                  y: 72,
                  w: 30,
                  h: 3,
                  editors: ['ann'],
                },
                {
                  key: 'proof',
                  kind: 'att',
                  label: 'Proof of income',
                  x: 0,
                  y: 0,
                  w: 1,
                  h: 1,
                  editors: ['ann'],
                  required: true,
                  v_attachment_types: ['pdf', 'png'],
                },
                {
                  key: 'bob_ini',
                  kind: 'ini',
                  label: 'Landlord initials',
                  page: 2,
                  x: 40,
                  y: 27.5,
                  w: 14,
                  h: 5,
                  editors: ['bob'],
                  required: true,
                },
                {
                  key: 'comments',
                  kind: 'txt',
                  label: 'Comments',
                  page: 2,
                  x: 11.5,
                  y: 40,
                  w: 75,
                  h: 12,
                  editors: ['bob'],
                },
              ],
            },
          ],
        },
      });
      expect(created.status, created.text).toBe(201);
      bundleId = created.body.id as string;
      [annPacket, bobPacket] = created.body.packets as { id: string; key: string }[];
      expect(
        (await suite.call('PATCH', `/bundles/${bundleId}/`, { json: { signing_brand: brandId } })).status,
      ).toBe(200);
      afterSign = `${partner.origin}/after-sign`;
      const redirect = await suite.call('PATCH', `/packets/${annPacket!.id}/`, {
        json: { signing_complete_redirect: afterSign },
      });
      expect(redirect.status, redirect.text).toBe(200);
    }, STEP_TIMEOUT);

    it(
      'Ann opens her emailed link on a phone, branded and unframeable, and passes the SMS code',
      async () => {
        // ---- Ann, on a phone, from the emailed link.
        const link = await suite.inbox.emailedLink('ann.e2e@example.com');
        ann = await newPage(PHONE, true);
        const pageAnswer = await ann.page.goto(link);
        expect(pageAnswer!.status()).toBe(200);
        const headers = pageAnswer!.headers();
        expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
        expect(headers['content-security-policy']).toContain(
          "img-src 'self' data: blob: https://cdn.maple.example",
        );
        expect(headers['x-frame-options']).toBe('DENY');

        await ann.page.getByRole('heading', { name: 'Confirm it’s you' }).waitFor();
        expect(await ann.page.locator('.brand-name').textContent()).toBe('Maple Street Rentals');
        expect(await ann.page.locator('canvas.page-canvas').count()).toBe(0); // no documents before the check
        const seen = await suite.inbox.seen();
        await ann.page.getByRole('button', { name: 'Text me a code' }).click();
        const code = await suite.inbox.textedCode('4242', seen);
        await ann.page.getByLabel('The 6-digit code').fill(code);
        await shot(ann.page, 'phone-1-sms-code.png');
        await ann.page.getByRole('button', { name: 'Confirm' }).click();

        await ann.page.getByRole('heading', { name: 'Lease for 12 Maple Street' }).waitFor();
        await ann.page.locator('.page.rendered').first().waitFor();
        await shot(ann.page, 'phone-2-document-to-fill.png');
        expect(await ann.page.locator('.progress').getAttribute('aria-label')).toBe(
          '0 of 8 required fields done',
        );
      },
      STEP_TIMEOUT,
    );

    it(
      'Ann fills the fields in the guide’s order with the keyboard, each checked as she goes',
      async () => {
        // The guide and the keyboard: Start focuses the first field, Enter moves on to the next
        // required one (the optional Email between them comes after every required field).
        await ann.page.getByRole('button', { name: 'Start' }).click();
        expect(await focusedLabel(ann.page)).toBe('Full legal name');
        await ann.page.keyboard.type('Ann Lee');
        await ann.page.keyboard.press('Enter');
        expect(await focusedLabel(ann.page)).toBe('Lease start date');
        await ann.page.getByLabel('Email', { exact: true }).focus();
        await ann.page.keyboard.type('ann@');
        await ann.page.keyboard.press('Tab');
        await ann.page.getByText('Enter a valid email address.').waitFor();
        await ann.page.getByLabel('Email', { exact: true }).fill('ann@example.com');
        await ann.page.getByText('Enter a valid email address.').waitFor({ state: 'detached' });
        await ann.page.getByRole('button', { name: 'Next field' }).click();
        expect(await focusedLabel(ann.page)).toBe('Lease start date');
        await ann.page.locator(':focus').fill('2026-12-01');
        await ann.page.getByRole('button', { name: 'Next field' }).click();
        expect(await focusedLabel(ann.page)).toBe('Plan');
        await ann.page.locator(':focus').selectOption('Yearly');
        await ann.page.getByRole('button', { name: 'Next field' }).click();
        expect(await focusedLabel(ann.page)).toBe('I agree to the terms');
        await ann.page.keyboard.press('Space');
        await ann.page.getByRole('button', { name: 'Next field' }).click();
        expect(await focusedLabel(ann.page)).toBe('Utilities included: Choose…');
        await ann.page.keyboard.press('Enter');
        const choices = ann.page.getByRole('dialog', { name: 'Utilities included' });
        await choices.getByRole('button', { name: 'Done' }).click();
        await choices.getByText('Choose at least one option.').waitFor();
        await choices.getByLabel('Water').check();
        await choices.getByLabel('Internet').check();
        await choices.getByRole('button', { name: 'Done' }).click();
        await choices.waitFor({ state: 'detached' });
        expect(await focusedLabel(ann.page)).toBe('Utilities included: Water, Internet');
        await ann.page.getByRole('button', { name: 'Next field' }).click();
        expect(await focusedLabel(ann.page)).toBe('I approve the house rules');
        await ann.page.keyboard.press('Space');
        await ann.page.getByRole('button', { name: 'Next field' }).click();
        expect(await focusedLabel(ann.page)).toBe('Tenant signature: Sign');
        await ann.page.keyboard.press('Enter');
      },
      STEP_TIMEOUT,
    );

    it(
      'Ann draws her signature and uploads an attachment of an allowed type',
      async () => {
        // The signature: drawn with signature_pad.
        await ann.page.getByRole('dialog', { name: 'Add your signature' }).waitFor();
        await ann.page.getByRole('button', { name: 'Apply signature' }).click();
        await ann.page.getByText('Draw your signature in the box, or choose Type.').waitFor();
        await drawOnPad(ann.page);
        await shot(ann.page, 'phone-3-signature-dialog.png');
        await ann.page.getByRole('button', { name: 'Apply signature' }).click();
        await ann.page.getByRole('dialog').waitFor({ state: 'detached' });
        await ann.page.locator('.field.k-sig img').waitFor();

        // The attachment, uploaded to the documents bucket.
        await ann.page.getByRole('button', { name: 'Next field' }).click();
        expect(await focusedLabel(ann.page)).toBe('Proof of income: Choose file');
        const proof = Buffer.from(
          await aPdf({ pages: [{ size: 'A4', text: [{ value: 'Payslip', x: 72, y: 720, size: 12 }] }] }),
        );
        await ann.page
          .locator('.attachment input[type=file]')
          .setInputFiles({ name: 'wrong.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
        await ann.page.getByText('Choose a file of type .pdf, .png.').waitFor();
        await ann.page
          .locator('.attachment input[type=file]')
          .setInputFiles({ name: 'payslip.pdf', mimeType: 'application/pdf', buffer: proof });
        await ann.page.locator('.attachment .file-name', { hasText: 'payslip.pdf' }).waitFor();
        expect(await ann.page.locator('.progress').getAttribute('aria-label')).toBe(
          '8 of 8 required fields done',
        );
        await ann.page.getByText('All changes saved').waitFor({ state: 'attached' });

        await ann.page.evaluate(
          "window.scrollTo(0, document.querySelector('.page').getBoundingClientRect().top + window.scrollY - 70)",
        );
        await shot(ann.page, 'phone-4-document-filled.png');
      },
      STEP_TIMEOUT,
    );

    it(
      'Ann finishes only after the consent, and lands back at the partner site',
      async () => {
        // Finishing needs the consent.
        await ann.page.getByRole('button', { name: 'Go to finish' }).click();
        expect(await focusedId(ann.page)).toBe('consent');
        await ann.page.getByRole('button', { name: 'Finish signing' }).click();
        await ann.page.getByText('Tick the box to agree to sign electronically.').waitFor();
        await shot(ann.page, 'phone-5-finish.png');
        await ann.page.getByLabel(/I agree to sign these documents electronically/).check();
        await ann.page.getByRole('button', { name: 'Finish signing' }).click();
        await ann.page.waitForURL(afterSign);
        expect(ann.problems).toEqual([]);
        await ann.context.close();
      },
      STEP_TIMEOUT,
    );

    it(
      'Bob, next in order, signs embedded in the partner site on a desktop',
      async () => {
        // ---- Bob: his turn now; embedded in the partner's page, on a desktop.
        await eventually(
          async () => (await suite.call('GET', `/packets/${bobPacket!.id}/`)).body.status === 're',
          20_000,
          'the second signer to be ready',
        );
        embed = await suite.call('POST', `/packets/${bobPacket!.id}/embed_url/`);
        expect(embed.status, embed.text).toBe(201);
        const bob = await newPage(DESKTOP);
        const framed = bob.page.waitForResponse((r) => r.url() === embed.body.url);
        await bob.page.goto(`${partner.origin}/embed?src=${encodeURIComponent(embed.body.url)}`);
        const frameAnswer = await framed;
        expect(frameAnswer.headers()['content-security-policy']).toContain(
          `frame-ancestors ${partner.origin}`,
        );
        expect(frameAnswer.headers()['x-frame-options']).toBeUndefined();
        const frame = bob.page.frames().find((f) => f.url() === embed.body.url)!;
        await frame.getByRole('heading', { name: 'Lease for 12 Maple Street' }).waitFor();
        await frame.locator('.page.rendered').first().waitFor();
        // What Ann filled is shown to Bob, read-only.
        await frame.locator('.field.theirs', { hasText: 'Ann Lee' }).first().waitFor();
        await frame.locator('.field.theirs', { hasText: 'Yearly' }).waitFor();
        await frame.locator('.field.theirs', { hasText: 'Water, Internet' }).waitFor();

        await frame.getByRole('button', { name: 'Start' }).click();
        expect(await focusedLabel(frame)).toBe('Landlord initials: Initial');
        // Pages are drawn as they come near: the guide scrolled to page 2.
        await frame.locator('.page.rendered').nth(1).waitFor();
        await bob.page.keyboard.press('Enter');
        await frame.getByRole('dialog', { name: 'Add your initials' }).waitFor();
        await frame.getByRole('tab', { name: 'Type' }).click();
        expect(await frame.getByRole('textbox', { name: 'Your initials' }).inputValue()).toBe('BR');
        await frame.getByRole('button', { name: 'Apply initials' }).click();
        await frame.locator('.field.k-ini .typed', { hasText: 'BR' }).waitFor();
        await frame.getByRole('button', { name: 'Next field' }).click();
        expect(await focusedLabel(frame)).toBe('Comments');
        await bob.page.keyboard.type('All good, welcome!');
        await frame.getByRole('button', { name: 'Go to finish' }).click();
        expect(await focusedId(frame)).toBe('consent');
        await bob.page.keyboard.press('Space');
        const scrollToPage = (n: number) =>
          frame.evaluate(
            `window.scrollTo(0, document.querySelectorAll('.page')[${n}].getBoundingClientRect().top + window.scrollY - 80)`,
          );
        await scrollToPage(0);
        await shot(bob.page, 'desktop-1-embedded-first-signer-values.png');
        await scrollToPage(1);
        await shot(bob.page, 'desktop-2-embedded-own-fields.png');
        await frame.getByRole('button', { name: 'Finish signing' }).click();
        await frame.getByRole('heading', { name: 'You’re done' }).waitFor();
        await shot(bob.page, 'desktop-3-embedded-done.png');
        expect(bob.problems).toEqual([]);
        await bob.context.close();
      },
      STEP_TIMEOUT,
    );

    it(
      'the embedded URL opens once only',
      async () => {
        // The embedded URL opened once; a second open says so, and shows nothing else.
        const again = await newPage(DESKTOP);
        await again.page.goto(embed.body.url);
        await again.page.getByRole('heading', { name: 'This link was already used' }).waitFor();
        await again.context.close();
      },
      STEP_TIMEOUT,
    );

    it(
      'the sender gets every value with who filled it',
      async () => {
        // ---- What the sender sees.
        const done = await eventually(
          async () => {
            const b = await suite.call('GET', `/bundles/${bundleId}/`);
            return b.body.status === 'co' && b.body;
          },
          20_000,
          'the bundle to be complete',
        );
        expect(done.packets.map((p: { status: string }) => p.status)).toEqual(['co', 'co']);
        const data = await suite.call('GET', `/bundles/${bundleId}/data/`);
        expect(data.status, data.text).toBe(200);
        const value = (key: string) =>
          (data.body as { field_key: string }[]).find((d) => d.field_key === key);
        expect(value('legal_name')).toMatchObject({
          value: 'Ann Lee',
          filled_by: 'ann',
          packet_id: annPacket!.id,
        });
        expect(value('email')).toMatchObject({ value: 'ann@example.com', filled_by: 'ann' });
        expect(value('start')).toMatchObject({ value: '2026-12-01', filled_by: 'ann' });
        expect(value('plan')).toMatchObject({ value: 'Yearly', filled_by: 'ann' });
        expect(value('agree')).toMatchObject({ value: 'true', filled_by: 'ann' });
        expect(value('utilities')).toMatchObject({ value: 'Water|Internet', filled_by: 'ann' });
        expect(value('rules')).toMatchObject({ value: 'true', filled_by: 'ann' });
        expect(value('ann_sig')).toMatchObject({ value: 'drawn', filled_by: 'ann' });
        expect(value('ann_name')).toMatchObject({ value: 'Ann Lee', filled_by: 'ann' });
        expect(value('ann_date')).toMatchObject({
          value: expect.stringMatching(/^\d{4}-\d\d-\d\d$/),
          filled_by: 'ann',
        });
        expect(value('proof')).toMatchObject({ value: 'payslip.pdf', filled_by: 'ann' });
        expect((value('proof') as unknown as { attachments: { name: string }[] }).attachments).toEqual([
          expect.objectContaining({ name: 'payslip.pdf', ext: 'pdf' }),
        ]);
        expect(value('bob_ini')).toMatchObject({
          value: 'typed:BR',
          filled_by: 'bob',
          packet_id: bobPacket!.id,
        });
        expect(value('comments')).toMatchObject({ value: 'All good, welcome!', filled_by: 'bob' });
      },
      STEP_TIMEOUT,
    );

    it(
      'the webhooks say each packet was viewed and completed, and the bundle once',
      async () => {
        const events = await eventually(
          () => {
            const got = eventsAt(hook);
            const types = got.map((e) => `${e.event_type}:${e.payload.packet_id ?? ''}`);
            const want = [
              `packet_viewed:${annPacket!.id}`,
              `packet_complete:${annPacket!.id}`,
              `packet_viewed:${bobPacket!.id}`,
              `packet_complete:${bobPacket!.id}`,
              'bundle_complete:',
            ];
            return want.every((w) => types.includes(w)) && types;
          },
          30_000,
          'the webhooks',
        );
        expect(events.filter((t) => t === 'bundle_complete:')).toHaveLength(1);
      },
      STEP_TIMEOUT,
    );
  });

  it(
    'the selfie (camera) and ID photos come before the documents',
    async () => {
      await aOneSignerBundle(
        'Car rental',
        { key: 'hal', name: 'Hal Ives', email: 'hal.e2e@example.com', auth_selfie: true, auth_id: true },
        'rental',
        { x: 11.5, y: 68, w: 32, h: 7 },
      );
      const hal = await newPage(PHONE, true);
      await hal.page.goto(await suite.inbox.emailedLink('hal.e2e@example.com'));
      await hal.page.getByRole('heading', { name: 'A photo of you' }).waitFor();
      await hal.page.getByRole('button', { name: 'Use my camera' }).click();
      await hal.page.getByRole('button', { name: 'Take photo' }).waitFor();
      // (Not waitForFunction: its string predicates need eval, which the page's CSP refuses.)
      await eventually(
        () => hal.page.evaluate<boolean>("document.querySelector('video.camera').videoWidth > 0"),
        10_000,
        'the camera picture',
      );
      await shot(hal.page, 'phone-7-selfie-camera.png');
      await hal.page.getByRole('button', { name: 'Take photo' }).click();

      await hal.page.getByRole('heading', { name: 'Photos of your ID' }).waitFor();
      await hal.page
        .getByLabel(/The front of your ID/)
        .setInputFiles({ name: 'front.png', mimeType: 'image/png', buffer: PNG });
      await hal.page
        .getByLabel(/The back of your ID/)
        .setInputFiles({ name: 'back.png', mimeType: 'image/png', buffer: PNG });
      await hal.page.getByRole('button', { name: 'Send photos' }).click();
      await hal.page.getByRole('heading', { name: 'Car rental' }).waitFor();
      await hal.page.locator('.page.rendered').first().waitFor();
      expect(hal.problems).toEqual([]);
      await hal.context.close();
    },
    STEP_TIMEOUT,
  );

  it(
    'a signer declines with a reason: the bundle is cancelled and the page says so',
    async () => {
      const sent = await aOneSignerBundle(
        'Consulting agreement',
        { key: 'cy', name: 'Cy Dee', email: 'cy.e2e@example.com' },
        'deal',
        { x: 11.5, y: 62, w: 32, h: 7 },
      );
      const cy = await newPage(DESKTOP);
      await cy.page.goto(await suite.inbox.emailedLink('cy.e2e@example.com'));
      await cy.page.getByRole('heading', { name: 'Consulting agreement' }).waitFor();
      await cy.page.locator('.page.rendered').first().waitFor();
      await shot(cy.page, 'desktop-4-document.png');
      await cy.page.getByRole('button', { name: 'Decline to sign' }).click();
      const dialog = cy.page.getByRole('dialog', { name: 'Decline to sign?' });
      await dialog.getByRole('button', { name: 'Decline' }).click();
      await dialog.getByText('Tell the sender why you decline.').waitFor();
      await dialog.getByLabel('Why are you declining?').fill('The fee is not what we agreed.');
      await shot(cy.page, 'desktop-5-decline-dialog.png');
      await dialog.getByRole('button', { name: 'Decline' }).click();
      await cy.page.getByRole('heading', { name: 'You declined to sign' }).waitFor();
      expect(cy.problems).toEqual([]);
      await cy.context.close();

      const bundle = await suite.call('GET', `/bundles/${sent.id}/`);
      expect(bundle.body.status).toBe('ca');
      expect(bundle.body.packets[0].status).toBe('ca');
    },
    STEP_TIMEOUT * 2,
  );

  it(
    'an embedded link led to anew in a tab that holds its session: the page goes on with that session',
    async () => {
      const sent = await aOneSignerBundle(
        'Parking permit',
        { key: 'em', name: 'Em Ray', email: 'em.e2e@example.com', deliver_via: 'embed' },
        'permit',
        { x: 11.5, y: 62, w: 32, h: 7 },
      );
      const url = await suite.embedUrl(sent.packets[0]!.id);
      const em = await newPage(DESKTOP);
      const exchanges: number[] = [];
      em.page.on('response', (r) => {
        if (r.url().endsWith('/sign/api/session')) exchanges.push(r.status());
      });
      const opened = async () => {
        await em.page.getByRole('heading', { name: 'Parking permit' }).waitFor();
        await em.page.locator('.page.rendered').first().waitFor();
      };
      await em.page.goto(url);
      await opened();
      expect(exchanges).toEqual([201]);
      // Led to the link anew (not a reload): the head's script does not read the kept session
      // (early-start.js), so it tries an exchange, which the used link refuses; the page goes on
      // with the session the tab kept.
      await em.page.goto(url);
      await opened();
      await expect.poll(() => exchanges).toEqual([201, 410]);
      expect(await em.page.getByText('This signing link was already used').count()).toBe(0);
      // A reload finds the kept session before any exchange.
      await em.page.reload();
      await opened();
      expect(exchanges).toEqual([201, 410]);
      // The one refusal, as the browser logs a failed request; nothing else went wrong.
      expect(em.problems).toHaveLength(1);
      expect(em.problems[0]).toContain('410');
      await em.context.close();
    },
    STEP_TIMEOUT,
  );

  it(
    'a cancelled bundle’s link and an unknown link show a clear page, never the documents',
    async () => {
      const sent = await aOneSignerBundle(
        'Old offer',
        { key: 'di', name: 'Di Eve', email: 'di.e2e@example.com' },
        'offer',
        { x: 11.5, y: 62, w: 32, h: 7 },
      );
      const link = await suite.inbox.emailedLink('di.e2e@example.com');
      expect((await suite.call('PUT', `/bundles/${sent.id}/cancel/`)).status).toBe(200);

      const di = await newPage(PHONE, true);
      await di.page.goto(link);
      await di.page.getByRole('heading', { name: 'This signing request was cancelled' }).waitFor();
      expect(await di.page.locator('.page, canvas').count()).toBe(0);
      await shot(di.page, 'phone-6-cancelled.png');

      expect(di.problems).toEqual([]);

      const unknown = await di.page.goto(`${suite.runtime.baseUrl}/sign/${'x'.repeat(43)}`);
      expect(unknown!.status()).toBe(404);
      await di.page.getByRole('heading', { name: 'This link does not work' }).waitFor();
      await di.context.close();

      // The packet was never viewed: a cancelled bundle's link changes nothing.
      const bundle = await suite.call('GET', `/bundles/${sent.id}/`);
      expect(bundle.body.packets[0].status).toBe('ca');
    },
    STEP_TIMEOUT,
  );
});

describe('signing pages over plain HTTP: headers, assets, documents', () => {
  const aSentBundle = (packet: { key: string } & Record<string, unknown>) =>
    aOneSignerBundle('Headers check', packet, 'doc', { x: 10, y: 60, w: 30, h: 6 });

  describe('serve the page and its files with strict security headers, framing only embedded sessions', () => {
    let version: string;

    it('the page: strict security headers, one inline script allowed by its hash, no style', async () => {
      await aSentBundle({ key: 'eve', name: 'Eve Fox', email: 'eve.headers@example.com' });
      const link = await suite.inbox.emailedLink('eve.headers@example.com');
      const page = await fetch(link);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page.headers.get('cache-control')).toBe('no-store');
      expect(page.headers.get('x-content-type-options')).toBe('nosniff');
      expect(page.headers.get('referrer-policy')).toBe('no-referrer');
      expect(page.headers.get('x-frame-options')).toBe('DENY');
      expect(page.headers.get('permissions-policy')).toMatch(/^camera=\(self\), microphone=\(\)/);
      const s3 = new URL(suite.runtime.config.endpoints.s3!).origin;
      const html = await page.text();
      // One inline script, first in the head: it starts the session's exchange (early-start.ts).
      const inline = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
      expect(inline).toHaveLength(1);
      const hash = createHash('sha256').update(inline[0]!).digest('base64');
      // And one style sheet, its own (page-style.ts), allowed by its hash as the script is.
      const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]!);
      expect(styles).toHaveLength(1);
      const styleHash = createHash('sha256').update(styles[0]!).digest('base64');
      expect(page.headers.get('content-security-policy')).toBe(
        [
          "default-src 'none'",
          `script-src 'self' 'sha256-${hash}'`,
          `style-src 'self' 'sha256-${styleHash}'`,
          "img-src 'self' data: blob:",
          "font-src 'self' data:",
          `connect-src 'self' ${s3}`,
          "worker-src 'self' blob:",
          "media-src 'self' blob: mediastream:",
          "manifest-src 'self'",
          "object-src 'none'",
          "base-uri 'none'",
          "form-action 'self'",
          "frame-ancestors 'none'",
        ].join('; '),
      );
      // No other inline script or style, and no style attribute: besides them and the words' data
      // block, which no browser runs (page-words.ts), everything comes from the assets.
      expect(html.match(/<script(?![^>]*\s(src|type)=)/g)).toHaveLength(1);
      expect(html.match(/<script type="application\/json"/g)).toHaveLength(1);
      expect(html.match(/<style/g)).toHaveLength(1);
      expect(html).not.toMatch(/\sstyle=/);
      // The page's script: its modules as one file (page-bundles.ts).
      const scripts = [...html.matchAll(/<script type="module" src="([^"]+)"/g)].map((m) => m[1]!);
      version = scripts[0]!.split('/')[3]!;
      expect(scripts).toEqual([`/sign/assets/${version}/app.bundle.js`]);
    });

    it('its files: typed, cached for good under their version, nothing outside them', async () => {
      const assets: [string, string][] = [
        ['app.bundle.js', 'text/javascript; charset=utf-8'],
        ['app.js', 'text/javascript; charset=utf-8'],
        ['app.css', 'text/css; charset=utf-8'],
        ['pdf.min.mjs', 'text/javascript; charset=utf-8'],
        ['pdf.worker.min.mjs', 'text/javascript; charset=utf-8'],
        ['signature_pad.min.js', 'text/javascript; charset=utf-8'],
        ['standard_fonts/LiberationSans-Regular.ttf', 'font/ttf'],
      ];
      for (const [name, type] of assets) {
        const res = await fetch(`${suite.runtime.baseUrl}/sign/assets/${version}/${name}`);
        expect(res.status, name).toBe(200);
        expect(res.headers.get('content-type'), name).toBe(type);
        expect(res.headers.get('cache-control'), name).toBe('public, max-age=31536000, immutable');
        expect(res.headers.get('x-content-type-options'), name).toBe('nosniff');
        expect(res.headers.get('content-security-policy'), name).toContain("frame-ancestors 'none'");
        expect((await res.arrayBuffer()).byteLength, name).toBeGreaterThan(0);
      }
      const stale = await fetch(`${suite.runtime.baseUrl}/sign/assets/0000000000000000/app.js`);
      expect(stale.status).toBe(200);
      expect(stale.headers.get('cache-control')).toBe('public, max-age=300');
      for (const name of ['nope.js', '..%2Fpages.ts', 'standard_fonts/..%2F..%2Fpackage.json']) {
        expect((await fetch(`${suite.runtime.baseUrl}/sign/assets/${version}/${name}`)).status, name).toBe(
          404,
        );
      }
    });

    it('an embedded URL of an account without embedding origins is not framed either', async () => {
      // An embedded URL of an account without embedding origins may not be framed either.
      const other = await suite.runtime.seedAccount('No Embeds', 'noembeds@example.com');
      const theirs = apiClient(suite.runtime, other.apiKey);
      const created = await theirs('POST', '/bundles/', {
        json: {
          packets: [{ key: 'fay', name: 'Fay Gee', email: 'fay@example.com', deliver_via: 'embed' }],
          documents: [
            {
              key: 'doc',
              file_b64: suite.pdfB64,
              fields: [{ kind: 'sig', page: 1, x: 10, y: 60, w: 30, h: 6, editors: ['fay'] }],
            },
          ],
        },
      });
      expect(created.status, created.text).toBe(201);
      const embed = await theirs('POST', `/packets/${created.body.packets[0].id}/embed_url/`);
      const framed = await fetch(embed.body.url);
      expect(framed.status).toBe(200);
      expect(framed.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(framed.headers.get('x-frame-options')).toBe('DENY');
    });
  });

  it('serve a document’s PDF to its signer’s session only', async () => {
    await aSentBundle({ key: 'gus', name: 'Gus Hay', email: 'gus.pdf@example.com' });
    const token = (await suite.inbox.emailedLink('gus.pdf@example.com')).split('/').pop()!;
    expect((await fetch(`${suite.runtime.baseUrl}/sign/api/documents/doc`)).status).toBe(401);
    const opened = await fetch(`${suite.runtime.baseUrl}/sign/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    expect(opened.status).toBe(201);
    const { session } = (await opened.json()) as { session: string };
    const pdf = await fetch(`${suite.runtime.baseUrl}/sign/api/documents/doc`, {
      headers: { 'x-signing-session': session },
    });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('cache-control')).toBe('private, no-store');
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    const missing = await fetch(`${suite.runtime.baseUrl}/sign/api/documents/nope`, {
      headers: { 'x-signing-session': session },
    });
    expect(missing.status).toBe(404);
  });
});
