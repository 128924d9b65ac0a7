// The console's Manage screens in headless Chromium, each a client of /api/v2 with the session
// cookie: a person added with the keyboard alone is found by the API; a webhook added in the
// console to a local receiver lists the delivery of an event the API fired, and sends it again;
// a PDF uploaded as a document template reaches its preparation page's link, and an envelope
// template made from document templates gets its portal link. Every screen: no axe violation,
// and no sideways scrolling at 390 px.
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_EMAIL } from '#infra/local/demo-account';
import { dataPaths } from '#infra/local/layout';
import { listMailbox } from '#infra/local/mailbox/store';
import { createAccountStore } from '#shared/adapters/dynamodb/account-store';
import type { TLanguage } from '#shared/i18n/languages';
import { expectAccessible } from '../helpers/axe';
import { runBrowser, shot, watchProblems } from '../helpers/browser';
import { browserSuite } from '../helpers/browser-suite';
import { consoleWord as say } from '../helpers/console-words';
import { eventually, startReceiver, type TReceiver } from '../helpers/receiver';
import { seedTeamAccount } from '../helpers/teams';

const suite = browserSuite();
let receiver: TReceiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.stop();
});
const seen = new Set<string>();

/** The newest sign-in link mailed to `email` that this file has not used yet. */
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

/** A browser signed in by link (the demo account's admin unless told), on the bundle list. */
async function signedIn(
  opts: { width?: number; email?: string; lang?: TLanguage } = {},
): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const { width = 1200, email = DEMO_EMAIL, lang = 'en' } = opts;
  const context = await suite.browser.newContext({ locale: lang, viewport: { width, height: 800 } });
  const page = await context.newPage();
  const problems = watchProblems(page, { responses: true });
  await page.goto(`${suite.runtime.baseUrl}/console/`);
  await page.getByLabel(say('signIn.email', lang)).fill(email);
  await page.getByRole('button', { name: say('signIn.submit', lang) }).click();
  await page.getByRole('heading', { name: say('signIn.sentHeading', lang) }).waitFor();
  await page.goto(await mailedLink(email));
  await page.getByRole('heading', { level: 1, name: say('bundles.heading', lang) }).waitFor();
  return { context, page, problems };
}

const menu = (page: Page, word: string, lang: TLanguage = 'en') =>
  page.getByRole('navigation', { name: say('shell.nav', lang) }).getByRole('link', { name: say(word, lang) });

/** Whether the page scrolls sideways (wider than the window). */
const scrollsSideways = (page: Page) =>
  page.evaluate<boolean>('document.documentElement.scrollWidth > document.documentElement.clientWidth');

/** The page's errors and failed answers, but the sign-in screen's 401 that says it is signed out. */
const unexpected = (problems: string[]) => problems.filter((p) => !/\/console\/api\/session$/.test(p));

