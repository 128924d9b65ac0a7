// What the signing page counts as done, says is saved, and shows of dates, in a real headless
// Chromium against the whole local runtime: characters nobody can see fill nothing, a value the
// page or the service refuses stays in view with its message and is neither counted nor called
// saved, the finish summary follows the fields as they are put right, and dates are typed and
// shown in the page's language whatever the browser's, and previewed as the document prints them;
// a calculated total follows the numbers as they are typed.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { formatFieldDate } from '../../shared/text/field-dates.js';
import { expectAccessible } from '../helpers/axe';
import { runBrowser, shot } from '../helpers/browser';
import { browserSuite } from '../helpers/browser-suite';
import { textOf } from '../helpers/poppler';
import { eventually } from '../helpers/receiver';
import { phonePage, signerPage } from '../helpers/signing-pages';

const STEP_TIMEOUT = 90_000;

const suite = browserSuite({
  pdf: [
    {
      size: 'Letter',
      text: [
        { value: 'Membership form', x: 72, y: 720, size: 20 },
        { value: 'Name:', x: 72, y: 640, size: 11 },
        { value: 'Member number:', x: 72, y: 560, size: 11 },
        { value: 'Start date:', x: 72, y: 480, size: 11 },
        { value: 'Signed on:', x: 72, y: 400, size: 11 },
      ],
    },
  ],
  browserArgs: ['--disable-component-update', '--disable-sync'],
});

/** A sent bundle for one embedded signer with these fields of theirs; answers its id and URL. */
async function sent(label: string, fields: Record<string, unknown>[], extra: Record<string, unknown> = {}) {
  const bundle = await suite.sentBundle({
    label,
    packets: [{ key: 'mia', name: 'Mia Chen', email: 'mia@example.com', deliver_via: 'embed' }],
    document: 'form',
    fields: fields.map((f) => ({ page: 1, x: 30, w: 30, h: 3, editors: ['mia'], ...f })),
    ...extra,
  });
  return { id: bundle.id, url: await suite.embedUrl(bundle.packets[0]!.id) };
}

/** The signing page of `url` on a desktop in an English browser, once its first page is drawn. */
async function openOnDesktop(url: string, heading: string) {
  const { context, page, problems } = await signerPage(suite.browser);
  page.setDefaultTimeout(20_000);
  await page.goto(url);
  await page.getByRole('heading', { name: heading }).waitFor();
  await page.locator('.page.rendered').first().waitFor();
  return { page, problems, close: () => context.close() };
}

const progress = (page: Page) => page.locator('#progress-status').textContent();
const saveStatus = (page: Page) => page.locator('.save-status').textContent();
const nextLabel = (page: Page) => page.locator('button.next').textContent();

