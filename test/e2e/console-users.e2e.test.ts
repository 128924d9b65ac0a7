// Users and teams in headless Chromium: an admin invites a user from the console, the invitation
// is opened from the local mailbox in a second browser (a phone, 390 px), which lands signed in as
// the new user; the admin removes them, and their open console falls back to the sign-in screen.
// Every screen on the way has no axe violation, and the invitation is sent with the keyboard.
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
const say = (key: string, values: Record<string, string> = {}): string =>
  Object.entries(values).reduce((s, [k, v]) => s.replaceAll(`{{${k}}}`, v), consoleWord(key));

/** The first link of `kind` (`sign-in`, `invitation`) mailed to `email`. */
const mailedLink = (email: string, kind: string) =>
  eventually(
    async () => {
      const mail = (await listMailbox(dataPaths(suite.runtime.dataDir).mailbox)).find(
        (m) => m.kind === 'email' && m.to.includes(email) && m.text.includes(`/console/${kind}/`),
      );
      if (mail?.kind !== 'email') return undefined;
      return new RegExp(`${suite.runtime.baseUrl}/console/${kind}/[0-9A-Za-z]{43}`).exec(mail.text)?.[0];
    },
    10_000,
    `the ${kind} email to ${email}`,
  );

const heading = (page: Page, key: string) => page.getByRole('heading', { level: 1, name: say(key) });
const noViolations = async (page: Page) => expect(describeViolations(await axeViolations(page))).toEqual([]);
const fitsWidth = async (page: Page, width: number) =>
  expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);

async function browserAt(
  width: number,
): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await suite.browser.newContext({ locale: 'en-US', viewport: { width, height: 800 } });
  const page = await context.newPage();
  return { context, page, problems: watchProblems(page) };
}

describe.runIf(runBrowser)('users and teams in the console', () => {
  // Two browsers, and the removed user's list asks again only every 10 s: longer than the default.
  it('invites a user who lands signed in, then removes them and their console signs out', {
    timeout: 120_000,
  }, async () => {
    const admin = await browserAt(390);
    await admin.page.goto(`${suite.runtime.baseUrl}/console/`);
    await admin.page.getByLabel(say('signIn.email')).fill(DEMO_EMAIL);
    await admin.page.getByRole('button', { name: say('signIn.submit') }).click();
    await admin.page.goto(await mailedLink(DEMO_EMAIL, 'sign-in'));
    await heading(admin.page, 'bundles.heading').waitFor();
    await admin.page.getByRole('link', { name: say('people.menu') }).click();
    await heading(admin.page, 'people.heading').waitFor();
    await noViolations(admin.page);
    await fitsWidth(admin.page, 390);

    // The invitation, typed and sent with the keyboard alone.
    await admin.page.getByLabel(say('people.name'), { exact: true }).focus();
    await admin.page.keyboard.type('Noa Newcomer');
    await admin.page.keyboard.press('Tab');
    await admin.page.keyboard.type('noa@journey.example');
    await admin.page.keyboard.press('Enter');
    await admin.page.getByText(say('people.invited', { email: 'noa@journey.example' })).waitFor();
    await admin.page
      .getByRole('button', { name: say('people.revokeLabel', { email: 'noa@journey.example' }) })
      .waitFor();
    await noViolations(admin.page);
    await shot(admin.page, 'console-users.png');

    // The invitation, opened on a phone: signed in as the new user, who is no admin.
    const invitee = await browserAt(390);
    await invitee.page.goto(await mailedLink('noa@journey.example', 'invitation'));
    await heading(invitee.page, 'bundles.heading').waitFor();
    expect(new URL(invitee.page.url()).pathname).toBe('/console/');
    await invitee.page.getByRole('banner').getByText('Noa Newcomer', { exact: true }).waitFor();
    expect(await invitee.page.getByRole('link', { name: say('people.menu') }).count()).toBe(0);

    // The admin sees them among the users and removes them, after saying yes.
    await admin.page.reload();
    const remove = admin.page.getByRole('button', {
      name: say('people.removeLabel', { name: 'Noa Newcomer' }),
    });
    await remove.click();
    await admin.page.getByRole('button', { name: say('people.confirm') }).click();
    await admin.page.getByText(say('people.removed', { name: 'Noa Newcomer' })).waitFor();
    await noViolations(admin.page);

    // The removed user's open console asks again by itself and falls back to signing in.
    await heading(invitee.page, 'signIn.heading').waitFor({ timeout: 30_000 });
    await invitee.page.getByText(say('shell.sessionEnded')).waitFor();

    // The security log says who removed whom, newest first.
    await admin.page.getByRole('link', { name: say('securityLog.menu') }).click();
    await heading(admin.page, 'securityLog.heading').waitFor();
    const first = admin.page.getByRole('row').nth(1);
    await first.getByText(say('securityLog.kinds.user_removed')).waitFor();
    expect(await first.getByText('Demo Account Admin').count()).toBe(1);
    await noViolations(admin.page);
    await fitsWidth(admin.page, 390);
    await shot(admin.page, 'console-security-log.png');

    // Signed out, the page asks for its session once and is told 401; the removed user's list, too.
    const signedOut = /\/console\/api\/session$/;
    expect(admin.problems.filter((p) => !signedOut.test(p))).toEqual([]);
    expect(invitee.problems.filter((p) => !signedOut.test(p) && !p.includes('/api/v2/bundles'))).toEqual([]);
    await admin.context.close();
    await invitee.context.close();
  });
});
