// The console's two halves together in headless Chromium: the sign-in screen asks the service for
// a link, the link from the local mailbox signs the browser in, and the bundle list is read from
// /api/v2 with the session cookie alone. A bundle made and cancelled with an API key shows and
// changes on the open list; signing out ends the cookie for /api/v2 too; a used link is refused.
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_EMAIL } from '#infra/local/demo-account';
import { dataPaths } from '#infra/local/layout';
import { listMailbox } from '#infra/local/mailbox/store';
import { axeViolations, describeViolations } from '../helpers/axe';
import { runBrowser, shot, watchProblems } from '../helpers/browser';
import { browserSuite } from '../helpers/browser-suite';
import { consoleWord } from '../helpers/console-words';
import { eventually } from '../helpers/receiver';

const suite = browserSuite();
const seen = new Set<string>();

/** A console message in English: `say('signIn.heading')`. */
const say = (key: string): string => consoleWord(key);

/** The newest sign-in link mailed to `email` that this file has not read yet. */
const mailedLink = (email: string) =>
  eventually(
    async () => {
      const mail = (await listMailbox(dataPaths(suite.runtime.dataDir).mailbox)).find(
        (m) => m.kind === 'email' && m.to.includes(email) && !seen.has(m.id),
      );
      if (mail?.kind !== 'email') return undefined;
      seen.add(mail.id);
      return new RegExp(`${suite.runtime.baseUrl}/console/sign-in/[0-9A-Za-z]{43}`).exec(mail.text)?.[0];
    },
    10_000,
    `the sign-in email to ${email}`,
  );

const heading = (page: Page, key: string) => page.getByRole('heading', { level: 1, name: say(key) });

/** The page's errors and failed answers, but the session call's 401 that says it is signed out. */
const unexpected = (problems: string[]) => problems.filter((p) => !/\/console\/api\/session$/.test(p));

/** A fresh browser on the console's sign-in screen; `problems` gathers the page's errors. */
async function openConsole(): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await suite.browser.newContext({ locale: 'en-US', viewport: { width: 1200, height: 800 } });
  const page = await context.newPage();
  const problems = watchProblems(page, { responses: true });
  await page.goto(`${suite.runtime.baseUrl}/console/`);
  await heading(page, 'signIn.heading').waitFor();
  return { context, page, problems };
}

/**
 * Asks for a link on the sign-in screen and opens it from the mailbox: the list shows after. An
 * address gets 5 links in 15 minutes, so tests past the demo user's first few bring their own.
 */
async function signInByLink(page: Page, email = DEMO_EMAIL): Promise<string> {
  await page.getByLabel(say('signIn.email')).fill(email);
  await page.getByRole('button', { name: say('signIn.submit') }).click();
  await page.getByRole('heading', { name: say('signIn.sentHeading') }).waitFor();
  const link = await mailedLink(email);
  await page.goto(link);
  await heading(page, 'bundles.heading').waitFor();
  return link;
}

/** The session cookie the browser holds, as a Cookie header. */
async function sessionCookie(context: BrowserContext): Promise<string> {
  const cookie = (await context.cookies()).find((c) => c.name === 'esign_session');
  expect(cookie).toBeDefined();
  return `esign_session=${cookie!.value}`;
}

/** Calls /api/v2 with a cookie and no API key. */
const withCookie = (cookie: string, path: string) =>
  suite.call('GET', path, { key: null, headers: { cookie } });

/** A bundle for one signer, sent with the demo account's API key. */
const aBundleFor = (name: string) =>
  suite.sentBundle({
    label: `${name}'s lease`,
    packets: [{ key: 'signer', name, email: `${name.replace(' ', '.').toLowerCase()}@example.com` }],
    document: 'lease',
    fields: [{ kind: 'sig', page: 1, x: 10, y: 70, w: 30, h: 5, editors: ['signer'] }],
  });

