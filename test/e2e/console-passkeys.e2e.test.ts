// Passkeys in headless Chromium with a virtual authenticator (the DevTools protocol's WebAuthn
// domain: CTAP2, resident keys, user verification): sign in by link, add a passkey on the
// passkeys screen, sign out, sign in with the passkey alone; removed, it signs in no more. The
// runtime listens on http://localhost, a secure context whose host can be WebAuthn's relying
// party (an IP address such as 127.0.0.1 cannot).
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataPaths } from '#infra/local/layout';
import { listMailbox } from '#infra/local/mailbox/store';
import type { TRuntime } from '#infra/local/runtime';
import { axeViolations, describeViolations } from '../helpers/axe';
import { fileBrowser, releaseBrowser, runBrowser, shot, watchProblems } from '../helpers/browser';
import { consoleWord } from '../helpers/console-words';
import { eventually } from '../helpers/receiver';
import { startTestRuntime } from '../helpers/runtime';

const EMAIL = 'ada@passkeys.example';
let runtime: TRuntime;
let browser: Awaited<ReturnType<typeof fileBrowser>>;
let context: BrowserContext;
let page: Page;
let cdp: CDPSession;
let authenticatorId: string;
let problems: string[];

beforeAll(async () => {
  runtime = await startTestRuntime({ host: 'localhost' });
  await runtime.seedAccount('Passkey Works', EMAIL);
  if (!runBrowser) return;
  browser = await fileBrowser();
  context = await browser.newContext({ locale: 'en-US', viewport: { width: 1200, height: 800 } });
  page = await context.newPage();
  problems = watchProblems(page, { responses: true });
  cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  ({ authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  }));
});
afterAll(async () => {
  await releaseBrowser(browser);
  await runtime?.stop();
});

const say = (key: string, values: Record<string, string> = {}) =>
  Object.entries(values).reduce((s, [k, v]) => s.replace(`{{${k}}}`, v), consoleWord(key));
const heading = (key: string) => page.getByRole('heading', { level: 1, name: say(key) });
const sessionCookie = async () => (await context.cookies()).find((c) => c.name === 'esign_session')?.value;
const credentials = async () =>
  (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials as {
    isResidentCredential: boolean;
  }[];

async function signInByLink() {
  await page.goto(`${runtime.baseUrl}/console/`);
  await page.getByLabel(say('signIn.email')).fill(EMAIL);
  await page.getByRole('button', { name: say('signIn.submit') }).click();
  await page.getByRole('heading', { name: say('signIn.sentHeading') }).waitFor();
  const link = await eventually(
    async () => {
      const mail = (await listMailbox(dataPaths(runtime.dataDir).mailbox)).find(
        (m) => m.kind === 'email' && m.to.includes(EMAIL),
      );
      return mail?.kind === 'email'
        ? /http:\/\/localhost:\d+\/console\/sign-in\/[0-9A-Za-z]{43}/.exec(mail.text)?.[0]
        : undefined;
    },
    10_000,
    'the sign-in email',
  );
  await page.goto(link);
  await heading('bundles.heading').waitFor();
}

describe.runIf(runBrowser)('passkeys in the console', () => {
  it('are added on the passkeys screen, which is accessible, fits a phone and reads right to left', async () => {
    await signInByLink();
    await page
      .getByRole('navigation')
      .getByRole('link', { name: say('passkeys.menu') })
      .click();
    await heading('passkeys.heading').waitFor();
    expect(new URL(page.url()).pathname).toBe('/console/account/passkeys');
    await page.getByText(say('passkeys.none')).waitFor();
    expect(describeViolations(await axeViolations(page))).toEqual([]);

    // Without a name the field says so and keeps the focus; with one, the device makes the passkey.
    await page.getByRole('button', { name: say('passkeys.add') }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: say('passkeys.nameMissing') })
      .waitFor();
    expect(await page.evaluate<string>('document.activeElement?.id ?? ""')).toBe('passkey-name');
    await page.getByLabel(say('passkeys.name')).fill('Chromium key');
    await page.keyboard.press('Enter');
    await page.getByText(say('passkeys.added', { name: 'Chromium key' })).waitFor();
    await page.getByRole('button', { name: say('passkeys.removeNamed', { name: 'Chromium key' }) }).waitFor();
    expect((await credentials()).map((c) => c.isResidentCredential)).toEqual([true]);
    expect(describeViolations(await axeViolations(page))).toEqual([]);

    // On a phone, in Hebrew: right to left, no sideways scrolling, still accessible.
    await page.setViewportSize({ width: 390, height: 800 });
    await page.locator('#console-language').selectOption('he');
    await page.getByRole('heading', { level: 1, name: consoleWord('passkeys.heading', 'he') }).waitFor();
    expect(await page.evaluate<string>('document.documentElement.dir')).toBe('rtl');
    await page.getByText(consoleWord('passkeys.added', 'he').replace('{{name}}', 'Chromium key')).waitFor();
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    expect(describeViolations(await axeViolations(page))).toEqual([]);
    await shot(page, 'console-passkeys-he.png');
    await page.locator('#console-language').selectOption('en');
    await page.setViewportSize({ width: 1200, height: 800 });
  });

  it('signs in with the passkey alone after signing out; removed, it signs in no more', async () => {
    const linkSession = await sessionCookie();
    await page.getByRole('button', { name: say('shell.signOut') }).click();
    await heading('signIn.heading').waitFor();
    expect(describeViolations(await axeViolations(page))).toEqual([]);
    await page.getByRole('button', { name: say('passkeySignIn.button') }).click();
    // Signed in again where the reader was: the passkeys screen, now with the passkey's last use.
    await heading('passkeys.heading').waitFor();
    await page.getByText(say('passkeys.lastUsed', { date: '' }).trim(), { exact: false }).waitFor();
    const passkeySession = await sessionCookie();
    expect(passkeySession).toMatch(/^[0-9A-Za-z]{43}$/);
    expect(passkeySession).not.toBe(linkSession);

    // A fresh page reads the new session back; removing (a DELETE) carries its CSRF token.
    await page.goto(`${runtime.baseUrl}/console/account/passkeys`);
    await page.getByRole('button', { name: say('passkeys.removeNamed', { name: 'Chromium key' }) }).click();
    await page.getByText(say('passkeys.removed', { name: 'Chromium key' })).waitFor();
    await page.getByText(say('passkeys.none')).waitFor();

    // The device still holds it, but the service no longer knows it.
    expect(await credentials()).toHaveLength(1);
    await page.getByRole('button', { name: say('shell.signOut') }).click();
    await page.getByRole('button', { name: say('passkeySignIn.button') }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: say('passkeySignIn.refused') })
      .waitFor();
    expect(await sessionCookie()).toBeUndefined();
    // Expected answers only: the signed-out session check and the removed passkey's refusal.
    expect(problems.filter((p) => !/401 .*\/console\/api\/(session|passkeys\/sign-in)$/.test(p))).toEqual([]);
  });
});
