// The signing page on a phone-sized screen (390 × 844, touch), in a real headless Chromium: the
// bubbles beside a field (its error, its name) stay inside the screen wherever the field is, at
// phone widths and on a desktop, and "Next field" takes the signer to what they must fill before
// what they may fill. Screenshots go to test-artifacts/.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { runBrowser, shot } from '../helpers/browser';
import { browserSuite } from '../helpers/browser-suite';
import { phonePage } from '../helpers/signing-pages';

const suite = browserSuite({
  pdf: [
    {
      size: 'Letter',
      text: [
        { value: 'Membership form', x: 72, y: 720, size: 20 },
        { value: 'Newsletter (optional):', x: 72, y: 640, size: 11 },
        { value: 'Start date:', x: 72, y: 560, size: 11 },
        { value: 'Member number:', x: 300, y: 480, size: 11 },
      ],
    },
    { size: 'Letter', text: [{ value: 'Member number:', x: 72, y: 320, size: 11 }] },
  ],
  browserArgs: ['--disable-quic', '--disable-component-update', '--disable-sync'],
});

/** A sent bundle for one embedded signer with these fields of theirs; opened on a phone. */
async function openOnPhone(label: string, fields: Record<string, unknown>[]) {
  const sent = await suite.sentBundle({
    label,
    packets: [{ key: 'mia', name: 'Mia Chen', email: 'mia@example.com', deliver_via: 'embed' }],
    document: 'form',
    fields: fields.map((f) => ({ page: 1, h: 3.6, editors: ['mia'], ...f })),
  });
  return phonePage(suite.browser, await suite.embedUrl(sent.packets[0]!.id), label);
}

// The tests run under Node's types: code that runs in the page is given as text.
const focusedLabel = (page: Page) =>
  page.evaluate<string>("document.activeElement?.getAttribute('aria-label') ?? ''");

type TBox = { left: number; right: number; top: number; bottom: number };
type TBubble = TBox & { text: string; clipped: boolean };

/**
 * The bottom of what the signer sees of the page: the top of the dock fixed to the bottom of a
 * phone's screen (the guide, and the sheet of the field in hand), else the window's bottom.
 */
const VISIBLE_BOTTOM = `(() => {
  const dock = document.getElementById('dock');
  const fixed = dock && getComputedStyle(dock).position === 'fixed';
  return fixed ? dock.getBoundingClientRect().top : innerHeight;
})()`;

/**
 * Where a bubble (`selector`), its field and the visible screen (below the sticky top bar, above
 * the dock) are,
 * after the page has had two frames to place it; `clipped` when its text does not all show.
 */
async function measure(page: Page, selector: string) {
  await page.evaluate(
    'new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(undefined))))',
  );
  return page.evaluate<{ bubble: TBubble; field: TBox; screen: TBox }>(`(() => {
    const box = (r) => ({ left: r.left, right: r.right, top: r.top, bottom: r.bottom });
    const b = document.querySelector(${JSON.stringify(selector)});
    return {
      bubble: {
        ...box(b.getBoundingClientRect()),
        text: b.textContent,
        clipped: b.scrollWidth > b.clientWidth + 1 || b.scrollHeight > b.clientHeight + 1,
      },
      field: box(b.closest('.field').getBoundingClientRect()),
      screen: {
        left: 0,
        right: document.documentElement.clientWidth,
        top: document.getElementById('topbar').getBoundingClientRect().bottom,
        bottom: ${VISIBLE_BOTTOM},
      },
    };
  })()`);
}

