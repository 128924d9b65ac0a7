// The console's settings screens in headless Chromium: an API key made in the console lists
// bundles with curl at once and answers 401 once revoked; the account's language changed
// by its admin; a brand made with an uploaded logo and shown as the signing page draws it; and
// each screen used from the keyboard, with 0 axe violations, at 390 px and right to left.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_EMAIL } from '#infra/local/demo-account';
import { dataPaths } from '#infra/local/layout';
import { listMailbox } from '#infra/local/mailbox/store';
import { axeViolations, describeViolations } from '../helpers/axe';
import { runBrowser, shot, watchProblems } from '../helpers/browser';
import { browserSuite } from '../helpers/browser-suite';
import { consoleWord } from '../helpers/console-words';
import { aPng, darkLeftQuarter } from '../helpers/images';
import { eventually } from '../helpers/receiver';

const suite = browserSuite();
const seen = new Set<string>();
/** The bundle list asked for with the real curl binary (.ci/run installs it) and an API key. */
async function curlBundles(key: string): Promise<{ status: number; body: string }> {
  const { stdout } = await promisify(execFile)('curl', [
    '--silent',
    '--show-error',
    '--header',
    `Authorization: Token ${key}`,
    '--write-out',
    '\n%{http_code}',
    `${suite.runtime.baseUrl}/api/v2/bundles/`,
  ]);
  const at = stdout.lastIndexOf('\n');
  return { status: Number(stdout.slice(at + 1)), body: stdout.slice(0, at) };
}

const say = (key: string, lang: 'en' | 'ar' | 'he' = 'en') => consoleWord(key, lang);

/** Opens the console at `width`, signs the demo admin in by the link mailed, and lands on the list. */
async function signedIn(width = 1200) {
  const context = await suite.browser.newContext({ locale: 'en-US', viewport: { width, height: 800 } });
  const page = await context.newPage();
  const problems = watchProblems(page, { responses: true });
  await page.goto(`${suite.runtime.baseUrl}/console/`);
  await page.getByLabel(say('signIn.email')).fill(DEMO_EMAIL);
  await page.getByRole('button', { name: say('signIn.submit') }).click();
  const link = await eventually(
    async () => {
      const mail = (await listMailbox(dataPaths(suite.runtime.dataDir).mailbox)).find(
        (m) => m.kind === 'email' && m.to.includes(DEMO_EMAIL) && !seen.has(m.id),
      );
      if (mail?.kind !== 'email') return undefined;
      seen.add(mail.id);
      return /http:\/\/\S+\/console\/sign-in\/[0-9A-Za-z]{43}/.exec(mail.text)?.[0];
    },
    10_000,
    'the sign-in email',
  );
  await page.goto(link);
  await page.getByRole('heading', { level: 1, name: say('bundles.heading') }).waitFor();
  return { context, page, problems };
}

/** The page's errors and failed answers, but the first session call's 401 (not signed in yet). */
const unexpected = (problems: string[]) => problems.filter((p) => !/\/console\/api\/session$/.test(p));

/** No WCAG 2.2 AA violation, and nothing wider than the window (390 px phones scroll no page sideways). */
async function accessible(page: Page) {
  expect(describeViolations(await axeViolations(page))).toEqual([]);
  const [scroll, width] = await page.evaluate<[number, number]>(
    '[document.documentElement.scrollWidth, window.innerWidth]',
  );
  expect(scroll).toBeLessThanOrEqual(width);
}

/** Tabs forward until `name` has the focus (the keyboard alone reaches it), then presses Enter. */
async function tabTo(page: Page, name: string, key = 'Enter') {
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate<string>(
      "document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent ?? ''",
    );
    if (focused.trim() === name) return page.keyboard.press(key);
  }
  throw new Error(`"${name}" was not reached with Tab`);
}

