// The signing page in the signer's language, in a real headless Chromium (Debian's, driven by
// playwright-core) against the whole local runtime: a bundle in Arabic reads right to left, one in
// Japanese left to right, and the language menu switches and remembers. Screenshots go to
// test-artifacts/.
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ARTIFACTS, runBrowser, shot, watchProblems } from '../helpers/browser';
import { browserSuite } from '../helpers/browser-suite';
import { aBundle } from '../helpers/bundles';

const STEP_TIMEOUT = 60_000;

const suite = browserSuite({ browserArgs: ['--disable-component-update', '--disable-sync'] });

/** An embedded signer's page for a bundle in `language`, opened by a browser that prefers English. */
async function openIn(language: string, label: string) {
  const created = await suite.call('POST', '/bundles/', {
    json: aBundle(
      {
        label,
        language,
        packets: [{ key: 'ann', name: 'Ann Lee', email: 'ann@example.com', deliver_via: 'embed' }],
      },
      suite.pdfB64,
    ),
  });
  expect(created.status, created.text).toBe(201);
  const url = await suite.embedUrl(created.body.packets[0].id);
  const context = await suite.browser.newContext({ viewport: { width: 1024, height: 760 }, locale: 'en-US' });
  const page = await context.newPage();
  const problems = watchProblems(page, { responses: true });
  await page.goto(url);
  await page.getByRole('heading', { name: label }).waitFor();
  await page.locator('.page.rendered').first().waitFor();
  return { page, problems };
}

/**
 * The web font `family` as the page uses it: whether the body's font names it, whether the
 * browser has it ready for `text` (document.fonts.check is false while a face `text` needs is
 * still to load), and the files of it that loaded.
 */
async function servedFonts(page: Page, family: string, text: string) {
  return page.evaluate<{ bodyNamesIt: boolean; check: boolean; loaded: string[] }>(`(async () => {
    const family = ${JSON.stringify(family)};
    const text = ${JSON.stringify(text)};
    await document.fonts.load('16px "' + family + '"', text);
    await document.fonts.ready;
    const loaded = [...document.fonts].filter((f) => f.family.replace(/"/g, '') === family && f.status === 'loaded');
    return {
      bodyNamesIt: getComputedStyle(document.body).fontFamily.includes(family),
      check: loaded.length > 0 && document.fonts.check('16px "' + family + '"', text),
      loaded: performance.getEntriesByType('resource').map((e) => e.name)
        .filter((n) => n.includes('/sign/fonts/') && !n.endsWith('.css'))
        .map((n) => n.slice(n.lastIndexOf('/') + 1)),
    };
  })()`);
}

const rootOf = (page: Page) =>
  page.evaluate<{ lang: string; dir: string }>(
    '({ lang: document.documentElement.lang, dir: document.documentElement.dir })',
  );