/** The bubble lies wholly inside the visible screen and shows all of its text. */
function expectInView({ bubble, screen }: { bubble: TBubble; screen: TBox }, text: string) {
  const at = JSON.stringify({ bubble, screen });
  expect(bubble.text, at).toBe(text);
  expect(bubble.clipped, at).toBe(false);
  expect(bubble.left, at).toBeGreaterThanOrEqual(screen.left);
  expect(bubble.right, at).toBeLessThanOrEqual(screen.right);
  expect(bubble.top, at).toBeGreaterThanOrEqual(screen.top);
  expect(bubble.bottom, at).toBeLessThanOrEqual(screen.bottom);
}

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
    await shot(page, 'phone-8-error-at-right-edge.png');
    expect(problems).toEqual([]);
    await close();
  });

  it('wraps a long name bubble and keeps both bubbles of a field at the right edge in view, from 360 px to a desktop', async () => {
    const label = 'Member number as printed on the back of your household membership card';
    const { page, problems, close } = await openOnPhone('Membership with a long label', [
      { key: 'number', kind: 'inp', label, x: 84, y: 38, w: 14, required: true },
    ]);
    // Finishing with the field empty goes to it: its name shows above it, its error below.
    await page.getByLabel(/I agree to sign these documents electronically/).check();
    await page.getByRole('button', { name: 'Finish signing' }).click();
    await page.locator('.field.invalid .field-error').waitFor();
    for (const size of [
      { width: 360, height: 740 },
      { width: 390, height: 844 },
      { width: 430, height: 932 },
      { width: 1280, height: 800 },
    ]) {
      await page.setViewportSize(size);
      await page.locator('.field.current').scrollIntoViewIfNeeded();
      const tip = await measure(page, '.field.current .field-tip');
      expectInView(tip, `${label} *`);
      expectInView(await measure(page, '.field.invalid .field-error'), 'This field is required.');
      if (size.width === 360) {
        // The name wraps rather than being cut short.
        expect(tip.bubble.bottom - tip.bubble.top).toBeGreaterThan(30);
        await shot(page, 'phone-10-long-name-at-right-edge.png');
      }
    }
    expect(problems).toEqual([]);
    await close();
  });

  it('shows the error bubble (and the name above it) above a field at the bottom of the screen, and below it again once there is room', async () => {
    const { page, problems, close } = await openOnPhone('Membership at the bottom', [
      // On the second page: there is a whole page above it to scroll past.
      { key: 'number', kind: 'inp', label: 'Member number', page: 2, x: 10, y: 60, w: 40, required: true },
    ]);
    await page.getByLabel(/I agree to sign these documents electronically/).check();
    await page.getByRole('button', { name: 'Finish signing' }).click();
    const error = '.field.invalid .field-error';
    await page.locator(error).waitFor();
    // The signer scrolls until the field sits just above the bottom of what they see.
    await page.evaluate(`(() => {
      const f = document.querySelector('.field.invalid').getBoundingClientRect();
      scrollBy(0, f.bottom - (${VISIBLE_BOTTOM} - 6));
    })()`);
    const low = await measure(page, error);
    expect(low.field.bottom, JSON.stringify(low)).toBeLessThanOrEqual(low.screen.bottom);
    expect(low.field.bottom, JSON.stringify(low)).toBeGreaterThan(low.screen.bottom - 20);
    expectInView(low, 'This field is required.');
    expect(low.bubble.bottom, JSON.stringify(low)).toBeLessThanOrEqual(low.field.top);
    // Its name, shown above it as the field is the current one, goes above the error.
    const lowTip = await measure(page, '.field.current .field-tip');
    expectInView(lowTip, 'Member number *');
    expect(lowTip.bubble.bottom, JSON.stringify(lowTip)).toBeLessThanOrEqual(low.bubble.top);
    await shot(page, 'phone-11-error-above-at-bottom.png');
    // Back in the middle of the screen, it shows below the field as usual.
    await page.evaluate(`document.querySelector('.field.invalid').scrollIntoView({ block: 'center' })`);
    const middle = await measure(page, error);
    expectInView(middle, 'This field is required.');
    expect(middle.bubble.top).toBeGreaterThanOrEqual(middle.field.bottom);
    const middleTip = await measure(page, '.field.current .field-tip');
    expectInView(middleTip, 'Member number *');
    expect(middleTip.bubble.bottom).toBeLessThanOrEqual(middle.field.top);
    expect(problems).toEqual([]);
    await close();
  });

  it('"Next field" goes to the required fields left before the optional ones, then to finishing', async () => {
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
    await shot(page, 'phone-9-next-field-order.png');
    // Every optional field left empty was offered once: the guide now leads to finishing.
    await page.getByRole('button', { name: 'Go to finish' }).click();
    expect(await page.evaluate<string>('document.activeElement?.id ?? ""')).toBe('consent');
    expect(problems).toEqual([]);
    await close();
  });
});
