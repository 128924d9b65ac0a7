// The console's first screens in headless Chromium: the sign-in screen in English and in Arabic
// (right to left), with no WCAG 2.2 A/AA violation (axe), used with the keyboard alone; and a
// sign-in link's page, which hands its token over by POST (a scanner that only GETs the link
// cannot use it up) and takes it out of the address bar.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { axeViolations, describeViolations } from '../helpers/axe';
import { fileBrowser, releaseBrowser, runBrowser, shot, watchProblems } from '../helpers/browser';
import { consoleWord } from '../helpers/console-words';
import { sharedTestRuntime } from '../helpers/shared-runtime';

let runtime: TRuntime;
let browser: Browser;
beforeAll(async () => {
  runtime = await sharedTestRuntime();
  if (runBrowser) browser = await fileBrowser();
});
afterAll(async () => {
  await releaseBrowser(browser);
  await runtime?.stop();
});

/** A console message as the page should show it: `say('ar', 'signIn.heading')`. */
const say = (lang: 'en' | 'ar', key: string): string => consoleWord(key, lang);
const rootOf = (page: Page) =>
  page.evaluate<{ lang: string; dir: string }>(
    '({ lang: document.documentElement.lang, dir: document.documentElement.dir })',
  );
const focused = (page: Page) =>
  page.evaluate<{ id: string; text: string }>(
    "({ id: document.activeElement?.id ?? '', text: document.activeElement?.textContent ?? '' })",
  );

async function openConsole(locale: string, path = '/console/', watch?: (page: Page) => void, width = 1024) {
  const context = await browser.newContext({ locale, viewport: { width, height: 760 } });
  const page = await context.newPage();
  const problems = watchProblems(page);
  watch?.(page);
  await page.goto(`${runtime.baseUrl}${path}`);
  return { context, page, problems };
}

describe.runIf(runBrowser)('the console’s sign-in screen', () => {
  it('is accessible, and signs in with the keyboard alone: an address, Enter, “check your email”', async () => {
    const { context, page, problems } = await openConsole('en-US');
    await page.getByRole('heading', { level: 1, name: say('en', 'signIn.heading') }).waitFor();
    expect(await rootOf(page)).toEqual({ lang: 'en', dir: 'ltr' });
    expect(describeViolations(await axeViolations(page))).toEqual([]);

    // A wrong address is said next to the field, which keeps the focus.
    for (let i = 0; i < 6 && (await focused(page)).id !== 'email'; i++) await page.keyboard.press('Tab');
    await page.keyboard.type('not an address');
    await page.keyboard.press('Enter');
    await page
      .getByRole('alert')
      .filter({ hasText: say('en', 'signIn.invalidEmail') })
      .waitFor();
    await expect.poll(async () => (await focused(page)).id).toBe('email');
    expect(describeViolations(await axeViolations(page))).toEqual([]);

    await page.keyboard.press('Control+A');
    await page.keyboard.type('ada@example.com');
    await page.keyboard.press('Enter');
    const sent = page.getByRole('heading', { name: say('en', 'signIn.sentHeading') });
    await sent.waitFor();
    await expect.poll(async () => (await focused(page)).text).toBe(say('en', 'signIn.sentHeading'));
    expect(await page.getByText('ada@example.com', { exact: false }).count()).toBe(1);
    expect(describeViolations(await axeViolations(page))).toEqual([]);
    await shot(page, 'console-sign-in-sent.png');
    // The sign-in call's own answer is not the page's problem: it says the same whatever it is.
    expect(problems.filter((p) => !p.includes('/console/api/'))).toEqual([]);
    await context.close();
  });

  it('reads right to left in Arabic, in Arabic, fits a 390 px phone, and is accessible there too', async () => {
    const { context, page, problems } = await openConsole('ar', '/console/', undefined, 390);
    await page.getByRole('heading', { level: 1, name: say('ar', 'signIn.heading') }).waitFor();
    expect(await rootOf(page)).toEqual({ lang: 'ar', dir: 'rtl' });
    expect(await page.title()).toBe(say('ar', 'title'));
    expect(await page.getByLabel(say('ar', 'signIn.email')).isVisible()).toBe(true);
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    expect(describeViolations(await axeViolations(page))).toEqual([]);
    await shot(page, 'console-sign-in-ar.png');
    expect(problems.filter((p) => !p.includes('/console/api/'))).toEqual([]);
    await context.close();
  });

  it('hands a sign-in link’s token over by POST only, then drops it from the address', async () => {
    const token = 'a'.repeat(43);
    const calls: string[] = [];
    const { context, page } = await openConsole('en-US', `/console/sign-in/${token}`, (p) =>
      p.on('request', (r) => {
        if (r.url().includes('/console/api/sessions')) calls.push(`${r.method()} ${r.postData() ?? ''}`);
      }),
    );
    await page
      .getByRole('alert')
      .filter({ hasText: say('en', 'link.invalid') })
      .waitFor();
    expect(calls).toEqual([`POST ${JSON.stringify({ token })}`]);
    expect(new URL(page.url()).pathname).toBe('/console/sign-in');
    expect(describeViolations(await axeViolations(page))).toEqual([]);
    // Its way out leads back to the sign-in screen.
    await page.getByRole('link', { name: say('en', 'link.newLink') }).click();
    await page.getByRole('heading', { level: 1, name: say('en', 'signIn.heading') }).waitFor();
    await context.close();
  });
});
