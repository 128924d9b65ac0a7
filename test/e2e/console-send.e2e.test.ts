// Sending from the console in headless Chromium: signed in by a link from the mailbox, the Send
// screen takes a real 4-page PDF through the file input (and files dropped on its drop zone, with
// a DataTransfer built in the page), two signers (one found among the account's Persons, one
// typed with the keyboard alone), and creates the draft, which the API then answers with those
// signers and that document; the draft's own address opens its editor. axe finds nothing at each
// step, and at 390 px the screen does not scroll sideways. A refused create shows the API's error
// beside the input it names and keeps everything entered. A document template's roles become
// the signers.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StandardFonts } from 'pdf-lib';
import type { Frame, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '#infra/bundling';
import { DEMO_EMAIL } from '#infra/local/demo-account';
import { dataPaths } from '#infra/local/layout';
import { listMailbox } from '#infra/local/mailbox/store';
import { createBundleStore } from '#shared/adapters/dynamodb/bundle-store';
import { expectAccessible } from '../helpers/axe';
import { ARTIFACTS, runBrowser, watchProblems } from '../helpers/browser';
import { browserSuite } from '../helpers/browser-suite';
import { consoleWord } from '../helpers/console-words';
import { aPdf } from '../helpers/pdfs';
import { eventually } from '../helpers/receiver';

const suite = browserSuite();
const say = (key: string, values: Record<string, string | number> = {}): string =>
  Object.entries(values).reduce((s, [k, v]) => s.replace(`{{${k}}}`, String(v)), consoleWord(key));

// The README's screenshots are taken by this test; they are written over only when asked, so an
// ordinary run leaves the repository as it was.
const DOCS_IMAGES = process.env.UPDATE_DOCS_IMAGES === '1' ? join(REPO_ROOT, 'docs/images') : ARTIFACTS;
const docShot = (page: Page, name: string) => page.screenshot({ path: join(DOCS_IMAGES, name) });

/** A form of the IRS's kind: four Letter pages of labelled lines. */
async function aFourPageForm(): Promise<string> {
  const pages = [1, 2, 3, 4].map((n) => ({
    size: 'Letter' as const,
    text: [
      { value: `Form 1040-X (page ${n} of 4)`, x: 50, y: 740, size: 16, font: StandardFonts.HelveticaBold },
      { value: 'Name ____________________   Taxpayer ID ____________', x: 50, y: 700, size: 11 },
      { value: 'Signature ______________________   Date __________', x: 50, y: 120, size: 11 },
    ],
  }));
  const file = join(mkdtempSync(join(tmpdir(), 'send-')), 'form-1040x.pdf');
  writeFileSync(file, await aPdf({ pages }));
  return file;
}

const seenMail = new Set<string>();
/** Signs `page` in with a link mailed to `email`, and answers once the console shows. */
async function signIn(page: Page, email: string) {
  await page.goto(`${suite.runtime.baseUrl}/console/`);
  await page.getByLabel(consoleWord('signIn.email')).fill(email);
  await page.getByRole('button', { name: consoleWord('signIn.submit') }).click();
  const link = await eventually(
    async () => {
      const mail = (await listMailbox(dataPaths(suite.runtime.dataDir).mailbox)).find(
        (m) => m.kind === 'email' && m.to.includes(email) && !seenMail.has(m.id),
      );
      if (mail?.kind !== 'email') return undefined;
      seenMail.add(mail.id);
      return /http:\/\/[^\s]+\/console\/sign-in\/[0-9A-Za-z]{43}/.exec(mail.text)?.[0];
    },
    10_000,
    `the sign-in email to ${email}`,
  );
  await page.goto(link);
  await page.getByRole('heading', { level: 1, name: consoleWord('bundles.heading') }).waitFor();
}

/** Drops files made in the page on the drop zone, as a drag from the desktop would. */
const dropFiles = (page: Page, files: { name: string; type: string; b64: string }[]) =>
  page.evaluate(`(() => {
    const data = new DataTransfer();
    for (const f of ${JSON.stringify(files)})
      data.items.add(new File([Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0))], f.name, { type: f.type }));
    const zone = document.querySelector('.drop-zone');
    for (const type of ['dragenter', 'dragover', 'drop'])
      zone.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }));
  })()`);

/** The label of the input that has the focus. */
const focusedLabel = (page: Page) =>
  page.evaluate<string>('document.activeElement?.labels?.[0]?.textContent ?? ""');

/** The text of the element that has the focus. */
const focusedText = (page: Page) => page.evaluate<string>('document.activeElement?.textContent ?? ""');

const uploadNames = (page: Page) => page.locator('.uploads .file-name bdi').allTextContents();

describe.runIf(runBrowser)('sending from the console', () => {
  it('creates a draft of an uploaded form for a saved person and a typed signer, then opens it', async () => {
    const person = await suite.call('POST', '/persons/', {
      json: { name: 'Rosa Persons', channels: [{ email: 'rosa.persons@example.com' }] },
    });
    expect(person.status, person.text).toBe(201);
    const context = await suite.browser.newContext({
      locale: 'en-US',
      viewport: { width: 1200, height: 900 },
    });
    const page = await context.newPage();
    const problems = watchProblems(page);
    await signIn(page, DEMO_EMAIL);
    await page
      .getByRole('navigation')
      .getByRole('link', { name: say('send.menu') })
      .click();
    await page.getByRole('heading', { level: 1, name: say('send.heading') }).waitFor();
    await expectAccessible(page, 'the empty Send screen');

    // The file input, then the drop zone: a cover page and a text file, which is refused.
    await page.getByLabel(say('send.files.choose')).setInputFiles(await aFourPageForm());
    await dropFiles(page, [
      { name: 'cover.pdf', type: 'application/pdf', b64: suite.pdfB64 },
      { name: 'notes.txt', type: 'text/plain', b64: Buffer.from('not a document').toString('base64') },
    ]);
    await page.getByText(say('send.files.type', { name: 'notes.txt' })).waitFor();
    expect(await uploadNames(page)).toEqual(['form-1040x.pdf', 'cover.pdf']);
    await page.getByRole('button', { name: say('send.moveUpNamed', { name: 'cover.pdf' }) }).click();
    expect(await uploadNames(page)).toEqual(['cover.pdf', 'form-1040x.pdf']);
    await page.getByRole('button', { name: say('send.removeNamed', { name: 'cover.pdf' }) }).click();
    expect(await uploadNames(page)).toEqual(['form-1040x.pdf']);
    // A form without form fields of its own: using them adds none, and the draft is made as before.
    await page.getByLabel(consoleWord('sendExtras.formFields.use')).check();
    await expectAccessible(page, 'a document chosen');

    await addSignersByKeyboard(page);
    await page.getByLabel(say('send.signers.inOrder')).check();
    await page.getByLabel(say('send.message.label')).fill('Amended return 2025');
    await expectAccessible(page, 'the filled form');
    await page.evaluate('scrollTo(0, 0)');
    await docShot(page, 'send-1-documents-and-signers.png');

    await page.getByRole('button', { name: say('send.create') }).click();
    await page.waitForURL(/\/console\/send\/[A-Za-z0-9_-]+$/);
    const id = new URL(page.url()).pathname.split('/').pop()!;
    await checkDraft(id, person.body.id as string);
    await checkEditor(page, id);
    // The one failed answer expected: the console's first question, asked signed out.
    expect(problems.filter((p) => !/\/console\/api\/session/.test(p))).toEqual([]);
    await context.close();
  }, 120_000);

  it('keeps everything entered when the API refuses, with its error beside the input it names', async () => {
    const context = await suite.browser.newContext({
      locale: 'en-US',
      viewport: { width: 390, height: 844 },
    });
    const page = await context.newPage();
    await signIn(page, DEMO_EMAIL);
    await page.goto(`${suite.runtime.baseUrl}/console/send`);
    await page.getByLabel(say('send.files.choose')).setInputFiles(await aFourPageForm());
    const signer = page.getByRole('group', { name: say('send.signers.numbered', { n: 1 }) });
    await signer.getByLabel(say('send.signers.name')).fill('Cy Wrong');
    await signer.getByLabel(say('send.signers.email')).fill('cy.wrong@');
    const before = await suite.call('GET', '/bundles/?search=Cy%20Wrong');

    await page.getByRole('button', { name: say('send.create') }).click();
    const email = signer.getByLabel(say('send.signers.email'));
    // The API's own words for packets[0].email, tied to the input it names.
    await expect.poll(() => email.getAttribute('aria-invalid')).toBe('true');
    const described = await email.getAttribute('aria-describedby');
    expect(await page.locator(`#${described}`).textContent()).toBe('Enter a valid email address.');
    await page.getByRole('alert').getByText(say('send.refused')).waitFor();
    await expectAccessible(page, 'a refused create at 390 px');
    await page.evaluate("document.getElementById('send-signers').scrollIntoView()");
    await docShot(page, 'send-2-error-beside-input.png');
    // Nothing lost, nothing made; at 390 px the page does not scroll sideways.
    expect(await uploadNames(page)).toEqual(['form-1040x.pdf']);
    expect(await signer.getByLabel(say('send.signers.name')).inputValue()).toBe('Cy Wrong');
    expect((await suite.call('GET', '/bundles/?search=Cy%20Wrong')).body).toEqual(before.body);
    expect(await page.evaluate<boolean>('document.documentElement.scrollWidth <= innerWidth')).toBe(true);

    await email.fill('cy.right@example.com');
    await page.getByRole('button', { name: say('send.create') }).click();
    await page.waitForURL(/\/console\/send\/[A-Za-z0-9_-]+$/);
    const id = new URL(page.url()).pathname.split('/').pop()!;
    const draft = await suite.call('GET', `/bundles/${id}/`);
    expect([draft.body.status, draft.body.packets[0].email]).toEqual(['dr', 'cy.right@example.com']);
    await context.close();
  }, 90_000);

  it('starts from a document template, whose roles become the signers', async () => {
    const roles = [
      { key: 'tenant', label: 'Tenant' },
      { key: 'landlord', label: 'Landlord' },
    ];
    const template = await suite.call('POST', '/templates/', {
      json: {
        name: 'Lease of flat 12B',
        file_b64: suite.pdfB64,
        roles,
        // Read-only, its value given when sending: by its label, in the screen's field values.
        fields: [
          {
            key: 'rent',
            kind: 'inp',
            label: 'Monthly rent',
            read_only: true,
            page: 1,
            x: 10,
            y: 20,
            w: 30,
            h: 4,
          },
        ],
      },
    });
    expect(template.status, template.text).toBe(201);
    const context = await suite.browser.newContext({ locale: 'en-US' });
    const page = await context.newPage();
    await signIn(page, DEMO_EMAIL);
    await page.goto(`${suite.runtime.baseUrl}/console/send`);
    await page.getByLabel(say('send.documents.template')).check();
    await page
      .getByLabel(say('send.documents.pickTemplate'), { exact: true })
      .selectOption({ label: 'Lease of flat 12B' });
    const role = (n: number, label: string) =>
      page.getByRole('group', {
        name: say('send.signers.numberedRole', { n, role: `\u2068${label}\u2069` }),
      });
    // Back to uploads the roles go; the template again, they return.
    await page.getByLabel(say('send.documents.upload')).check();
    expect(await role(1, 'Tenant').count()).toBe(0);
    await page.getByLabel(say('send.documents.template')).check();
    for (const [n, label, name] of [
      [1, 'Tenant', 'Tia Tenant'],
      [2, 'Landlord', 'Lou Landlord'],
    ] as const) {
      await role(n, label).getByLabel(say('send.signers.name')).fill(name);
      await role(n, label)
        .getByLabel(say('send.signers.email'))
        .fill(`${name.split(' ')[0]}@example.com`);
    }
    await page.getByRole('button', { name: say('prefill.add') }).click();
    await page.getByLabel(say('prefill.name', { n: 1 }), { exact: true }).fill('monthly rent');
    await page.getByLabel(say('prefill.value', { n: 1 }), { exact: true }).fill('1,450.00 USD');
    await expectAccessible(page, 'a document template chosen, with a field value');
    await page.getByRole('button', { name: say('send.create') }).click();
    await page.waitForURL(/\/console\/send\/[A-Za-z0-9_-]+$/);
    const draft = await suite.call('GET', `/bundles/${new URL(page.url()).pathname.split('/').pop()}/`);
    expect(draft.body.status).toBe('dr');
    expect(draft.body.documents.map((d: { template_id: string }) => d.template_id)).toEqual([
      template.body.id,
    ]);
    expect(draft.body.packets.map((p: { name: string }) => p.name)).toEqual(['Tia Tenant', 'Lou Landlord']);
    const store = createBundleStore(suite.runtime.db, suite.runtime.config.tableName);
    const [lease] = await store.documents((await store.get(suite.runtime.demo.accountId, draft.body.id))!);
    expect(lease!.fields[0]).toMatchObject({ key: 'rent', initialValue: '1,450.00 USD', readOnly: true });
    await context.close();
  }, 60_000);
});

/** The signers with the keyboard alone: a saved person found by name, then one typed. */
async function addSignersByKeyboard(page: Page) {
  await page.getByLabel(say('send.persons.search')).focus();
  await page.keyboard.type('Rosa');
  const found = page.getByRole('button', { name: say('send.persons.add', { name: 'Rosa Persons' }) });
  await found.waitFor();
  await expectAccessible(page, 'a person found');
  await page.keyboard.press('Tab');
  await expect.poll(() => focusedText(page)).toBe(await found.textContent());
  await page.keyboard.press('Enter');
  const first = page.getByRole('group', { name: say('send.signers.numbered', { n: 1 }) });
  await expect
    .poll(() => first.getByLabel(say('send.signers.email')).inputValue())
    .toBe('rosa.persons@example.com');
  // Focus moves to the person's name; the add button is past their inputs and checks.
  await expect.poll(() => focusedLabel(page)).toBe(say('send.signers.name'));
  const add = say('send.signers.add');
  for (let tabs = 0; tabs < 20; tabs++) {
    if ((await focusedText(page)) === add) break;
    await page.keyboard.press('Tab');
  }
  await page.keyboard.press('Enter');
  const second = page.getByRole('group', { name: say('send.signers.numbered', { n: 2 }) });
  await expect
    .poll(() =>
      second.getByLabel(say('send.signers.name')).evaluate((e) => e.ownerDocument.activeElement === e),
    )
    .toBe(true);
  await page.keyboard.type('Bo Typed');
  await page.keyboard.press('Tab');
  await page.keyboard.type('bo.typed@example.com');
  await page.keyboard.press('Tab');
  await page.keyboard.type('+1 555 0100');
  await page.keyboard.press('Tab');
  await page.keyboard.press('ArrowDown'); // the language: English…
  await page.keyboard.press('ArrowDown'); // …then Español
  await page.keyboard.press('Tab');
  await page.keyboard.press('ArrowDown'); // the role: from Signer to Approver
  await page.keyboard.press('Tab');
  await page.keyboard.press('Space'); // a code by text message
  expect(await second.getByLabel(say('send.signers.auth_sms')).isChecked()).toBe(true);
}

/** The draft as the API answers it: the two signers in order, the one document. */
async function checkDraft(id: string, personId: string) {
  const draft = await suite.call('GET', `/bundles/${id}/`);
  expect(draft.status, draft.text).toBe(200);
  expect(draft.body).toMatchObject({ status: 'dr', label: 'Amended return 2025', in_order: true });
  expect(draft.body.documents.map((d: { name: string }) => d.name)).toEqual(['form-1040x.pdf']);
  const packets = draft.body.packets as Record<string, unknown>[];
  expect(packets.map((p) => [p.name, p.email, p.person_id])).toEqual([
    ['Rosa Persons', 'rosa.persons@example.com', personId],
    ['Bo Typed', 'bo.typed@example.com', expect.any(String)],
  ]);
  expect(packets[1]).toMatchObject({
    phone: '+1 555 0100',
    auth_sms: true,
    language: 'es',
    role: 'approver',
  });
  expect(packets[0]).not.toHaveProperty('role');
}

/**
 * The draft's address opens its editor (the preparation page behind `POST /bundles/{id}/
 * prepare_url/`) in a frame, and the console heeds what that frame tells it: "saved" is said,
 * a look-alike message from elsewhere is not heeded, "closed" goes back to the list, "sent" to the
 * bundle's page. The bundle list's Draft filter finds the draft; its address reopens it.
 */
async function checkEditor(page: Page, id: string) {
  await expectAccessible(page, "the draft's editor screen");
  const editor = await editorFrame(page);
  await docShot(page, 'send-3-editor.png');
  const tell = (where: Page | Frame, event: string) =>
    where.evaluate(
      `parent.postMessage({ source: 'esign-editor', event: '${event}', bundle_id: '${id}' }, '*')`,
    );
  await tell(editor, 'saved');
  await page
    .getByRole('status')
    .filter({ hasText: /Draft saved at/ })
    .waitFor();
  // The console's own window is not the editor: its "sent" is not heeded, the editor's "closed" is.
  await tell(page, 'sent');
  await tell(editor, 'closed');
  await page.waitForURL(/\/console\/$/);

  await findDraftInList(page, id);
  await page.goto(`${suite.runtime.baseUrl}/console/send/${id}`);
  await tell(await editorFrame(page), 'sent');
  await page.waitForURL(new RegExp(`/console/bundles/${id}$`));
}

/** The bundle list's Draft filter has the draft. */
async function findDraftInList(page: Page, id: string) {
  await page.getByLabel(consoleWord('bundles.status')).selectOption('dr');
  await page.getByRole('row').filter({ hasText: id }).waitFor();
}

/** The editor's frame once its page has loaded from a prepare_url link of this service. */
async function editorFrame(page: Page): Promise<Frame> {
  const element = page.locator('iframe.editor-frame');
  await element.waitFor();
  expect(await element.getAttribute('src')).toMatch(new RegExp(`^${suite.runtime.baseUrl}/prepare/bundle/`));
  const frame = await (await element.elementHandle())!.contentFrame();
  await frame!.waitForLoadState('load');
  return frame!;
}
