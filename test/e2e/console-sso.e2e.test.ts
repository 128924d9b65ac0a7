// Single sign-on from the console's sign-in screen in headless Chromium, through the local OIDC
// stand-in the runtime starts (as `npm start` does): the demo user opens the form with the
// keyboard, gives their work email, signs in at the provider and lands on the bundle list. An
// address whose domain has no single sign-on comes back to a message, in Arabic right to left at
// 390 px too. Every screen of the console on the way has no WCAG 2.2 A/AA violation (axe).
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_EMAIL } from '#infra/local/demo-account';
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

const focusedId = (page: Page) => page.evaluate<string>("document.activeElement?.id ?? ''");

async function openConsole(locale: string, width = 1024) {
  const context = await browser.newContext({ locale, viewport: { width, height: 760 } });
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.goto(`${runtime.baseUrl}/console/`);
  return { context, page, problems };
}

describe.runIf(runBrowser)('single sign-on from the sign-in screen', () => {
  it('signs the demo user in through the OIDC stand-in, with the keyboard, and lands on the bundle list', async () => {
    const { context, page, problems } = await openConsole('en-US');
    const say = (key: string) => consoleWord(key, 'en');
    await page.getByRole('heading', { level: 1, name: say('signIn.heading') }).waitFor();

    // Tab to the single sign-on button and open it: the focus moves to its field.
    const button = page.getByRole('button', { name: say('sso.button') });
    await button.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 2, name: say('sso.heading') }).waitFor();
    await expect.poll(() => focusedId(page)).toBe('sso-email');
    expect(describeViolations(await axeViolations(page))).toEqual([]);

    await page.keyboard.type(DEMO_EMAIL);
    await page.keyboard.press('Enter');
    // The provider's page, with the address the reader gave already filled in.
    await page.getByRole('heading', { level: 1, name: 'Local identity provider' }).waitFor();
    expect(new URL(page.url()).origin).not.toBe(new URL(runtime.baseUrl).origin);
    // The stand-in plays the organisation's page, but is ours: accessible too.
    expect(describeViolations(await axeViolations(page))).toEqual([]);
    expect(await page.getByLabel('Work email').inputValue()).toBe(DEMO_EMAIL);
    await page.getByRole('button', { name: 'Continue' }).click();

    await page.getByRole('heading', { level: 1, name: say('bundles.heading') }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/console/');
    const who = await page.evaluate<string>(
      "fetch('/console/api/session').then((r) => r.json()).then((s) => s.user.email)",
    );
    expect(who).toBe(DEMO_EMAIL);
    const cookie = (await context.cookies(runtime.baseUrl)).find((c) => c.name === 'esign_session');
    expect(cookie?.httpOnly).toBe(true);
    expect(describeViolations(await axeViolations(page))).toEqual([]);
    await shot(page, 'console-sso-signed-in.png');
    // Signed out, the console's first question (is there a session?) is answered 401, as it should.
    expect(problems.filter((p) => !/\/console\/api\/session$/.test(p))).toEqual([]);
    await context.close();
  });

  it('says in Arabic, right to left at 390 px, that an address has no single sign-on', async () => {
    const { context, page } = await openConsole('ar', 390);
    const say = (key: string) => consoleWord(key, 'ar');
    await page.getByRole('button', { name: say('sso.button') }).click();
    await page.getByLabel(say('sso.email')).fill('someone@no-sso.example');
    await page.getByRole('button', { name: say('sso.submit') }).click();
    const alert = page.getByRole('alert').filter({ hasText: say('sso.reasons.not_configured') });
    await alert.waitFor();
    // The reason is said once: the address no longer carries it.
    expect(new URL(page.url()).search).toBe('');
    expect(await page.evaluate<string>('document.documentElement.dir')).toBe('rtl');
    expect(await page.evaluate<boolean>('document.documentElement.scrollWidth <= 390')).toBe(true);
    expect(describeViolations(await axeViolations(page))).toEqual([]);
    await shot(page, 'console-sso-not-configured-ar.png');
    await context.close();
  });
});