describe.runIf(runBrowser)('the console settings', () => {
  it('makes an API key from the keyboard that lists bundles with curl at once, shown once, 401 once revoked', async () => {
    const { context, page, problems } = await signedIn();
    await tabTo(page, say('settings.menu.keys'));
    await page.getByRole('heading', { level: 1, name: say('settings.keys.heading') }).waitFor();
    await page.getByLabel(say('settings.keys.name')).focus();
    await page.keyboard.type('Nightly export');
    await page.keyboard.press('Enter');
    const made = page.getByLabel(say('settings.keys.theKey'));
    await made.waitFor();
    const key = await made.inputValue();
    expect(key.length).toBeGreaterThan(30);
    await accessible(page);
    await shot(page, 'console-settings-key.png');

    // Used at once from outside the browser, with curl.
    const listed = await curlBundles(key);
    expect(listed.status).toBe(200);
    expect(Array.isArray(JSON.parse(listed.body))).toBe(true);

    // Shown once: after a reload the page has its first characters only.
    await page.reload();
    await page.getByRole('row', { name: /Nightly export/ }).waitFor();
    expect(await page.content()).not.toContain(key);
    await tabTo(page, consoleWord('settings.keys.revokeNamed').replace('{{name}}', 'Nightly export'));
    await page.getByRole('status').filter({ hasText: 'Nightly export' }).waitFor();
    expect((await curlBundles(key)).status).toBe(401);
    expect(unexpected(problems)).toEqual([]);
    await context.close();
  }, 60_000);

  it("changes the account's language and makes a brand with an uploaded logo, shown as signers will see it", async () => {
    const { context, page, problems } = await signedIn();
    await page.getByRole('link', { name: say('settings.menu.account') }).click();
    await page.getByRole('heading', { level: 1, name: say('settings.account.heading') }).waitFor();
    await page.getByLabel(say('settings.account.language'), { exact: true }).selectOption('fr');
    await page.getByRole('button', { name: say('settings.save') }).click();
    await page
      .getByRole('status')
      .filter({ hasText: say('settings.account.saved') })
      .waitFor();
    expect((await suite.call('GET', '/account/')).body).toMatchObject({ language: 'fr' });
    await accessible(page);

    await page.getByRole('link', { name: say('settings.menu.brands') }).click();
    await page.getByRole('heading', { level: 1, name: say('settings.brands.heading') }).waitFor();
    const form = page.getByRole('form', { name: say('settings.brands.newHeading') });
    await form.getByLabel(say('settings.brands.name')).fill('Acme Legal');
    await form.getByLabel(say('settings.brands.colour')).fill('#ffd200');
    await form.getByLabel(say('settings.brands.logo')).setInputFiles({
      name: 'logo.png',
      mimeType: 'image/png',
      buffer: aPng(80, 40, darkLeftQuarter(80)),
    });
    await form.getByRole('button', { name: say('settings.brands.create') }).click();
    const card = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: 'Acme Legal' }) });
    await card.locator('.preview-logo').waitFor();
    // A yellow too light for white text: the preview's button is drawn in the readable palette.
    const [brand] = (await suite.call('GET', '/signing-brands/')).body as { palette: { on_brand: string } }[];
    expect(brand!.palette.on_brand).toBe('#111827');
    const button = card.locator('.preview-button');
    type TWindow = { getComputedStyle(el: unknown): { color: string } };
    const ink = await button.evaluate((el) => (globalThis as unknown as TWindow).getComputedStyle(el).color);
    expect(ink).toBe('rgb(17, 24, 39)');
    await accessible(page);
    await shot(page, 'console-settings-brands.png');
    expect(unexpected(problems)).toEqual([]);
    await context.close();
  }, 60_000);

  it('reads right to left in Arabic at 390 px, with no axe violation on any settings screen', async () => {
    const { context, page } = await signedIn(390);
    await page.getByLabel(say('language')).selectOption('ar');
    await page.locator('html[dir="rtl"]').waitFor();
    for (const [menu, heading] of [
      ['settings.menu.keys', 'settings.keys.heading'],
      ['settings.menu.brands', 'settings.brands.heading'],
      ['settings.menu.account', 'settings.account.heading'],
    ] as const) {
      await page.getByRole('link', { name: say(menu, 'ar') }).click();
      await page.getByRole('heading', { level: 1, name: say(heading, 'ar') }).waitFor();
      await page.getByText(say('settings.loading', 'ar')).waitFor({ state: 'detached' });
      await accessible(page);
    }
    await shot(page, 'console-settings-ar-390.png');
    await context.close();
  }, 60_000);
});
