// A bundle's page in the console, in headless Chromium against the local runtime: opened from the
// list, a reminder sent with the keyboard alone (the mailbox receives it, the history shows it
// without a reload), a signer signing through the signer API shows without a reload, the bundle
// cancelled through the confirm dialog; a complete bundle's files downloaded from their links; its
// label changed and a signer's part handed over;
// Arabic, right to left, at 390 px: no sideways scroll, no axe violation; another account's id
// answers "not found".
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_EMAIL } from '#infra/local/demo-account';
import { dataPaths } from '#infra/local/layout';
import { listMailbox } from '#infra/local/mailbox/store';
import type { TLanguage } from '#shared/i18n/languages';
import { axeViolations, describeViolations } from '../helpers/axe';
import { runBrowser, shot, watchProblems } from '../helpers/browser';
import { browserSuite } from '../helpers/browser-suite';
import { docsReady, signWithToken } from '../helpers/completed-bundle';
import { consoleWord } from '../helpers/console-words';
import { textOf } from '../helpers/poppler';
import { eventually } from '../helpers/receiver';
import { apiClient } from '../helpers/runtime';
import { embedToken, signerClient } from '../helpers/signer';

const suite = browserSuite();
const seen = new Set<string>();
const mailbox = () => listMailbox(dataPaths(suite.runtime.dataDir).mailbox);

/** The newest mail to `email` matching `link` that this file has not read yet: the link. */
const mailedLink = (email: string, link: RegExp, what: string) =>
  eventually(
    async () => {
      const mail = (await mailbox()).find(
        (m) => m.kind === 'email' && m.to.includes(email) && !seen.has(m.id) && link.test(m.text),
      );
      if (mail?.kind !== 'email') return undefined;
      seen.add(mail.id);
      return link.exec(mail.text)![0];
    },
    20_000,
    what,
  );

/** Marks every mail there is now as read, so the next one found is newer. */
const readAll = async () => {
  for (const m of await mailbox()) seen.add(m.id);
};

/** A fresh browser signed in to the console by a link from the mailbox, in `lang`, `width` wide. */
async function signedIn(browser: Browser, lang: TLanguage = 'en', width = 1200) {
  const context = await browser.newContext({ locale: lang, viewport: { width, height: 844 } });
  const page = await context.newPage();
  const problems = watchProblems(page, { responses: true });
  await page.goto(`${suite.runtime.baseUrl}/console/`);
  await page.getByLabel(consoleWord('signIn.email', lang)).fill(DEMO_EMAIL);
  await page.getByRole('button', { name: consoleWord('signIn.submit', lang) }).click();
  await page.getByRole('heading', { name: consoleWord('signIn.sentHeading', lang) }).waitFor();
  const link = new RegExp(`${suite.runtime.baseUrl}/console/sign-in/[0-9A-Za-z]{43}`);
  await page.goto(await mailedLink(DEMO_EMAIL, link, 'the sign-in email'));
  await page.getByRole('heading', { level: 1, name: consoleWord('bundles.heading', lang) }).waitFor();
  // Signed out at first, the page's session call answered 401: that is how it learnt it.
  problems.splice(0, problems.length, ...problems.filter((p) => !/\/console\/api\/session$/.test(p)));
  return { context, page, problems };
}

/** Presses Tab until the focused element is the one named, as a keyboard user reaches it. */
async function tabTo(page: Page, name: string) {
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate<string>("document.activeElement?.textContent?.trim() ?? ''");
    if (focused === name) return;
  }
  throw new Error(`Tab never reached "${name}"`);
}

const noSidewaysScroll = (page: Page) =>
  page.evaluate<boolean>('document.documentElement.scrollWidth <= document.documentElement.clientWidth');

const signing = { kind: 'sig', page: 1, w: 30, h: 5 };
const say = (key: string, values?: Record<string, string>) =>
  Object.entries(values ?? {}).reduce((s, [k, v]) => s.replace(`{{${k}}}`, v), consoleWord(key));

