// Signing a whole bundle on a phone (390 × 844, touch, in a real headless Chromium), tapping as a
// finger does: every kind of field the service has is edited in the sheet at the bottom of the
// screen at a size for fingers, the field itself is scrolled into view above it, and the guide
// (Previous, Next, Go to finish) stays on the screen at every step, also when the page is
// pinch-zoomed. Held sideways, the signature pad spans the screen. Screenshots go to
// test-artifacts/.
import type { CDPSession, Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { runBrowser, shot } from '../helpers/browser';
import { browserSuite } from '../helpers/browser-suite';
import { eventually } from '../helpers/receiver';
import { PHONE, phonePage } from '../helpers/signing-pages';

const PORTRAIT = PHONE;
const LANDSCAPE = { width: 844, height: 390 };

const suite = browserSuite({
  pdf: [
    {
      size: 'Letter',
      text: [
        { value: 'Volunteer agreement', x: 72, y: 720, size: 20 },
        { value: 'Full name:', x: 72, y: 660, size: 11 },
        { value: 'About you:', x: 72, y: 600, size: 11 },
        { value: 'First day:', x: 72, y: 500, size: 11 },
        { value: 'Team:', x: 72, y: 440, size: 11 },
        { value: 'I am over 18.', x: 100, y: 380, size: 11 },
        { value: 'Days:', x: 72, y: 320, size: 11 },
        { value: 'I approve the code of conduct.', x: 100, y: 260, size: 11 },
      ],
    },
    {
      size: 'Letter',
      text: [
        { value: 'Initials:', x: 72, y: 600, size: 11 },
        { value: 'Signature:', x: 72, y: 400, size: 11 },
        { value: 'Name and date:', x: 340, y: 400, size: 11 },
      ],
    },
  ],
  browserArgs: ['--disable-quic', '--disable-component-update', '--disable-sync'],
});

/** Every kind of field, all required of the one signer (so "Next field" goes in document order). */
const FIELDS = [
  { key: 'name', kind: 'inp', label: 'Full name', page: 1, x: 30, y: 16, w: 45, h: 3.6, v_min: 3 },
  { key: 'about', kind: 'txt', label: 'About you', page: 1, x: 30, y: 23, w: 60, h: 9 },
  { key: 'first', kind: 'dat', label: 'First day', page: 1, x: 30, y: 35.5, w: 30, h: 3.6 },
  { key: 'team', kind: 'sel', label: 'Team', page: 1, x: 30, y: 43, w: 30, h: 3.6, format: 'Kitchen|Garden' },
  { key: 'adult', kind: 'chk', label: 'I am over 18', page: 1, x: 11.6, y: 51, w: 2.6, h: 2 },
  { key: 'days', kind: 'cbg', label: 'Days', page: 1, x: 30, y: 58, w: 45, h: 3.6, format: 'Mon|Wed|Sat' },
  {
    key: 'conduct',
    kind: 'apr',
    label: 'I approve the code of conduct',
    page: 1,
    x: 11.6,
    y: 66,
    w: 2.6,
    h: 2,
  },
  { key: 'ini', kind: 'ini', label: 'Initials', page: 2, x: 30, y: 22, w: 14, h: 5 },
  { key: 'sig', kind: 'sig', label: 'Signature', page: 2, x: 11.5, y: 47, w: 32, h: 7 },
  { key: 'signed_name', kind: 'snm', label: 'Name', page: 2, x: 55, y: 47, w: 30, h: 3 },
  { key: 'signed_on', kind: 'sdt', label: 'Date signed', page: 2, x: 55, y: 51, w: 30, h: 3 },
  { key: 'id_card', kind: 'att', label: 'Photo ID', x: 0, y: 0, w: 1, h: 1, v_attachment_types: ['png'] },
];

/** A sent bundle of one embedded signer with `fields`, opened on a phone in their `language`. */
async function openOnPhone(
  label: string,
  fields: Record<string, unknown>[],
  { viewport = PORTRAIT, language = 'en' } = {},
) {
  const sent = await suite.sentBundle({
    label,
    packets: [{ key: 'ines', name: 'Ines Park', email: 'ines@example.com', deliver_via: 'embed', language }],
    document: 'agreement',
    fields: fields.map((f) => ({
      editors: ['ines'],
      required: !['snm', 'sdt'].includes(f.kind as string),
      ...f,
    })),
  });
  const url = await suite.embedUrl(sent.packets[0]!.id);
  const opened = await phonePage(suite.browser, url, label, { viewport, stepTimeout: 15_000 });
  return { ...opened, bundleId: sent.id };
}

const frames = (page: Page) =>
  page.evaluate('new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))');

type TBox = { top: number; bottom: number; left: number; right: number };
type TStep = {
  name: string;
  fontSize: number;
  target: TBox & { width: number; height: number };
  field: TBox;
  dock: TBox;
  topbar: number;
  screen: { width: number; height: number };
  nextOnTop: boolean;
};

/**
 * Where things are while a field is in the sheet: the control's name and text size, its tap
 * target (the control, or the row that is its label), the field on the page, the dock, the top
 * bar's bottom, the screen, and whether "Next"/"Go to finish" is the topmost element where a
 * finger would tap it.
 */
async function step(page: Page): Promise<TStep> {
  await frames(page);
  return page.evaluate<TStep>(`(() => {
    const box = (r) => ({ top: r.top, bottom: r.bottom, left: r.left, right: r.right, width: r.width, height: r.height });
    const control = document.querySelector('.field-sheet .ctl');
    const target = control.closest('label.sheet-control') ?? control;
    const field = document.querySelector('.field.current');
    const next = document.querySelector('.dock .guide .next').getBoundingClientRect();
    const hit = document.elementFromPoint((next.left + next.right) / 2, (next.top + next.bottom) / 2);
    return {
      name: control.getAttribute('aria-label'),
      fontSize: parseFloat(getComputedStyle(control).fontSize),
      target: box(target.getBoundingClientRect()),
      field: box(field.getBoundingClientRect()),
      dock: box(document.getElementById('dock').getBoundingClientRect()),
      topbar: document.getElementById('topbar').getBoundingClientRect().bottom,
      screen: { width: document.documentElement.clientWidth, height: innerHeight },
      nextOnTop: hit === document.querySelector('.dock .guide .next'),
    };
  })()`);
}

/** The field in hand is in the sheet at a usable size, in view above it, and the guide is on the screen. */
async function expectUsable(page: Page, name?: string) {
  const s = await step(page);
  const at = JSON.stringify(s);
  if (name !== undefined) expect(s.name, at).toBe(name);
  expect(s.fontSize, at).toBeGreaterThanOrEqual(16);
  expect(s.target.height, at).toBeGreaterThanOrEqual(44);
  expect(s.target.width, at).toBeGreaterThanOrEqual(44);
  // The dock is whole on the screen, at its bottom, and its Next button is not covered.
  expect(s.dock.top, at).toBeGreaterThan(s.topbar);
  expect(s.dock.bottom, at).toBeLessThanOrEqual(s.screen.height + 0.5);
  expect(s.dock.bottom, at).toBeGreaterThan(s.screen.height - 1);
  expect(s.nextOnTop, at).toBe(true);
  // The field on the page is between the top bar and the dock.
  expect(s.field.top, at).toBeGreaterThanOrEqual(s.topbar);
  expect(s.field.bottom, at).toBeLessThanOrEqual(s.dock.top);
  return s;
}

/**
 * Draws a stroke on the pad with one finger (touch events, as a phone sends them), 16 ms apart as
 * a screen samples them. The finger rests at the end before it lifts: a finger lifted moving
 * starts a fling, and the browser then takes the next tap as the one that stops it.
 */
async function drawWithFinger(page: Page, cdp: CDPSession) {
  const box = (await page.locator('canvas.pad').boundingBox())!;
  const point = (i: number) => ({
    x: box.x + box.width * (0.1 + (0.8 * Math.min(i, 30)) / 30),
    y: box.y + box.height * (0.55 - Math.sin(Math.min(i, 30) / 2.5) * 0.2),
  });
  const start = Date.now() / 1000;
  const touch = (
    type: 'touchStart' | 'touchMove' | 'touchEnd',
    i: number,
    touchPoints: { x: number; y: number }[],
  ) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints, timestamp: start + i * 0.016 });
  await touch('touchStart', 0, [point(0)]);
  for (let i = 1; i <= 40; i++) await touch('touchMove', i, [point(i)]);
  await touch('touchEnd', 41, []);
}