describe.runIf(runBrowser)('the signing page in the signer’s language', () => {
  it(
    'Arabic: right to left, every word of the page in Arabic',
    async () => {
      const { page, problems } = await openIn('ar', 'عقد الإيجار');
      expect(await rootOf(page)).toEqual({ lang: 'ar', dir: 'rtl' });
      // The sender's words isolated from the page's: the label, each document's name.
      expect(await page.locator('#doc-title > bdi').textContent()).toBe('عقد الإيجار');
      expect(await page.locator('.doc-title > bdi').first().textContent()).toBe('lease');
      expect(await page.locator('.card.intro p bdi').allTextContents()).toEqual(
        expect.arrayContaining(['Ann Lee']),
      );
      expect(await servedFonts(page, 'Esign Arabic', 'إنهاء التوقيع')).toEqual({
        bodyNamesIt: true,
        check: true,
        loaded: ['arabic.woff2'],
      });
      await page.getByText('طلب منك Demo', { exact: false }).first().waitFor();
      await page.getByRole('button', { name: 'إنهاء التوقيع' }).waitFor();
      await page.getByRole('button', { name: 'رفض التوقيع' }).waitFor();
      await page.locator('.doc-pages', { hasText: '3 صفحات' }).waitFor();
      // Each page's frame and number line in the page's words, with that page's own number.
      expect(await page.locator('.page').nth(1).getAttribute('aria-label')).toBe('lease، الصفحة 2 من 3');
      expect(await page.locator('.page-number').nth(2).textContent()).toBe('الصفحة 3 من 3');
      await page.getByRole('button', { name: 'ابدأ' }).waitFor();
      // Mirrored: the brand sits at the right of the bar, the language menu at its left.
      const brand = await page.locator('.brand').boundingBox();
      const menu = await page.locator('#language select').boundingBox();
      expect(brand!.x).toBeGreaterThan(menu!.x);
      expect(await page.locator('#language select').inputValue()).toBe('ar');
      await shot(page, 'language-ar.png');
      await page.locator('.field.k-sig button').click();
      await page.getByRole('dialog', { name: 'أضف توقيعك' }).waitFor();
      await page.getByRole('tab', { name: 'كتابة' }).waitFor();
      await shot(page, 'language-ar-signature.png');
      expect(problems).toEqual([]);
    },
    STEP_TIMEOUT,
  );

  it(
    'Japanese: left to right, in Japanese; the menu switches to French and the link remembers it',
    async () => {
      const { page, problems } = await openIn('ja', '賃貸借契約書');
      expect(await rootOf(page)).toEqual({ lang: 'ja', dir: 'ltr' });
      await page.getByRole('button', { name: '署名を完了する' }).waitFor();
      await page.locator('.doc-pages', { hasText: '3 ページ' }).waitFor();
      expect(await page.locator('.page').nth(1).getAttribute('aria-label')).toBe('lease、2 / 3 ページ');
      expect(await page.locator('.page-number').first().textContent()).toBe('1 / 3 ページ');
      // The page's words are drawn with the served Japanese font, not whatever this system has;
      // the sender's label, outside the catalog's characters, brings the files that hold it.
      expect(await servedFonts(page, 'Esign Japanese', '署名を完了する賃貸借契約書')).toEqual({
        bodyNamesIt: true,
        check: true,
        loaded: expect.arrayContaining(['japanese.woff2']),
      });
      const blocks = (await servedFonts(page, 'Esign Japanese', '賃')).loaded.filter(
        (f) => f !== 'japanese.woff2',
      );
      expect(blocks.length).toBeGreaterThan(0);
      expect(
        blocks.every((f) => /^japanese-\d+\.woff$/.test(f)),
        blocks.join(),
      ).toBe(true);
      await shot(page, 'language-ja.png');

      await page.locator('#language select').selectOption('fr');
      await page.getByRole('button', { name: 'Terminer la signature' }).waitFor();
      expect(await rootOf(page)).toEqual({ lang: 'fr', dir: 'ltr' });
      // The choice is the signer's, not this tab's: the page loaded afresh keeps it.
      await page.reload();
      await page.getByRole('button', { name: 'Terminer la signature' }).waitFor();
      await shot(page, 'language-fr-chosen.png');
      expect(problems).toEqual([]);
    },
    STEP_TIMEOUT,
  );
});

