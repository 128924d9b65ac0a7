// The signing page on a phone-sized screen (390 × 844, touch), in a real headless Chromium: an
// error bubble of a field at the right edge stays inside the screen, and "Next field" takes the
// signer to what they must fill before what they may fill. Screenshots go to test-artifacts/.
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '../../infra/local/runtime';
import { ARTIFACTS, launchBrowser, runBrowser, watchProblems } from '../helpers/browser';
import { aPdf } from '../helpers/pdfs';
import { apiClient, startTestRuntime } from '../helpers/runtime';

const PHONE = { width: 390, height: 844 };

let runtime: TRuntime;
let call: ReturnType<typeof apiClient>;
let browser: Browser;
let pdfB64: string;

beforeAll(async () => {
  runtime = await startTestRuntime();
  call = apiClient(runtime);
  pdfB64 = Buffer.from(
    await aPdf({
      pages: [
        {
          size: 'Letter',
          text: [
            { value: 'Membership form', x: 72, y: 720, size: 20 },
            { value: 'Newsletter (optional):', x: 72, y: 640, size: 11 },
            { value: 'Start date:', x: 72, y: 560, size: 11 },
            { value: 'Member number:', x: 300, y: 480, size: 11 },
          ],
        },
      ],
    }),
  ).toString('base64');
  if (runBrowser)
    browser = await launchBrowser(['--disable-quic', '--disable-component-update', '--disable-sync']);
});

afterAll(async () => {
  await browser?.close();
  await runtime?.stop();
});

/** A sent bundle for one embedded signer with these fields of theirs; opened on a phone. */
async function openOnPhone(label: string, fields: Record<string, unknown>[]) {
  const res = await call('POST', '/bundles/', {
    json: {
      label,
      packets: [{ key: 'mia', name: 'Mia Chen', email: 'mia@example.com', deliver_via: 'embed' }],
      documents: [
        {
          key: 'form',
          file_b64: pdfB64,
          fields: fields.map((f) => ({ page: 1, h: 3.6, editors: ['mia'], ...f })),
        },
      ],
    },
  });
  expect(res.status, res.text).toBe(201);
  const embed = await call('POST', `/packets/${res.body.packets[0].id}/embed_url/`);
  expect(embed.status, embed.text).toBe(201);
  const context = await browser.newContext({
    viewport: PHONE,
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: 'en-US',
  });
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.goto(embed.body.url);
  await page.getByRole('heading', { name: label }).waitFor();
  await page.locator('.page.rendered').first().waitFor();
  return { page, problems, close: () => context.close() };
}

// The tests run under Node's types: code that runs in the page is given as text.
const focusedLabel = (page: Page) =>
  page.evaluate<string>("document.activeElement?.getAttribute('aria-label') ?? ''");

describe.runIf(runBrowser)('signing on a phone', () => {
  it('keeps the error bubble of a field at the right edge inside the screen, its whole text shown', async () => {
    const { page, problems, close } = await openOnPhone('Membership near the edge', [
      { key: 'number', kind: 'inp', label: 'Member number', x: 84, y: 38, w: 14, required: true },
    ]);
    // Finishing with the field empty shows its error beside it.
    await page.getByLabel(/I agree to sign these documents electronically/).check();
    await page.getByRole('button', { name: 'Finish signing' }).click();
    const bubble = page.locator('.field.invalid .field-error');
    await bubble.waitFor();
    expect(await bubble.textContent()).toBe('This field is required.');
    const where = await page.evaluate<{
      left: number;
      right: number;
      width: number;
      clipped: boolean;
    }>(`(() => {
      const b = document.querySelector('.field.invalid .field-error');
      const r = b.getBoundingClientRect();
      return {
        left: r.left,
        right: r.right,
        width: document.documentElement.clientWidth,
        clipped: b.scrollWidth > b.clientWidth + 1 || b.scrollHeight > b.clientHeight + 1,
      };
    })()`);
    expect(where.left, JSON.stringify(where)).toBeGreaterThanOrEqual(0);
    expect(where.right, JSON.stringify(where)).toBeLessThanOrEqual(where.width);
    expect(where.clipped).toBe(false);
    await page.screenshot({ path: join(ARTIFACTS, 'phone-8-error-at-right-edge.png') });
    expect(problems).toEqual([]);
    await close();
  });

  it('"Next field" goes to the required fields left before the optional ones', async () => {
    const { page, problems, close } = await openOnPhone('Membership in order', [
      // In document order: the optional checkbox first, then the required date, then an optional text.
      { key: 'news', kind: 'chk', label: 'Newsletter', x: 40, y: 18, w: 4 },
      { key: 'start', kind: 'dat', label: 'Start date', x: 40, y: 28, w: 30, required: true },
      { key: 'note', kind: 'inp', label: 'Note', x: 40, y: 48, w: 40 },
    ]);
    await page.getByRole('button', { name: 'Start' }).click();
    expect(await focusedLabel(page)).toBe('Start date');
    await page.locator(':focus').fill('2026-12-01');
    await page.getByRole('button', { name: 'Next field' }).click();
    // The required ones are done: now the optional ones, onwards from here, then round to the start.
    expect(await focusedLabel(page)).toBe('Note');
    await page.getByRole('button', { name: 'Next field' }).click();
    expect(await focusedLabel(page)).toBe('Newsletter');
    await page.screenshot({ path: join(ARTIFACTS, 'phone-9-next-field-order.png') });
    expect(problems).toEqual([]);
    await close();
  });
});