const next = (page: Page) => page.locator('.dock').getByRole('button', { name: 'Next field' }).tap();

describe.runIf(runBrowser)('signing a bundle on a phone', () => {
  describe('edits every kind of field in the sheet at a usable size with the guide always on screen, draws the signature across the screen held sideways, and completes the bundle', () => {
    let phone: Awaited<ReturnType<typeof openOnPhone>>;
    let page: Page;
    let cdp: CDPSession;
    let sheet: Locator;
    let control: Locator;

    beforeAll(async () => {
      phone = await openOnPhone('Volunteer agreement', FIELDS);
      page = phone.page;
      cdp = await page.context().newCDPSession(page);
      sheet = page.locator('.field-sheet');
      control = sheet.locator('.ctl');
    }, 60_000);

    it('a text field is typed in the sheet; a refused value shows in the field’s bubble and the sheet', async () => {
      expect(await sheet.isHidden()).toBe(true);

      await page.locator('.dock').getByRole('button', { name: 'Start' }).tap();
      // A text field: typed in the sheet, its value shown in the field on the page.
      const s = await expectUsable(page, 'Full name');
      expect(s.target.width).toBeGreaterThan(PORTRAIT.width * 0.8);
      // A value refused shows its message in the field's bubble, and in the sheet for the eye.
      await control.fill('In');
      await control.dispatchEvent('change');
      const message = await page.locator('.field.current .field-error').textContent();
      expect(message).toMatch(/3/);
      expect(await sheet.locator('.sheet-error').getAttribute('data-message')).toBe(message);
      expect(await sheet.locator('.sheet-error').isVisible()).toBe(true);
      await control.fill('Ines Park');
      await control.dispatchEvent('change');
      expect(await sheet.locator('.sheet-error').isVisible()).toBe(false);
      expect(await page.locator('.field.k-inp .echo').textContent()).toBe('Ines Park');
      await shot(page, 'phone-sheet-1-text-field.png');
      await next(page);
    }, 60_000);

    it('Previous and Next move the sheet and keep the values; a date and a list, closed and opened again', async () => {
      await expectUsable(page, 'About you');
      await control.fill('I like cooking for many people.');
      // Back one field: the sheet follows, the value is kept. Next goes on to what is left.
      await page.locator('.dock').getByRole('button', { name: 'Previous field' }).tap();
      await expectUsable(page, 'Full name');
      expect(await control.inputValue()).toBe('Ines Park');
      await next(page);

      await expectUsable(page, 'First day');
      await control.fill('2026-12-05');
      await next(page);

      await expectUsable(page, 'Team');
      await control.selectOption('Garden');
      // "Done" puts the control back in its field; a tap on the field opens it in the sheet again.
      await sheet.getByRole('button', { name: 'Done' }).tap();
      expect(await sheet.isHidden()).toBe(true);
      expect(await page.locator('.field.k-sel > select.ctl').count()).toBe(1);
      expect(await page.evaluate<string>('document.activeElement?.textContent ?? ""')).toBe('Next field');
      await page.locator('.field.k-sel').tap();
      await expectUsable(page, 'Team');
      expect(await control.inputValue()).toBe('Garden');
      await next(page);
    }, 60_000);

    it('a checkbox, a group of choices and an approval, tapped in the sheet', async () => {
      // A checkbox: the whole row of the sheet is its label.
      const s = await expectUsable(page, 'I am over 18');
      expect(s.target.width).toBeGreaterThan(PORTRAIT.width * 0.8);
      await sheet.locator('label.sheet-control').tap();
      expect(await control.isChecked()).toBe(true);
      await page.locator('.field.k-chk .echo', { hasText: '✓' }).waitFor();
      await shot(page, 'phone-sheet-2-checkbox.png');
      await next(page);

      await expectUsable(page, 'Days: Choose…');
      await control.tap();
      const days = page.getByRole('dialog', { name: 'Days' });
      await days.getByText('Mon').tap();
      await days.getByText('Sat').tap();
      await days.getByRole('button', { name: 'Done' }).tap();
      await days.waitFor({ state: 'detached' });
      await expectUsable(page, 'Days: Mon, Sat');
      expect(await page.locator('.field.k-cbg .echo').textContent()).toBe('Mon, Sat');
      await next(page);

      await expectUsable(page, 'I approve the code of conduct');
      await sheet.locator('label.sheet-control').tap();
      expect(await control.isChecked()).toBe(true);
      await next(page);
    }, 60_000);

    it('initials, typed in the dialog the sheet’s button opens', async () => {
      // Initials, typed in the dialog the sheet's button opens.
      await expectUsable(page, 'Initials: Initial');
      await control.tap();
      await page.getByRole('dialog', { name: 'Add your initials' }).waitFor();
      await page.getByRole('tab', { name: 'Type' }).tap();
      await page.getByRole('button', { name: 'Apply initials' }).tap();
      await page.getByRole('dialog').waitFor({ state: 'detached' });
      await expectUsable(page, 'Initials: IP (done; press to change)');
      expect(await page.locator('.field.k-ini .echo').textContent()).toBe('IP');
      await next(page);
      await expectUsable(page, 'Signature: Sign');
      await shot(page, 'phone-sheet-3-signature-field.png');
    }, 60_000);

    it('held sideways, the sheet closes and the signature dialog spans the screen', async () => {
      // Held sideways, the page is wide enough to work in place: the sheet closes, the guide goes
      // back to the top bar, and the signature dialog takes the whole screen.
      await page.setViewportSize(LANDSCAPE);
      await sheet.waitFor({ state: 'hidden' });
      expect(await page.locator('#topbar .guide .next').isVisible()).toBe(true);
      expect(await page.locator('#topbar .guide .previous').isVisible()).toBe(true);
      // The field in hand is still in view, laid out at the new width.
      await frames(page);
      const turned = await page.evaluate<{ field: TBox; topbar: number; height: number }>(`({
        field: document.querySelector('.field.current').getBoundingClientRect().toJSON(),
        topbar: document.getElementById('topbar').getBoundingClientRect().bottom,
        height: innerHeight,
      })`);
      expect(turned.field.top, JSON.stringify(turned)).toBeGreaterThanOrEqual(turned.topbar);
      expect(turned.field.bottom, JSON.stringify(turned)).toBeLessThanOrEqual(turned.height);
      await shot(page, 'phone-sheet-4a-landscape-page.png');
      await page.locator('.field.k-sig .ctl').tap();
      const dialog = page.getByRole('dialog', { name: 'Add your signature' });
      await dialog.waitFor();
      await frames(page);
      const pad = (await page.locator('canvas.pad').boundingBox())!;
      const apply = (await dialog.getByRole('button', { name: 'Apply signature' }).boundingBox())!;
      const sizes = JSON.stringify({ pad, apply });
      // Across the screen less its margins, tall enough to sign in, with Apply on the screen.
      expect(pad.width, sizes).toBeGreaterThanOrEqual(LANDSCAPE.width - 48);
      expect(pad.height, sizes).toBeGreaterThanOrEqual(150);
      expect(apply.y + apply.height, sizes).toBeLessThanOrEqual(LANDSCAPE.height);
      await drawWithFinger(page, cdp);
      await shot(page, 'phone-sheet-4-landscape-signature.png');
      await dialog.getByRole('button', { name: 'Apply signature' }).tap();
      await dialog.waitFor({ state: 'detached' });
      await page.locator('.field.k-sig .ctl img').waitFor();
      await page.getByText('All changes saved').waitFor({ state: 'attached' });
    }, 60_000);

    it('upright again, the guide leads to the file to attach, a row of a size for fingers', async () => {
      // Upright again: the guide is back at the bottom, and leads to the file to attach.
      await page.setViewportSize(PORTRAIT);
      await page.locator('.dock .guide .next').waitFor();
      await next(page);
      const attach = page.getByRole('button', { name: 'Photo ID: Choose file' });
      expect(await page.evaluate<string>("document.activeElement?.getAttribute('aria-label') ?? ''")).toBe(
        'Photo ID: Choose file',
      );
      // It is a row of the list, of a size for fingers already: the sheet stays closed.
      expect(await sheet.isHidden()).toBe(true);
      const row = (await attach.boundingBox())!;
      expect(row.height).toBeGreaterThanOrEqual(44);
      await page.locator('.attachment input[type=file]').setInputFiles({
        name: 'id.png',
        mimeType: 'image/png',
        buffer: Buffer.from(
          'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
          'base64',
        ),
      });
      await page.locator('.attachment .file-name', { hasText: 'id.png' }).waitFor();
      expect(await page.locator('.progress').getAttribute('aria-label')).toBe(
        '10 of 10 required fields done',
      );
    }, 60_000);

    it('finishing: the button clear of the dock, and the bundle completes', async () => {
      await page.locator('.dock').getByRole('button', { name: 'Go to finish' }).tap();
      expect(await page.evaluate<string>('document.activeElement?.id ?? ""')).toBe('consent');
      await page.locator('label[for=consent]').tap();
      const finish = page.getByRole('button', { name: 'Finish signing' });
      // The finish button is not hidden under the dock.
      const f = (await finish.boundingBox())!;
      const dockTop = (await page.locator('#dock').boundingBox())!.y;
      expect(f.y + f.height).toBeLessThanOrEqual(dockTop);
      // The page keeps the dock's height as room below its end.
      expect(
        await page.evaluate(
          "document.documentElement.style.getPropertyValue('--dock-height') === document.getElementById('dock').offsetHeight + 'px'",
        ),
      ).toBe(true);
      await finish.tap();
      await page.getByRole('heading', { name: 'You’re done' }).waitFor();
      await shot(page, 'phone-sheet-5-done.png');
      await eventually(
        async () => (await suite.call('GET', `/bundles/${phone.bundleId}/`)).body.status === 'co',
        30_000,
        'the bundle to complete',
      );
      const data = await suite.call('GET', `/bundles/${phone.bundleId}/data/`);
      expect(data.status, data.text).toBe(200);
      expect(phone.problems).toEqual([]);
      await phone.close();
    }, 60_000);
  });

  it('keeps the sheet usable and the guide whole from 360 to 430 px wide, right to left in Arabic too', async () => {
    for (const [viewport, language] of [
      [{ width: 360, height: 740 }, 'ar'],
      [{ width: 430, height: 932 }, 'en'],
    ] as const) {
      const { page, problems, close } = await openOnPhone(
        `Volunteer agreement at ${viewport.width}`,
        FIELDS,
        {
          viewport,
          language,
        },
      );
      expect(await page.locator('html').getAttribute('dir')).toBe(language === 'ar' ? 'rtl' : 'ltr');
      // Through every field on the pages, with the guide's own button whatever its words.
      for (let i = 0; i < 9; i++) {
        await page.locator('.dock .guide .next').tap();
        const s = await expectUsable(page);
        expect(s.dock.left).toBeGreaterThanOrEqual(0);
        expect(s.dock.right).toBeLessThanOrEqual(viewport.width);
        if (i === 0) await shot(page, `phone-sheet-7-${language}-${viewport.width}.png`);
      }
      expect(problems).toEqual([]);
      await close();
    }
  }, 120_000);

  it('never makes the page wider than a 390 px screen, left to right or right to left: fields in the sheet, errors shown, finishing', async () => {
    // A field at the right edge of the page: its error bubble, where the style sheet first puts
    // it, reaches past the screen until bubbles.js shifts it back.
    const code = { key: 'code', kind: 'inp', label: 'Code', page: 1, x: 72, y: 9, w: 26, h: 3.6, v_min: 3 };
    // Every field optional: a refused value never counts as filled, and the guide offers a
    // required field left unfilled again, so it would not lead on past a refused required one.
    // A refused optional value still holds up finishing, as the test needs.
    const fields = [code, ...FIELDS].map((f) => ({ ...f, required: false }));
    for (const language of ['en', 'de', 'ja', 'ar', 'he']) {
      const { page, problems, close } = await openOnPhone(`Volunteer agreement in ${language}`, fields, {
        language,
      });
      const seen: string[] = [];
      /** The page is no wider than the screen, and the browser has not widened its layout to fit. */
      const narrow = async (state: string) => {
        await frames(page);
        const w = await page.evaluate<{ scroll: number; layout: number }>(
          '({ scroll: document.documentElement.scrollWidth, layout: innerWidth })',
        );
        const at = `${language}, ${state}: ${JSON.stringify(w)}`;
        seen.push(at);
        expect(w.scroll, at).toBeLessThanOrEqual(PORTRAIT.width);
        expect(w.layout, at).toBe(PORTRAIT.width);
      };
      const control = page.locator('.field-sheet .ctl');
      await narrow('opened');
      await page.locator('.dock .guide .next').tap();
      await narrow('the field at the right edge in the sheet');
      await control.fill('A');
      await control.dispatchEvent('change');
      await page.locator('.field.current .field-error:not(:empty)').waitFor();
      await narrow('its error shown');
      // Every other field of the signer's in the sheet in turn (the name and date signed are
      // filled at the end), the error still shown on the first; then the file to attach.
      const inSheet = FIELDS.filter((f) => !['snm', 'sdt', 'att'].includes(f.kind));
      for (const f of inSheet) {
        await page.locator('.dock .guide .next').tap();
        expect(await control.getAttribute('aria-label')).toMatch(new RegExp(`^${f.label}`));
        await narrow(`${f.label} in hand`);
      }
      await page.locator('.field-sheet .sheet-done').tap();
      await narrow('the sheet closed');
      await page.locator('.dock .guide .next').tap();
      await narrow('the file to attach in hand');
      await page.locator('.field.k-inp').first().tap();
      await narrow('the refused field in the sheet again');
      // A tap elsewhere on the page takes the focus from the control, the sheet stays open; then
      // Finish, with the value still refused: the summary, and the field in the sheet.
      await page.locator('#doc-title').tap();
      await narrow('the focus elsewhere');
      await page.locator('#finish-button').tap();
      await page.locator('#finish-summary li').first().waitFor();
      await narrow('finish refused');
      // The summary names the field by the sender's label, isolated from the sentence around it.
      expect(await page.locator('#finish-summary li button bdi').first().textContent()).toBe('Code');
      await shot(page, `phone-width-${language}-finish-refused.png`);
      await control.fill('12-AB');
      await control.dispatchEvent('change');
      await narrow('the value corrected');
      // The signer's text keeps its own direction on a right-to-left page too: 12-AB, not AB-12;
      // the sender's label in the sheet's title is isolated from the mark after it.
      expect(await control.getAttribute('dir')).toBe('auto');
      expect(await control.evaluate((e: { matches(s: string): boolean }) => e.matches(':dir(ltr)'))).toBe(
        true,
      );
      expect(await page.locator('.sheet-title bdi').textContent()).toBe('Code');
      await page.locator('#finish-button').tap();
      await page.locator('#consent-error:not(:empty)').waitFor();
      await narrow('consent missing');
      await page.locator('label[for=consent]').tap();
      await page.locator('#finish-button').tap();
      await page.locator('.card.message.ok').waitFor();
      await narrow('finished');
      expect(seen.length).toBe(inSheet.length + 11);
      expect(problems).toEqual([]);
      await close();
    }
  }, 240_000);

  it('lets the signer pinch-zoom the page, and keeps the guide whole at the bottom of what they see', async () => {
    const { page, problems, close } = await openOnPhone('Volunteer agreement, zoomed', FIELDS.slice(0, 2));
    const viewport = await page.locator('meta[name=viewport]').getAttribute('content');
    expect(viewport).not.toMatch(/user-scalable\s*=\s*(no|0)|maximum-scale/);
    await page.locator('.dock').getByRole('button', { name: 'Start' }).tap();
    await expectUsable(page, 'Full name');
    // The page scale a pinch sets; the browser keeps it within what the page's viewport allows.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setPageScaleFactor', { pageScaleFactor: 2.5 });
    await eventually(
      async () => (await page.evaluate<number>('visualViewport.scale')) > 2,
      5_000,
      'the page to zoom',
    );
    await page.evaluate('window.scrollBy(0, 200)');
    await frames(page);
    await frames(page);
    const seen = await page.evaluate<{ vv: TBox; dock: TBox; next: TBox }>(`(() => {
      const box = (r) => ({ top: r.top, bottom: r.bottom, left: r.left, right: r.right });
      const vv = visualViewport;
      return {
        vv: { top: vv.offsetTop, bottom: vv.offsetTop + vv.height, left: vv.offsetLeft, right: vv.offsetLeft + vv.width },
        dock: box(document.getElementById('dock').getBoundingClientRect()),
        next: box(document.querySelector('.dock .guide .next').getBoundingClientRect()),
      };
    })()`);
    const at = JSON.stringify(seen);
    // The dock spans what the signer sees, at its bottom, at its usual size on the screen.
    expect(Math.abs(seen.dock.bottom - seen.vv.bottom), at).toBeLessThan(1);
    expect(Math.abs(seen.dock.left - seen.vv.left), at).toBeLessThan(1);
    expect(Math.abs(seen.dock.right - seen.vv.right), at).toBeLessThan(1);
    expect(seen.next.top, at).toBeGreaterThanOrEqual(seen.vv.top);
    await shot(page, 'phone-sheet-6-pinch-zoomed.png');
    await cdp.send('Emulation.setPageScaleFactor', { pageScaleFactor: 1 });
    expect(problems).toEqual([]);
    await close();
  }, 60_000);
});
