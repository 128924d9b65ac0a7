// The draft editor in the sender's language, in headless Chromium: Arabic from the browser's
// language (right to left, the side panel on the right, the PDF page not mirrored, 0 axe
// violations), Japanese from the link's `?lang=` over the browser's, and, opened from the
// console's Send screen, the language the console's reader chose rather than the browser's.
import type { FrameLocator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_EMAIL } from '#infra/local/demo-account';
import { dataPaths } from '#infra/local/layout';
import { listMailbox } from '#infra/local/mailbox/store';
import { translator } from '#shared/i18n/catalogs';
import { directionOf, type TLanguage } from '#shared/i18n/languages';
import { expectAccessible } from '../helpers/axe';
import { runBrowser, shot } from '../helpers/browser';
import { browserSuite } from '../helpers/browser-suite';
import { consoleWord } from '../helpers/console-words';
import { eventually } from '../helpers/receiver';

const suite = browserSuite();

/** A draft of the demo account with one signer and a signature field at 10 % from the page's left. */
async function aDraft(): Promise<{ id: string; url: string }> {
  const made = await suite.call('POST', '/bundles/', {
    json: {
      label: 'Lease',
      status: 'dr',
      packets: [{ key: 'ann', name: 'Ann Lee', email: 'ann@example.com' }],
      documents: [
        {
          key: 'lease',
          name: 'Lease',
          file_b64: suite.pdfB64,
          fields: [{ key: 'sig-1', kind: 'sig', editors: ['ann'], page: 1, x: 10, y: 70, w: 30, h: 5 }],
        },
      ],
    },
  });
  expect(made.status, made.text).toBe(201);
  const link = await suite.call('POST', `/bundles/${made.body.id}/prepare_url/`);
  expect(link.status, link.text).toBe(201);
  return { id: made.body.id as string, url: link.body.url as string };
}

/** The editor (a page, or the console's frame) shows `lang`'s words: <html lang dir>, kinds, Save. */
async function expectEditorIn(where: Page | FrameLocator, lang: TLanguage) {
  const t = translator(lang);
  const html = where.locator('html');
  await expect.poll(() => html.getAttribute('lang')).toBe(lang);
  expect(await html.getAttribute('dir')).toBe(directionOf(lang));
  await where.getByRole('heading', { name: t('editor.heading.bundle') }).waitFor();
  expect(await where.locator('#new-kind option').allTextContents()).toContain(t('editor.kind.sig'));
  await where.getByRole('button', { name: t('editor.saveDraft') }).waitFor();
  await expect
    .poll(() => where.locator('.prep-field[data-key="sig-1"]').textContent())
    .toBe(`${t('editor.kind.sig')} · Ann Lee`);
}

describe.runIf(runBrowser)('the draft editor in the sender’s language', () => {
  it('reads Arabic right to left from the browser, and Japanese from the link’s ?lang=', async () => {
    const { url } = await aDraft();
    const context = await suite.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'ar' });
    const page = await context.newPage();
    await page.goto(url);
    await expectEditorIn(page, 'ar');
    await page.locator('.page.rendered').first().waitFor();
    // The panel mirrors to the right of the pages; the paper does not: the field stays 10 % from its left.
    const side = (await page.locator('.prep-side').boundingBox())!;
    const paper = (await page.locator('.prep-layer').first().boundingBox())!;
    const field = (await page.locator('.prep-field[data-key="sig-1"]').boundingBox())!;
    expect(side.x).toBeGreaterThan(paper.x + paper.width - 1);
    expect(field.x - paper.x).toBeCloseTo(paper.width * 0.1, 0);
    await expectAccessible(page, 'the draft editor in Arabic');
    await shot(page, 'bundle-editor-ar.png');

    await page.goto(`${url}?lang=ja`);
    await expectEditorIn(page, 'ja');
    await context.close();
  }, 60_000);

  it('opened from the console, follows the language its reader chose over the browser’s', async () => {
    const { id } = await aDraft();
    const context = await suite.browser.newContext({
      viewport: { width: 1280, height: 900 },
      locale: 'en-US',
    });
    await context.addInitScript("localStorage.setItem('console.language', 'he')");
    const page = await context.newPage();
    await page.goto(`${suite.runtime.baseUrl}/console/`);
    await page.getByLabel(consoleWord('signIn.email', 'he')).fill(DEMO_EMAIL);
    await page.getByRole('button', { name: consoleWord('signIn.submit', 'he') }).click();
    const link = await eventually(
      async () => {
        const mails = await listMailbox(dataPaths(suite.runtime.dataDir).mailbox);
        const mail = mails.find((m) => m.kind === 'email' && m.to.includes(DEMO_EMAIL));
        if (mail?.kind !== 'email') return undefined;
        return /http:\/\/[^\s]+\/console\/sign-in\/[0-9A-Za-z]{43}/.exec(mail.text)?.[0];
      },
      10_000,
      'the sign-in email',
    );
    await page.goto(link);
    await page.getByRole('heading', { level: 1, name: consoleWord('bundles.heading', 'he') }).waitFor();
    await page.goto(`${suite.runtime.baseUrl}/console/send/${id}`);
    await expectEditorIn(page.frameLocator('iframe.editor-frame'), 'he');
    await context.close();
  }, 60_000);
});