describe.runIf(runBrowser)('the console, signed in by link and working from /api/v2', () => {
  it('signs in with a link from the mailbox and lands on the bundle list with the account and user', async () => {
    const { context, page, problems } = await openConsole();
    const link = await signInByLink(page);
    // The token left the address bar; the list is the console's home.
    expect(new URL(page.url()).pathname).toBe('/console/');
    expect(link).toMatch(/\/console\/sign-in\/[0-9A-Za-z]{43}$/);
    const header = page.getByRole('banner');
    await header.getByText('Demo Account', { exact: true }).waitFor();
    await header.getByText('Demo Account Admin', { exact: true }).waitFor();
    // The cookie the browser keeps: HttpOnly and Lax; not Secure only on this http loopback.
    const cookie = (await context.cookies()).find((c) => c.name === 'esign_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', secure: false, path: '/' });
    expect((await withCookie(await sessionCookie(context), '/bundles/')).status).toBe(200);
    expect(unexpected(problems)).toEqual([]);
    await context.close();
  });

  it('shows a bundle sent with an API key, and its cancelling without a reload', async () => {
    const bundle = await aBundleFor('Ann Journey');
    const { context, page, problems } = await openConsole();
    await signInByLink(page);
    const row = page.getByRole('row').filter({ hasText: bundle.id });
    await row.waitFor();
    expect(await row.getByText('Ann Journey', { exact: true }).count()).toBe(1);
    const statusOf = () => row.locator('.status').textContent();
    expect([say('status.pe'), say('status.se')]).toContain(await statusOf());

    // A mark on this document: a reload would lose it.
    await page.evaluate('window.stillThisPage = true');
    const cancelled = await suite.call('PUT', `/bundles/${bundle.id}/cancel/`);
    expect([cancelled.status, cancelled.body.status]).toEqual([200, 'ca']);
    // The open list asks again by itself about every 10 s.
    await row.locator('.status', { hasText: say('status.ca') }).waitFor({ timeout: 25_000 });
    expect(await page.evaluate<boolean>('window.stillThisPage === true')).toBe(true);
    await shot(page, 'console-journey-list.png');
    expect(unexpected(problems)).toEqual([]);
    await context.close();
  }, 45_000);

  it('has no WCAG 2.2 AA violation on the signed-in bundle list', async () => {
    const bundle = await aBundleFor('Bo Axe');
    const { context, page } = await openConsole();
    await signInByLink(page);
    await page.getByRole('row').filter({ hasText: bundle.id }).waitFor();
    expect(describeViolations(await axeViolations(page))).toEqual([]);
    await context.close();
  });

  it('signs out: the sign-in screen shows again and the old cookie no longer opens /api/v2', async () => {
    const { context, page } = await openConsole();
    await signInByLink(page);
    const cookie = await sessionCookie(context);
    expect((await withCookie(cookie, '/bundles/')).status).toBe(200);

    await page.getByRole('button', { name: say('shell.signOut') }).click();
    await heading(page, 'signIn.heading').waitFor();
    expect((await context.cookies()).some((c) => c.name === 'esign_session')).toBe(false);
    const refused = await withCookie(cookie, '/bundles/');
    expect([refused.status, refused.body.code]).toEqual([401, 'not_authenticated']);
    // A reload stays signed out.
    await page.reload();
    await heading(page, 'signIn.heading').waitFor();
    await context.close();
  });

  it('signs out of a session already ended elsewhere as of any other', async () => {
    await suite.runtime.seedAccount('Elsewhere Co', 'eli@elsewhere.example');
    const { context, page } = await openConsole();
    await signInByLink(page, 'eli@elsewhere.example');
    // On a screen that asks the service nothing by itself: the bundle list asks again every few
    // seconds, and an ask landing between the two steps below would find the session ended before
    // the button does, so the button the test presses would be gone.
    await page.goto(`${suite.runtime.baseUrl}/console/account/passkeys`);
    await heading(page, 'passkeys.heading').waitFor();
    const cookie = await sessionCookie(context);
    const session = await withCookie(cookie, `${suite.runtime.baseUrl}/console/api/session`);
    const everywhere = await suite.call('POST', `${suite.runtime.baseUrl}/console/api/sign-out-everywhere`, {
      key: null,
      headers: { cookie, 'x-csrf-token': session.body.csrf_token },
    });
    expect(everywhere.status).toBe(204);

    // The service answers 401 for the ended session: the page is signed out all the same, at once,
    // rather than saying the service is out of reach until the list finds out by itself.
    await page.getByRole('button', { name: say('shell.signOut') }).click();
    await heading(page, 'signIn.heading').waitFor();
    expect(await page.getByText(say('shell.sessionEnded')).count()).toBe(0);
    await context.close();
  });

  it('says a used link is no longer valid', async () => {
    await suite.runtime.seedAccount('Used Link Co', 'uma@used-link.example');
    const first = await openConsole();
    const link = await signInByLink(first.page, 'uma@used-link.example');
    await first.context.close();

    const { context, page } = await openConsole();
    await page.goto(link);
    await page
      .getByRole('alert')
      .filter({ hasText: say('link.invalid') })
      .waitFor();
    expect(await heading(page, 'bundles.heading').count()).toBe(0);
    await context.close();
  });
});