/** The page's live region says `words`. */
const statusSays = (page: Page, words: string) =>
  page.getByRole('status').filter({ hasText: words }).waitFor();

/** The history shows an event of `code` with who acted. */
const historyShows = (page: Page, code: string, who: string) =>
  page
    .getByRole('region', { name: say('bundle.timeline.heading') })
    .getByRole('listitem')
    .filter({ hasText: consoleWord(`bundle.events.${code}`) })
    .filter({ hasText: who })
    .waitFor();

/** Cancels from the keyboard through the confirm dialog, which takes the focus and has no axe violation. */
async function cancelByKeyboard(page: Page) {
  await tabTo(page, say('bundle.cancel.button'));
  await page.keyboard.press('Enter');
  await page.getByRole('dialog', { name: say('bundle.cancel.title') }).waitFor();
  expect(describeViolations(await axeViolations(page))).toEqual([]);
  expect(await page.evaluate<string>('document.activeElement?.textContent')).toBe(
    say('bundle.cancel.confirm'),
  );
  await page.keyboard.press('Enter');
  await statusSays(page, say('bundle.cancel.done'));
  await page.locator('.bundle-head .status', { hasText: consoleWord('status.ca') }).waitFor();
}

describe.runIf(runBrowser)("a bundle's page in the console", () => {
  it('reminds, shows a signature and the history without a reload, and cancels, by keyboard', async () => {
    const ann = 'ann.page@example.com';
    const bob = 'bob.page@example.com';
    const bundle = await suite.sentBundle({
      label: 'Harbour lease',
      packets: [
        { key: 'ann', name: 'Ann Page', email: ann },
        { key: 'bob', name: 'Bob Page', email: bob },
      ],
      document: 'lease',
      fields: [
        { ...signing, key: 'ann-sig', x: 10, y: 60, editors: ['ann'] },
        { ...signing, key: 'bob-sig', x: 10, y: 75, editors: ['bob'] },
      ],
    });
    const bobLink = await suite.inbox.emailedLink(bob);
    const { context, page, problems } = await signedIn(suite.browser);
    await page
      .getByRole('row')
      .filter({ hasText: bundle.id })
      .getByRole('link', { name: 'Harbour lease' })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Harbour lease' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/console/bundles/${bundle.id}`);
    await page.evaluate('window.stillThisPage = true');
    const bobCard = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: 'Bob Page' }) });

    // Ann is reminded from the keyboard: the mail goes out with a link, the history says so.
    await readAll();
    await tabTo(page, say('bundle.remind.button', { name: 'Ann Page' }));
    await page.keyboard.press('Enter');
    await statusSays(page, say('bundle.remind.done', { name: 'Ann Page' }));
    expect(await mailedLink(ann, /\/sign\/[0-9A-Za-z]{43}/, 'the reminder')).toBeTruthy();
    await historyShows(page, 'rm', say('bundle.actor.you'));

    // Bob signs elsewhere; the open page shows it by itself.
    const token = new URL(bobLink).pathname.split('/').pop()!;
    await signWithToken(signerClient(suite.runtime), token, 'lease', ['bob-sig']);
    await bobCard.locator('.status', { hasText: say('bundle.packetStatus.co') }).waitFor({ timeout: 20_000 });
    await historyShows(page, 'pc', say('bundle.actor.named', { name: 'Bob Page' }));
    expect(describeViolations(await axeViolations(page))).toEqual([]);
    await shot(page, 'console-bundle-page.png');

    await cancelByKeyboard(page);
    expect(await page.getByRole('button').filter({ hasText: 'Ann Page' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: say('bundle.cancel.button') }).count()).toBe(0);

    // The API says who cancelled: the console's user, by name.
    const events = (await suite.call('GET', `/bundles/${bundle.id}/events/?include_actor=true`)).body;
    expect(events.find((e: { kind: string }) => e.kind === 'ca').actor).toMatchObject({
      type: 'user',
      name: 'Demo Account Admin',
    });
    expect(await page.evaluate<boolean>('window.stillThisPage === true')).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);

  it("downloads a complete bundle's signed document and the signer's certificate", async () => {
    const bundle = await suite.sentBundle({
      label: 'Signed boat lease',
      packets: [{ key: 'cy', name: 'Cy Done', email: 'cy.done@example.com', deliver_via: 'embed' }],
      document: 'lease',
      fields: [{ ...signing, key: 'sig', x: 10, y: 70, editors: ['cy'] }],
    });
    await signWithToken(
      signerClient(suite.runtime),
      await embedToken(suite.call, bundle.packets[0]!.id),
      'lease',
      ['sig'],
    );
    await docsReady(suite.call, bundle.id);
    const { context, page, problems } = await signedIn(suite.browser);
    await page.goto(`${suite.runtime.baseUrl}/console/bundles/${bundle.id}`);
    const downloads = page.getByRole('region', { name: say('bundle.downloads.heading') });
    const certificate = downloads.getByRole('link', {
      name: say('bundle.downloads.certificate', { name: 'Cy Done' }),
    });
    await certificate.waitFor();
    const final = downloads.getByRole('link', { name: /lease/ }).first();
    // The links are signed and work without the session: fetched as a stranger would.
    for (const [link, words] of [
      [certificate, /Certificate of Evidence/i],
      [final, /Cy Done/],
    ] as const) {
      const got = await fetch((await link.getAttribute('href'))!);
      expect(got.status).toBe(200);
      const pdf = new Uint8Array(await got.arrayBuffer());
      expect(Buffer.from(pdf.subarray(0, 5)).toString()).toBe('%PDF-');
      expect(textOf(pdf)).toMatch(words);
    }
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);

  it("renames the bundle, hands a signer's part over and gives an app signer a link", async () => {
    const bundle = await suite.sentBundle({
      label: 'Dock lease',
      packets: [
        { key: 'eve', name: 'Eve Gone', email: 'eve.gone@example.com' },
        { key: 'gus', name: 'Gus App', email: 'gus.app@example.com', deliver_via: 'embed' },
      ],
      document: 'lease',
      fields: [
        { ...signing, key: 'sig', x: 10, y: 60, editors: ['eve'] },
        { ...signing, key: 'gus-sig', x: 10, y: 75, editors: ['gus'] },
      ],
    });
    const { context, page, problems } = await signedIn(suite.browser);
    await page.goto(`${suite.runtime.baseUrl}/console/bundles/${bundle.id}`);
    await page.getByText(say('bundle.change.heading')).click();
    await page.getByLabel(say('bundle.change.label')).fill('Dock lease, renewed');
    await page.getByRole('button', { name: say('bundle.change.submit') }).click();
    await page.getByRole('heading', { level: 1, name: 'Dock lease, renewed' }).waitFor();

    await readAll();
    await page.getByRole('button', { name: say('bundle.handOver.button', { name: 'Eve Gone' }) }).click();
    const form = page.getByRole('form', { name: say('bundle.handOver.title', { name: 'Eve Gone' }) });
    await form.getByLabel(say('bundle.handOver.name')).fill('Fay New');
    await form.getByLabel(say('bundle.handOver.email')).fill('fay.new@example.com');
    await form.getByRole('button', { name: say('bundle.handOver.submit') }).click();
    await page
      .getByRole('status')
      .filter({ hasText: say('bundle.handOver.done', { name: 'Fay New' }) })
      .waitFor();
    await page.getByRole('heading', { level: 3, name: 'Fay New' }).waitFor();
    expect(await mailedLink('fay.new@example.com', /\/sign\/[0-9A-Za-z]{43}/, "Fay's link")).toBeTruthy();

    // A signer in the sender's app: a one-time link to open now, shown to copy.
    await page.getByRole('button', { name: say('bundle.link.button', { name: 'Gus App' }) }).click();
    const link = await page.getByLabel(say('bundle.link.label')).inputValue();
    expect(link).toMatch(new RegExp(`^${suite.runtime.baseUrl}/sign/[0-9A-Za-z]{43}$`));
    const opened = await signerClient(suite.runtime)('POST', '/session', undefined, {
      token: link.split('/').pop(),
    });
    expect(opened.status).toBe(201);
    const got = (await suite.call('GET', `/bundles/${bundle.id}/`)).body;

    // A draft continues on the Send screen.
    const draft = await suite.call('POST', '/bundles/', {
      json: {
        label: 'Draft lease',
        status: 'dr',
        packets: [{ key: 'hal', name: 'Hal Draft', email: 'hal.draft@example.com' }],
        documents: [
          { key: 'lease', file_b64: suite.pdfB64, fields: [{ ...signing, x: 10, y: 70, editors: ['hal'] }] },
        ],
      },
    });
    await page.goto(`${suite.runtime.baseUrl}/console/bundles/${draft.body.id}`);
    const editing = page.getByRole('link', { name: say('bundle.continueEditing') });
    expect(await editing.getAttribute('href')).toBe(`/console/send/${draft.body.id}`);
    const eve = got.packets.find((p: { name: string }) => p.name !== 'Gus App');
    expect([got.label, eve.name, eve.email]).toEqual([
      'Dock lease, renewed',
      'Fay New',
      'fay.new@example.com',
    ]);
    expect(problems).toEqual([]);
    await context.close();
  }, 90_000);

  it('reads right to left in Arabic at 390 px, without sideways scroll or axe violations', async () => {
    await suite.sentBundle({
      label: 'عقد إيجار المرفأ',
      packets: [
        {
          key: 'dina',
          name: 'دينا سالم',
          email: 'dina.rtl@example.com',
          auth_sms: true,
          phone: '+15550104000',
        },
      ],
      document: 'lease',
      fields: [{ ...signing, key: 'sig', x: 10, y: 70, editors: ['dina'] }],
    });
    const other = await suite.runtime.seedAccount('Other Co', 'olga@other.example');
    const theirs = await apiClient(suite.runtime, other.apiKey)('POST', '/bundles/', {
      json: {
        label: 'Not yours',
        packets: [{ key: 'xena', name: 'Xena', email: 'xena@other.example' }],
        documents: [
          { key: 'deed', file_b64: suite.pdfB64, fields: [{ ...signing, x: 10, y: 70, editors: ['xena'] }] },
        ],
      },
    });
    expect(theirs.status, theirs.text).toBe(201);

    const { context, page, problems } = await signedIn(suite.browser, 'ar', 390);
    expect(await page.evaluate<string>('document.documentElement.dir')).toBe('rtl');
    const card = page.getByRole('listitem').filter({ hasText: 'عقد إيجار المرفأ' });
    await card.waitFor();
    expect(await page.getByRole('table').isVisible()).toBe(false);
    expect(await noSidewaysScroll(page)).toBe(true);
    await shot(page, 'console-bundle-list-ar-390.png');
    await card.getByRole('link', { name: 'عقد إيجار المرفأ' }).click();
    await page.getByRole('heading', { level: 1, name: 'عقد إيجار المرفأ' }).waitFor();
    await page
      .getByRole('button', {
        name: consoleWord('bundle.remind.button', 'ar').replace('{{name}}', 'دينا سالم'),
      })
      .waitFor();
    expect(await noSidewaysScroll(page)).toBe(true);
    expect(describeViolations(await axeViolations(page))).toEqual([]);
    await shot(page, 'console-bundle-page-ar-390.png');

    // Another account's bundle: the API answers 404, the page says there is no such bundle.
    await page.goto(`${suite.runtime.baseUrl}/console/bundles/${theirs.body.id}`);
    await page
      .getByRole('heading', { level: 1, name: consoleWord('bundle.notFound.heading', 'ar') })
      .waitFor();
    expect(await page.getByText('Not yours').count()).toBe(0);
    expect(problems.filter((p) => !p.includes(`/bundles/${theirs.body.id}/`))).toEqual([]);
    expect(problems.some((p) => p.includes('404'))).toBe(true);
    await context.close();
  }, 120_000);
});