describe.runIf(runBrowser)('the verify page in the visitor’s language', () => {
  it(
    'Arabic from the browser, right to left, its script’s verdict in Arabic; the menu switches to Japanese',
    async () => {
      const context = await suite.browser.newContext({
        viewport: { width: 1024, height: 760 },
        locale: 'ar',
      });
      const page = await context.newPage();
      const problems = watchProblems(page, { responses: true });
      await page.goto(`${suite.runtime.baseUrl}/verify`);
      await page.getByRole('heading', { name: 'هل هذا المستند أصلي؟' }).waitFor();
      expect(await rootOf(page)).toEqual({ lang: 'ar', dir: 'rtl' });
      // Mirrored: the page's name at the right of the bar, the language menu at its left.
      const brand = await page.locator('.brand').boundingBox();
      const menu = await page.locator('#language-select').boundingBox();
      expect(brand!.x).toBeGreaterThan(menu!.x);

      // The script checks the file in place and says so in the page's language.
      await page.getByLabel('ملف PDF').setInputFiles({
        name: 'lease.pdf',
        mimeType: 'application/pdf',
        buffer: Buffer.from(suite.pdfB64, 'base64'),
      });
      await page.getByRole('button', { name: 'تحقّق من الملف' }).click();
      await page.getByText('لم تختم هذه الخدمة هذا الملف بعينه.').waitFor();
      // The verdict leads, in words; the checks are folded beneath it.
      await page.getByRole('heading', { name: 'لم تختمه هذه الخدمة' }).waitFor();
      await page.getByText('التفاصيل: ما الذي فُحص').click();
      await page.getByRole('heading', { name: 'فحوص الملف نفسه' }).waitFor();
      // The verifier's own sentences too, and its result line, in Arabic.
      await page.locator('.checks .check.fail', { hasText: 'لا يحمل الملف أي توقيع رقمي.' }).waitFor();
      await page.locator('.check-result', { hasText: 'فشل فحص واحد' }).waitFor();
      expect(await page.locator('.checks').textContent()).not.toContain(
        'The file carries no digital signature.',
      );
      await page.screenshot({ path: join(ARTIFACTS, 'verify-ar.png'), fullPage: true });
      const axe = await new AxeBuilder({ page })
        .withTags(['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa'])
        .analyze();
      expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual([]);

      await page.getByLabel('اللغة').selectOption('ja');
      await page.getByRole('button', { name: 'تغيير اللغة' }).click();
      await page.getByRole('heading', { name: 'この書類は本物ですか？' }).waitFor();
      expect(await rootOf(page)).toEqual({ lang: 'ja', dir: 'ltr' });
      // Drawn with the served Japanese font, the Arabic one no longer linked.
      expect(await servedFonts(page, 'Esign Japanese', 'この書類は本物ですか？')).toEqual({
        bodyNamesIt: true,
        check: true,
        loaded: ['japanese.woff2'],
      });
      await shot(page, 'verify-ja.png');
      expect(problems).toEqual([]);
      await context.close();
    },
    STEP_TIMEOUT,
  );
});

describe.runIf(runBrowser)('the portal page in the visitor’s language', () => {
  it(
    'Japanese from the browser, every word of the form in Japanese, no accessibility violation; Hebrew from the menu, mirrored',
    async () => {
      const envelope = await suite.portalWaiver({
        name: 'ジム利用同意書',
        field: { page: 1, x: 10, y: 70, w: 30, h: 5 },
      });
      const context = await suite.browser.newContext({
        viewport: { width: 1024, height: 760 },
        locale: 'ja-JP',
      });
      const page = await context.newPage();
      const problems = watchProblems(page, { responses: true });
      await page.goto(envelope.smart_link_url);
      await page.getByLabel('氏名').fill('佐藤 健二');
      await page.getByLabel('メールアドレス').fill('kenji@example.com');
      await page.getByRole('button', { name: '署名に進む' }).waitFor();
      expect(await rootOf(page)).toEqual({ lang: 'ja', dir: 'ltr' });
      const axe = await new AxeBuilder({ page })
        .withTags(['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa'])
        .analyze();
      expect(axe.violations.map((v) => v.id)).toEqual([]);
      await shot(page, 'portal-ja.png');

      await page.getByLabel('言語').selectOption('he');
      await page.getByRole('button', { name: '言語を変更' }).click();
      await page.getByRole('button', { name: 'המשך לחתימה' }).waitFor();
      expect(await rootOf(page)).toEqual({ lang: 'he', dir: 'rtl' });
      const brand = await page.locator('.brand').boundingBox();
      const menu = await page.locator('#language-select').boundingBox();
      expect(brand!.x).toBeGreaterThan(menu!.x);
      await shot(page, 'portal-he.png');
      expect(problems).toEqual([]);
      await context.close();
    },
    STEP_TIMEOUT,
  );
});
