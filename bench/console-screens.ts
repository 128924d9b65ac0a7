// The console in a real Chromium: how long until a screen can be used, from the start of the
// navigation to its controls on screen (the browser's own clock, performance.now()), for a reader
// signed out (the sign-in screen) and signed in to an account of many bundles (the bundle list with
// its first page of rows). Each load is a new browser context: nothing cached, as a first visit.
import type { Browser } from 'playwright-core';
import { listMailbox } from '#infra/local/mailbox/index';
import { launchBrowser } from '../test/helpers/browser';
import { median } from './stats';

export interface TConsoleScreens {
  /** How many bundles the signed-in account holds. */
  bundles: number;
  reps: number;
  signInMs: number[];
  listMs: number[];
  /** Rows the list showed (its first page). */
  rows: number;
}

/** A console session for `email`, signed in as a person would: the link from the mailbox. */
async function sessionCookie(baseUrl: string, mailboxDir: string, email: string): Promise<string> {
  const post = (path: string, body: unknown) =>
    fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const asked = await post('/console/api/sign-in', { email });
  if (asked.status !== 202) throw new Error(`console sign-in: HTTP ${asked.status}`);
  const end = Date.now() + 30_000;
  for (;;) {
    const mail = (await listMailbox(mailboxDir)).find((m) => m.kind === 'email' && m.to.includes(email));
    const token = mail && /\/console\/sign-in\/([A-Za-z0-9]+)/.exec(JSON.stringify(mail))?.[1];
    if (token) {
      const opened = await post('/console/api/sessions', { token });
      const cookie = /esign_session=([^;]+)/.exec(opened.headers.get('set-cookie') ?? '')?.[1];
      if (opened.status !== 201 || !cookie) throw new Error(`console session: HTTP ${opened.status}`);
      return cookie;
    }
    if (Date.now() > end) throw new Error(`console sign-in: no link mailed to ${email}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Loads `path` in a fresh context and answers when `ready` is on screen, by the page's clock. */
async function timeToScreen(
  browser: Browser,
  url: string,
  ready: string,
  cookie?: { name: string; value: string },
): Promise<{ ms: number; count: number }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    // As the service sets it: for the whole origin (Path=/), so /api/v2 gets it too.
    if (cookie) await context.addCookies([{ ...cookie, domain: new URL(url).hostname, path: '/' }]);
    const page = await context.newPage();
    await page.goto(url);
    await page.waitForSelector(ready, { state: 'visible', timeout: 60_000 });
    const ms = await page.evaluate<number>('performance.now()');
    return { ms, count: await page.locator(ready).count() };
  } finally {
    await context.close();
  }
}

export async function benchConsoleScreens(opts: {
  baseUrl: string;
  mailboxDir: string;
  email: string;
  bundles: number;
  reps?: number;
}): Promise<TConsoleScreens> {
  const reps = opts.reps ?? 5;
  const value = await sessionCookie(opts.baseUrl, opts.mailboxDir, opts.email);
  const browser = await launchBrowser();
  const url = `${opts.baseUrl}/console/`;
  const signInMs: number[] = [];
  const listMs: number[] = [];
  let rows = 0;
  try {
    // One unmeasured load of each: the local runtime builds the console on its first request.
    await timeToScreen(browser, url, 'input[type="email"]');
    for (let i = 0; i < reps; i++) {
      signInMs.push((await timeToScreen(browser, url, 'input[type="email"]')).ms);
      const list = await timeToScreen(browser, url, 'tbody tr', { name: 'esign_session', value });
      listMs.push(list.ms);
      rows = list.count;
    }
  } finally {
    await browser.close();
  }
  return { bundles: opts.bundles, reps, signInMs, listMs, rows };
}

export const consoleScreensJson = (f: TConsoleScreens) => ({
  bundles: f.bundles,
  reps: f.reps,
  rows: f.rows,
  signInScreenMedianMs: Math.round(median(f.signInMs)),
  bundleListMedianMs: Math.round(median(f.listMs)),
});