describe.runIf(runBrowser)('what the signing page counts and saves', () => {
  it(
    'does not count a required field of invisible characters as filled',
    async () => {
      const { url } = await sent('Invisible name', [
        { key: 'name', kind: 'inp', label: 'Name', y: 18, required: true },
        { key: 'sig', kind: 'sig', label: 'Signature', y: 48, h: 5, required: true },
      ]);
      const { page, problems, close } = await openOnDesktop(url, 'Invisible name');
      const name = page.getByLabel('Name', { exact: true });
      for (const value of ['\u3164', '\u2800', '\u115F\uFFA0', '\u17B4', '\uFE0F', '\u0301', ' \u3164 ']) {
        await name.fill(value);
        await name.press('Tab');
        expect(await progress(page), JSON.stringify(value)).toBe('0 of 2 required fields done');
      }
      // A typed signature of a Hangul filler is no signature: the dialog says so.
      await page.getByRole('button', { name: 'Signature: Sign' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add your signature' });
      await dialog.getByRole('tab', { name: 'Type' }).click();
      await dialog.getByLabel('Your full name').fill('\u3164\u2800');
      await dialog.getByRole('button', { name: 'Apply signature' }).click();
      await dialog.getByText('Type your signature, or choose Draw.').waitFor();
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      expect(await progress(page)).toBe('0 of 2 required fields done');
      await page.getByLabel(/I agree to sign these documents electronically/).check();
      await page.getByRole('button', { name: 'Finish signing' }).click();
      await page.locator('#finish-summary').getByText('2 fields need your attention:').waitFor();
      await name.fill('Mia');
      await name.press('Tab');
      expect(await progress(page)).toBe('1 of 2 required fields done');
      expect(problems).toEqual([]);
      await close();
    },
    STEP_TIMEOUT,
  );

  it(
    'shows a read-only value the sender gave as text, said to be theirs, and counts only the signer’s fields',
    async () => {
      const { url } = await sent(
        'Member renewal',
        [
          { key: 'name', kind: 'inp', label: 'Name', y: 18, required: true },
          { key: 'number', kind: 'inp', label: 'Member number', y: 28, required: true, read_only: true },
        ],
        { data: { 'member number': '40-1187' } },
      );
      const { page, problems, close } = await openOnDesktop(url, 'Member renewal');
      // No control to change it: the value as text, with what it is for screen readers.
      expect(await page.getByLabel('Member number', { exact: true }).count()).toBe(0);
      const locked = page.locator('.field.locked');
      expect(await locked.getAttribute('title')).toBe('Filled in by the sender');
      expect(await locked.textContent()).toBe('Member number, filled in by the sender: 40-1187');
      expect(await progress(page)).toBe('0 of 1 required field done');
      await page.getByLabel('Name', { exact: true }).fill('Mia Chen');
      await page.getByLabel('Name', { exact: true }).press('Tab');
      expect(await progress(page)).toBe('1 of 1 required field done');
      await expectAccessible(page, 'a read-only field');
      await locked.scrollIntoViewIfNeeded();
      await shot(page, 'values-0-read-only.png');
      expect(problems).toEqual([]);
      await close();
    },
    STEP_TIMEOUT,
  );

  it(
    'keeps a value the page refuses in view with its message, uncounted and unsaved; the summary follows the fix',
    async () => {
      const { url } = await sent('Numbers only', [
        { key: 'name', kind: 'inp', label: 'Name', y: 18, required: true },
        { key: 'number', kind: 'inp', label: 'Member number', y: 28, required: true, v_pattern: 'numbers' },
      ]);
      const { page, problems, close } = await openOnDesktop(url, 'Numbers only');
      const name = page.getByLabel('Name', { exact: true });
      const number = page.getByLabel('Member number', { exact: true });
      await name.fill('Mia Chen');
      await number.fill('12-AB');
      await number.press('Tab');
      await page.locator('.field.invalid').getByText('Enter a valid number.').waitFor();
      expect(await number.inputValue()).toBe('12-AB');
      expect(await progress(page)).toBe('1 of 2 required fields done');
      expect(await nextLabel(page)).not.toBe('Go to finish');
      expect(await saveStatus(page)).not.toBe('All changes saved');

      await page.getByLabel(/I agree to sign these documents electronically/).check();
      await page.getByRole('button', { name: 'Finish signing' }).click();
      const summary = page.locator('#finish-summary');
      await summary.getByText('One field needs your attention:').waitFor();
      expect(await summary.getByRole('listitem').allTextContents()).toEqual([
        expect.stringContaining('Member number'),
      ]);
      await shot(page, 'values-1-refused-number.png');

      // Put right, the field leaves the summary, and the summary goes.
      await number.fill('12');
      await number.press('Tab');
      await summary.getByText('One field needs your attention:').waitFor({ state: 'detached' });
      expect(await summary.textContent()).toBe('');
      expect(await progress(page)).toBe('2 of 2 required fields done');
      await page.locator('.save-status', { hasText: 'All changes saved' }).waitFor();
      expect(await nextLabel(page)).toBe('Go to finish');

      // Saved indeed: a reload shows it.
      await page.reload();
      await page.locator('.page.rendered').first().waitFor();
      expect(await page.getByLabel('Member number', { exact: true }).inputValue()).toBe('12');
      expect(problems).toEqual([]);
      await close();
    },
    STEP_TIMEOUT,
  );

  it(
    'updates the finish summary as the signer puts each field right, and clears it when none is left',
    async () => {
      const { url } = await sent('Two to fill', [
        { key: 'name', kind: 'inp', label: 'Name', y: 18, required: true },
        { key: 'email', kind: 'inp', label: 'Email', y: 28, required: true, v_pattern: 'email' },
      ]);
      const { page, problems, close } = await openOnDesktop(url, 'Two to fill');
      await page.getByLabel('Email', { exact: true }).fill('mia@');
      await page.getByLabel(/I agree to sign these documents electronically/).check();
      await page.getByRole('button', { name: 'Finish signing' }).click();
      const summary = page.locator('#finish-summary');
      await summary.getByText('2 fields need your attention:').waitFor();
      expect(await summary.getByRole('listitem').allTextContents()).toEqual([
        expect.stringContaining('This field is required.'),
        expect.stringContaining('Enter a valid email address.'),
      ]);
      await page.getByLabel('Name', { exact: true }).fill('Mia Chen');
      await page.getByLabel('Name', { exact: true }).press('Tab');
      await summary.getByText('One field needs your attention:').waitFor();
      expect(await summary.getByRole('listitem').allTextContents()).toEqual([
        expect.stringContaining('Email'),
      ]);
      await page.getByLabel('Email', { exact: true }).fill('mia@example.com');
      await page.getByLabel('Email', { exact: true }).press('Tab');
      await summary.getByText('One field needs your attention:').waitFor({ state: 'detached' });
      expect(await summary.textContent()).toBe('');
      // Nothing stands in the way now: finishing goes through.
      await page.getByRole('button', { name: 'Finish signing' }).click();
      await page.getByRole('heading', { name: /done/ }).waitFor();
      expect(problems).toEqual([]);
      await close();
    },
    STEP_TIMEOUT,
  );

  it(
    'keeps a value the service refuses in view with its message, uncounted, and asks before it is lost',
    async () => {
      const { url } = await sent('Refused by the service', [
        { key: 'number', kind: 'inp', label: 'Member number', y: 28, required: true, v_pattern: 'numbers' },
      ]);
      const { page, close } = await openOnDesktop(url, 'Refused by the service');
      // The service and the page share their rules; to have the service refuse a value the page
      // let through (as when the two differ), the value is changed on its way to the service,
      // which answers for real.
      await page.route('**/sign/api/values', async (route) => {
        const body = JSON.parse(route.request().postData() ?? '{}');
        for (const v of body.values ?? []) if (v.field_key === 'number') v.value = `${v.value}-X`;
        await route.continue({ postData: JSON.stringify(body) });
      });
      const number = page.getByLabel('Member number', { exact: true });
      await number.fill('42');
      await number.press('Tab');
      await page.locator('.field.invalid').getByText('Enter a valid number.').waitFor();
      expect(await number.inputValue()).toBe('42');
      expect(await progress(page)).toBe('0 of 1 required field done');
      expect(await saveStatus(page)).toBe('Some values were not saved: see the marked fields.');
      expect(await nextLabel(page)).not.toBe('Go to finish');

      // Leaving would lose it: the page asks first.
      let asked = '';
      page.once('dialog', (d) => {
        asked = d.type();
        void d.accept();
      });
      await page.reload();
      await page.locator('.page.rendered').first().waitFor();
      expect(asked).toBe('beforeunload');
      expect(await page.getByLabel('Member number', { exact: true }).inputValue()).toBe('');
      await close();
    },
    STEP_TIMEOUT,
  );

  it(
    'shows and hides conditional fields as the signer answers, the required count following',
    async () => {
      const { url } = await sent('Family form', [
        { key: 'married', kind: 'chk', label: 'Married', y: 18, w: 3 },
        {
          key: 'spouse',
          kind: 'inp',
          label: 'Spouse name',
          y: 28,
          required: true,
          visible_when: { all: [{ field: 'married', equals: 'true' }] },
        },
        { key: 'plan', kind: 'sel', label: 'Plan', y: 38, format: 'Basic|Pro' },
        {
          key: 'reason',
          kind: 'inp',
          label: 'Reason',
          y: 48,
          required_when: { any: [{ field: 'plan', one_of: ['Pro'] }] },
        },
        { key: 'sig', kind: 'sig', label: 'Signature', y: 58, h: 5, required: true },
      ]);
      const { page, problems, close } = await openOnDesktop(url, 'Family form');
      const spouse = page.getByLabel('Spouse name', { exact: true });
      const married = page.getByLabel('Married', { exact: true });
      expect(await spouse.isVisible()).toBe(false);
      expect(await progress(page)).toBe('0 of 1 required field done');
      await married.check();
      await spouse.waitFor();
      expect(await progress(page)).toBe('0 of 2 required fields done');
      await spouse.fill('Zed Lee');
      expect(await progress(page)).toBe('1 of 2 required fields done');
      await page.getByLabel('Plan', { exact: true }).selectOption('Pro');
      expect(await progress(page)).toBe('1 of 3 required fields done');
      expect(await page.getByLabel('Reason', { exact: true }).getAttribute('aria-required')).toBe('true');
      await expectAccessible(page, 'conditional fields shown');
      // Unticked, the spouse's field hides and empties: the service drops its value too.
      await married.uncheck();
      await spouse.waitFor({ state: 'hidden' });
      expect(await progress(page)).toBe('0 of 2 required fields done');
      await page.locator('.save-status', { hasText: 'All changes saved' }).waitFor();
      await page.reload();
      await page.locator('.page.rendered').first().waitFor();
      expect(await page.getByLabel('Spouse name', { exact: true }).isVisible()).toBe(false);
      expect(await progress(page)).toBe('0 of 2 required fields done');
      await page.getByLabel('Married', { exact: true }).check();
      expect(await page.getByLabel('Spouse name', { exact: true }).inputValue()).toBe('');
      await expectAccessible(page, 'conditional fields after a reload');
      expect(problems).toEqual([]);
      await close();
    },
    STEP_TIMEOUT,
  );
});

describe.runIf(runBrowser)('dates in the page language', () => {
  it(
    'German: typed day first in an English browser; a date that is none is refused and not counted',
    async () => {
      const { url } = await sent(
        'Mitgliedschaft',
        [{ key: 'start', kind: 'dat', label: 'Beginn', y: 38, required: true, format: 'D MMMM YYYY' }],
        { language: 'de' },
      );
      const { page, problems, close } = await openOnDesktop(url, 'Mitgliedschaft');
      const start = page.getByLabel('Beginn', { exact: true });
      expect(await start.getAttribute('placeholder')).toBe('TT.MM.JJJJ');
      // The keys a German signer presses for 27 November 2026, which a browser date input in
      // English read as month 27.
      await start.click();
      await page.keyboard.type('27.11.112026');
      await page.keyboard.press('Tab');
      await page.getByText('Geben Sie das Datum im Format TT.MM.JJJJ ein.').waitFor();
      expect(await page.locator('#progress-status').textContent()).toBe('0 von 1 Pflichtfeld erledigt');
      await start.fill('');
      await start.click();
      await page.keyboard.type('27.11.2026');
      await page.keyboard.press('Tab');
      await page.getByText('Geben Sie das Datum im Format TT.MM.JJJJ ein.').waitFor({ state: 'detached' });
      expect(await page.locator('#progress-status').textContent()).toBe('1 von 1 Pflichtfeld erledigt');
      await page.locator('.save-status', { hasText: 'Alle Änderungen gespeichert' }).waitFor();
      await page.reload();
      await page.locator('.page.rendered').first().waitFor();
      expect(await page.getByLabel('Beginn', { exact: true }).inputValue()).toBe('27.11.2026');
      await shot(page, 'values-2-german-date.png');
      expect(problems).toEqual([]);
      await close();
    },
    STEP_TIMEOUT,
  );

  it(
    'Japanese: typed year first, with the year, month and day of the page',
    async () => {
      const { url } = await sent(
        '会員申込書',
        [{ key: 'start', kind: 'dat', label: '開始日', y: 38, required: true, format: 'YYYY年M月D日' }],
        { language: 'ja' },
      );
      const { page, problems, close } = await openOnDesktop(url, '会員申込書');
      const start = page.getByLabel('開始日', { exact: true });
      expect(await start.getAttribute('placeholder')).toBe('YYYY/MM/DD');
      await start.click();
      await page.keyboard.type('2026/11/27');
      await page.keyboard.press('Tab');
      await page.locator('.save-status', { hasText: 'すべての変更を保存しました' }).waitFor();
      await page.reload();
      await page.locator('.page.rendered').first().waitFor();
      expect(await page.getByLabel('開始日', { exact: true }).inputValue()).toBe('2026/11/27');
      expect(problems).toEqual([]);
      await close();
    },
    STEP_TIMEOUT,
  );

  it(
    'Arabic on a phone: the field previews the date as the sealed document prints it',
    async () => {
      const { id, url } = await sent(
        'عضوية',
        [
          { key: 'start', kind: 'dat', label: 'البداية', y: 38, required: true },
          { key: 'day', kind: 'dat', label: 'اليوم', y: 48, format: 'DD/MM/YYYY' },
        ],
        { language: 'ar' },
      );
      const { page, problems, close } = await phonePage(suite.browser, url, 'عضوية');
      await page.getByRole('button', { name: 'ابدأ' }).click();
      await page.keyboard.type('27/11/2026');
      const preview = formatFieldDate('2026-11-27', '', 'ar');
      expect(preview).toBe('27 نوفمبر 2026');
      // While the sheet holds the control, the field on the page shows the value as printed.
      await page.locator('.field.k-dat .echo .value', { hasText: preview }).waitFor();
      await shot(page, 'values-3-arabic-date-preview.png');
      await page.locator('button.sheet-done').click();
      await page.getByLabel(/أوافق/).check();
      await page.getByRole('button', { name: 'إنهاء التوقيع' }).click();
      await eventually(
        async () => (await suite.call('GET', `/bundles/${id}/`)).body.docs_ready === true,
        90_000,
        'documents ready',
      );
      const files = (await suite.call('GET', `/bundles/${id}/files/`)).body as {
        kind: string;
        file_url: string;
      }[];
      const pdf = Buffer.from(
        await (await fetch(files.find((f) => f.kind === 'final')!.file_url)).arrayBuffer(),
      );
      // pdftotext reads the Arabic run in the order it is drawn; the month name and the numbers are there.
      const text = textOf(pdf);
      expect(text).toMatch(/نوفمبر/);
      expect(text).toMatch(/27/);
      expect(text).not.toMatch(/November/);
      expect(problems).toEqual([]);
      await close();
    },
    STEP_TIMEOUT,
  );

  it(
    'shows a calculated total as the signer types, in its format, accessible to all',
    async () => {
      const { url } = await sent('Order total', [
        { key: 'qty', kind: 'inp', label: 'Quantity', y: 18, v_pattern: 'numbers' },
        { key: 'price', kind: 'inp', label: 'Unit price', y: 28, v_pattern: 'numbers' },
        { key: 'total', kind: 'inp', label: 'Total', y: 38, formula: 'qty × price', format: 'currency:USD' },
      ]);
      const { page, problems, close } = await openOnDesktop(url, 'Order total');
      const total = page.locator('.field.calculated-field');
      await total.getByText('Total').waitFor();
      await page.getByLabel('Quantity', { exact: true }).fill('3');
      await page.getByLabel('Unit price', { exact: true }).pressSequentially('411.5');
      await total.getByText('$1,234.50').waitFor();
      // Not the signer's to fill: no control, and a screen reader hears what it is.
      expect(await total.locator('input, textarea, button').count()).toBe(0);
      expect(await total.textContent()).toBe('Total, calculated from other fields: $1,234.50');
      await page.getByLabel('Quantity', { exact: true }).fill('');
      await total.getByText('$0.00').waitFor();
      await expectAccessible(page, 'a calculated total');
      expect(problems).toEqual([]);
      await close();
    },
    STEP_TIMEOUT,
  );
});