describe.runIf(runBrowser)('the console Manage screens', () => {
  it('adds a person with the keyboard alone, and the API finds them', async () => {
    const { context, page, problems } = await signedIn({ width: 390 });
    await menu(page, 'persons.menu').click();
    await page.getByRole('heading', { level: 1, name: say('persons.heading') }).waitFor();
    await expectAccessible(page, 'the person list at 390 px');
    expect(await scrollsSideways(page)).toBe(false);

    // From the top of the page, Tab until the link to add a person has the focus.
    const focused = () => page.evaluate<string>('document.activeElement?.textContent ?? ""');
    for (let i = 0; i < 40 && (await focused()) !== say('persons.add'); i++) await page.keyboard.press('Tab');
    expect(await focused()).toBe(say('persons.add'));
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: say('persons.addHeading') }).waitFor();
    await page.getByLabel(say('persons.name')).focus();
    await page.keyboard.type('Kim Keyboard');
    await page.keyboard.press('Tab');
    await page.keyboard.type('kim.keyboard@example.com');
    await page.keyboard.press('Tab');
    await page.keyboard.type('+44 7700 900123');
    await expectAccessible(page, 'the person form');
    await shot(page, 'console-manage-person-form.png');
    expect(await scrollsSideways(page)).toBe(false);
    await page.getByLabel(say('persons.name')).press('Enter');

    await page.getByRole('link', { name: 'Kim Keyboard' }).waitFor();
    await expectAccessible(page, 'the person list');
    const found = await suite.call('GET', '/persons/?search=kim.keyboard');
    expect(found.status).toBe(200);
    expect(found.body).toHaveLength(1);
    expect(found.body[0]).toMatchObject({ name: 'Kim Keyboard' });
    expect(found.body[0].channels.map((c: { email: string; phone: string }) => c.email || c.phone)).toEqual([
      'kim.keyboard@example.com',
      '+44 7700 900123',
    ]);

    // Edited: a second address kept with the first's channel id; then deleted after a second question.
    await page.getByRole('link', { name: 'Kim Keyboard' }).click();
    await page.getByRole('heading', { level: 1, name: say('persons.editHeading') }).waitFor();
    await page.getByLabel(say('persons.emails')).fill('kim.keyboard@example.com\nkim@home.example');
    await page.getByRole('button', { name: say('manage.save') }).click();
    await page.getByRole('heading', { level: 1, name: say('persons.heading') }).waitFor();
    const edited = (await suite.call('GET', `/persons/${found.body[0].id}/`)).body;
    expect(edited.channels.map((c: { email: string }) => c.email)).toEqual([
      'kim.keyboard@example.com',
      'kim@home.example',
      '',
    ]);
    expect(edited.channels[0].id).toBe(found.body[0].channels[0].id);
    await page.getByRole('link', { name: 'Kim Keyboard' }).click();
    await page.getByRole('button', { name: say('manage.delete') }).click();
    await page.getByRole('button', { name: say('manage.confirmDelete') }).click();
    // Back on the list, loaded (the account's other persons, or none), without Kim.
    await page
      .locator(`ul.cards, p:text-is("${say('persons.empty')}")`)
      .first()
      .waitFor();
    expect(await page.getByRole('link', { name: 'Kim Keyboard' }).count()).toBe(0);
    expect((await suite.call('GET', `/persons/${found.body[0].id}/`)).status).toBe(404);
    expect(unexpected(problems)).toEqual([]);
    await context.close();
  }, 60_000);

  it('adds a webhook, lists the delivery of an event and sends it again', async () => {
    const { context, page, problems } = await signedIn();
    await menu(page, 'webhooks.menu').click();
    await page.getByRole('heading', { level: 1, name: say('webhooks.heading') }).waitFor();
    await page.getByRole('button', { name: say('webhooks.showSecret') }).click();
    const secret = await suite.call('GET', '/webhooks/secret/');
    await page.getByText(secret.body.secret, { exact: true }).waitFor();
    await expectAccessible(page, 'the webhook list with the secret');

    await page.getByRole('link', { name: say('webhooks.add') }).click();
    await page.getByLabel(say('webhooks.url')).fill(receiver.url('/console-hook'));
    await page.getByRole('checkbox', { name: 'doc_template_created' }).check();
    await expectAccessible(page, 'the new webhook form');
    await page.getByRole('button', { name: say('manage.save') }).click();
    await page.getByRole('heading', { level: 1, name: say('webhooks.editHeading') }).waitFor();
    await page.getByText(say('webhooks.noDeliveries')).waitFor();

    // An event the API fires: a document template made with the API key.
    const made = await suite.call('POST', '/templates/', {
      json: { name: 'Hooked', file_b64: suite.pdfB64 },
    });
    expect(made.status).toBe(201);
    await eventually(() => receiver.callsTo('/console-hook').length === 1, 20_000, 'the first delivery');
    const rows = page.getByRole('row').filter({ hasText: 'doc_template_created' });
    await eventually(
      async () => {
        await page.getByRole('button', { name: say('webhooks.refresh') }).click();
        return (await rows.count()) === 1;
      },
      20_000,
      'the delivery listed',
    );
    expect(
      await rows.first().getByText(say('webhooks.httpStatus', 'en').replace('{{status}}', '200')).count(),
    ).toBe(1);
    await expectAccessible(page, 'the webhook with a delivery');
    await shot(page, 'console-manage-webhook.png');
    // On a phone the deliveries table scrolls in its own region, not the page.
    await page.setViewportSize({ width: 390, height: 800 });
    expect(await scrollsSideways(page)).toBe(false);
    await page.setViewportSize({ width: 1200, height: 800 });

    await rows
      .first()
      .getByRole('button', { name: say('webhooks.redeliver') })
      .click();
    await page.getByText(say('webhooks.redeliverAsked')).waitFor();
    await eventually(() => receiver.callsTo('/console-hook').length === 2, 20_000, 'the second delivery');
    const [first, second] = receiver.callsTo('/console-hook');
    expect(JSON.parse(second!.body)).toEqual(JSON.parse(first!.body));
    await eventually(
      async () => {
        await page.getByRole('button', { name: say('webhooks.refresh') }).click();
        return (await rows.count()) === 2;
      },
      20_000,
      'both deliveries listed',
    );
    // Turned off: the API keeps it, off.
    await page.getByRole('checkbox', { name: say('webhooks.enabled') }).uncheck();
    await page.getByRole('button', { name: say('manage.save') }).click();
    await page.getByText(say('manage.saved'), { exact: true }).waitFor();
    const hookId = new URL(page.url()).pathname.split('/').pop();
    expect((await suite.call('GET', `/webhooks/${hookId}/`)).body).toMatchObject({ enabled: false });
    expect(unexpected(problems)).toEqual([]);
    await context.close();
  }, 90_000);

  it('uploads a template PDF, reaches its preparation page, and gives an envelope template a portal link', async () => {
    const { context, page, problems } = await signedIn({ width: 390 });
    await menu(page, 'templates.menu').click();
    await page.getByRole('heading', { level: 1, name: say('templates.heading') }).waitFor();
    await expectAccessible(page, 'the document template list');
    expect(await scrollsSideways(page)).toBe(false);
    await page.getByLabel(say('templates.file')).setInputFiles({
      name: 'lease.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from(suite.pdfB64, 'base64'),
    });
    await page.getByRole('button', { name: say('templates.upload') }).click();
    await page.getByRole('heading', { level: 1, name: 'lease' }).waitFor();
    const id = new URL(page.url()).pathname.split('/').pop()!;
    const stored = await suite.call('GET', `/templates/${id}/`);
    expect([stored.status, stored.body.name, stored.body.page_count]).toEqual([200, 'lease', 3]);

    await page.getByRole('button', { name: say('templates.makePrepLink') }).click();
    const open = page.getByRole('link', { name: say('templates.openPrep') });
    const href = (await open.getAttribute('href'))!;
    expect(href).toMatch(new RegExp(`^${suite.runtime.baseUrl}/prepare/`));
    expect((await fetch(href)).status).toBe(200);
    await expectAccessible(page, 'the document template page');
    await shot(page, 'console-manage-template.png');
    expect(await scrollsSideways(page)).toBe(false);

    // An envelope template from a document template that has a role, as a portal for one visitor.
    const waiver = await suite.call('POST', '/templates/', {
      json: { name: 'Waiver', file_b64: suite.pdfB64, roles: [{ key: 'visitor', label: 'Visitor' }] },
    });
    expect(waiver.status).toBe(201);
    await page.getByRole('link', { name: say('templates.envelopes') }).click();
    await page.getByLabel(say('envelopes.name')).fill('Front desk waiver');
    await page.getByRole('checkbox', { name: 'Waiver' }).check();
    await expectAccessible(page, 'the envelope template list');
    await page.getByRole('button', { name: say('envelopes.create') }).click();
    await page.getByRole('heading', { level: 1, name: 'Front desk waiver' }).waitFor();
    await page.getByText(say('envelopes.noPortalLink')).waitFor();
    await page.getByRole('checkbox', { name: say('envelopes.isPortal') }).check();
    await page.getByRole('checkbox', { name: say('envelopes.directSigning') }).check();
    await page.getByRole('button', { name: say('manage.save') }).click();
    const envelopeId = new URL(page.url()).pathname.split('/').pop()!;
    await page.getByText(`${suite.runtime.baseUrl}/portal/${envelopeId}`, { exact: true }).waitFor();
    const envelope = await suite.call('GET', `/envelope-templates/${envelopeId}/`);
    expect(envelope.body.smart_link_url).toBe(`${suite.runtime.baseUrl}/portal/${envelopeId}`);
    await expectAccessible(page, 'the envelope template page');
    await shot(page, 'console-manage-envelope.png');
    expect(await scrollsSideways(page)).toBe(false);
    expect(unexpected(problems)).toEqual([]);
    await context.close();
  }, 90_000);

  it('shows a refusal of the API as a permission problem, right to left in Arabic', async () => {
    // Teams on: a template shared by its owner is the teammate's to use, not to delete (403).
    // Envelope templates off (the operator's choice): their list says so rather than failing.
    const team = await seedTeamAccount(suite.runtime, 'Teams Co', 'teams-manage.example');
    await createAccountStore(suite.runtime.db, suite.runtime.config.tableName).setFeatures(
      team.account.accountId,
      { teams: true, envelope_templates: false },
    );
    const shared = await suite.call('POST', '/templates/', {
      key: team.keys.owner,
      json: { name: 'Offer letter', is_shared: true, file_b64: suite.pdfB64 },
    });
    expect(shared.status).toBe(201);

    const ar: TLanguage = 'ar';
    const { context, page, problems } = await signedIn({ email: 'teammate@teams-manage.example', lang: ar });
    expect(await page.evaluate<string>('document.documentElement.dir')).toBe('rtl');
    await menu(page, 'templates.menu', ar).click();
    await page.getByRole('link', { name: 'Offer letter' }).click();
    await page.getByRole('heading', { level: 1, name: 'Offer letter' }).waitFor();
    await expectAccessible(page, 'a document template page in Arabic');
    await page.getByRole('button', { name: say('templates.delete', ar) }).click();
    await page.getByRole('button', { name: say('manage.confirmDelete', ar) }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: say('manage.errors.forbidden', ar) })
      .waitFor();
    expect((await suite.call('GET', `/templates/${shared.body.id}/`, { key: team.keys.owner })).status).toBe(
      200,
    );
    await expectAccessible(page, 'the refusal in Arabic');
    await shot(page, 'console-manage-refused-ar.png');
    await page.getByRole('link', { name: say('templates.envelopes', ar) }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: say('envelopes.notEnabled', ar) })
      .waitFor();
    expect(await page.getByRole('button', { name: say('envelopes.create', ar) }).count()).toBe(0);
    // The two 403s are the answers this test asked for; nothing else failed.
    const refused = (p: string) =>
      p.includes(`/templates/${shared.body.id}`) || p.includes('/envelope-templates/');
    expect(unexpected(problems).filter((p) => !refused(p))).toEqual([]);
    await context.close();
  }, 60_000);
});
