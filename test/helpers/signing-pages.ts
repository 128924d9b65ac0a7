// What the browser tests of the signing pages share: the links and codes the local outbox holds
// (as a signer would get them by email and SMS), and a fresh browser context for one signer, on a
// desktop or on a phone.
import type { Browser, BrowserContext } from 'playwright-core';
import { dataPaths } from '#infra/local/layout';
import { listMailbox } from '#infra/local/mailbox/store';
import type { TRuntime } from '#infra/local/runtime';
import { watchProblems } from './browser';
import { eventually } from './receiver';

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/** The outbox of a runtime, read as a signer's inbox and phone. */
export function signerInbox(runtime: TRuntime) {
  const link = () => new RegExp(`${runtime.baseUrl}/sign/[0-9A-Za-z]{43}`);
  const outbox = () => listMailbox(dataPaths(runtime.dataDir).mailbox);
  return {
    /** The ids of every message sent so far: a later code is one not among them. */
    seen: async () => new Set((await outbox()).map((m) => m.id)),
    /** The signing link emailed to `email`. */
    emailedLink: (email: string) =>
      eventually(
        async () => {
          const mail = (await outbox()).find(
            (m) => m.kind === 'email' && m.to.includes(email) && link().test(m.text),
          );
          return mail ? link().exec(mail.text)![0] : undefined;
        },
        30_000,
        `the signing email to ${email}`,
      ),
    /** The code in the newest text to a phone ending in `digits`, not one of `seen`. */
    textedCode: (digits: string, seen: Set<string>) =>
      eventually(
        async () => {
          const sms = (await outbox()).find(
            (m) => m.kind === 'sms' && m.phone.replace(/\D/g, '').endsWith(digits) && !seen.has(m.id),
          );
          return sms ? /\b(\d{6})\b/.exec(sms.text)?.[1] : undefined;
        },
        20_000,
        'the SMS code',
      ),
  };
}

/** A new context and page for one signer, in English, with what goes wrong on it recorded. */
export async function signerPage(
  browser: Browser,
  opts: { viewport?: { width: number; height: number }; mobile?: boolean } = {},
) {
  const context: BrowserContext = await browser.newContext({
    viewport: opts.viewport ?? DESKTOP,
    deviceScaleFactor: opts.mobile ? 2 : 1,
    isMobile: !!opts.mobile,
    hasTouch: !!opts.mobile,
    locale: 'en-US',
    permissions: ['camera'],
  });
  const page = await context.newPage();
  return { context, page, problems: watchProblems(page) };
}

/**
 * A signing URL opened on a phone (touch, twice the pixels, `viewport` PHONE unless told), once the
 * page shows `heading` and has drawn its first page. `stepTimeout` makes a step that does not
 * happen fail with what was awaited, well within the test's own time.
 */
export async function phonePage(
  browser: Browser,
  url: string,
  heading: string,
  opts: { viewport?: { width: number; height: number }; stepTimeout?: number } = {},
) {
  const context = await browser.newContext({
    viewport: opts.viewport ?? PHONE,
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: 'en-US',
    // Scrolling to a field is instant, so a test can scroll the page itself right after.
    reducedMotion: 'reduce',
  });
  const page = await context.newPage();
  if (opts.stepTimeout) page.setDefaultTimeout(opts.stepTimeout);
  const problems = watchProblems(page);
  await page.goto(url);
  await page.getByRole('heading', { name: heading }).waitFor();
  await page.locator('.page.rendered').first().waitFor();
  return { page, problems, close: () => context.close() };
}
