// A sender's whole journey in headless Chromium, through the real screens and in one go: signed
// in to the console by a link from the mailbox, the Send screen takes a four-page form of the
// IRS's kind (a W-4 look-alike with its own AcroForm fields) and two signers; in the editor framed
// by the console a signature field is dragged out for each signer (page 1 and page 4), the draft
// is saved and sent, and the console moves on to the bundle's page. The first signer signs in
// the real signing page, the second through the signer API; the bundle page, never reloaded,
// shows the bundle complete by itself and offers the final document and the certificates, which
// are downloaded and read with poppler (pdftotext, pdfsig). Then the editor on a touch tablet:
// a field placed by a tap and moved by a finger, without the page scrolling under it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import type { CDPSession, Frame, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_EMAIL } from '#infra/local/demo-account';
import { dataPaths } from '#infra/local/layout';
import { listMailbox } from '#infra/local/mailbox/store';
import { runBrowser, shot, watchProblems } from '../helpers/browser';
import { browserSuite } from '../helpers/browser-suite';
import { signWithToken } from '../helpers/completed-bundle';
import { consoleWord } from '../helpers/console-words';
import { pageTexts, pdfsig } from '../helpers/poppler';
import { eventually } from '../helpers/receiver';
import { signerClient } from '../helpers/signer';
import { signerPage } from '../helpers/signing-pages';

const suite = browserSuite();
const say = (key: string, values: Record<string, string | number> = {}): string =>
  Object.entries(values).reduce((s, [k, v]) => s.replace(`{{${k}}}`, String(v)), consoleWord(key));

const ANN = { name: 'Ann Filer', email: 'ann.filer@example.com' };
const BOB = { name: 'Bob Employer', email: 'bob.employer@example.com' };
const LABEL = 'Form W-4, 2026';

/**
 * A form of the IRS's kind, W-4-like: four Letter pages with a heading, ruled lines and labelled
 * AcroForm text fields the filer would type into, as the real forms come.
 */
async function aW4LikeForm(): Promise<string> {
  const doc = await PDFDocument.create();
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const plain = await doc.embedFont(StandardFonts.Helvetica);
  const form = doc.getForm();
  const steps = ['Personal Information', 'Multiple Jobs', 'Claim Dependents', 'Other Adjustments'];
  steps.forEach((step, i) => {
    const page = doc.addPage([612, 792]);
    page.drawText(`Form W-4 (2026) Page ${i + 1} of 4`, { x: 40, y: 750, size: 16, font: bold });
    page.drawText(`Step ${i + 1}: ${step}`, { x: 40, y: 715, size: 12, font: bold });
    for (let row = 0; row < 6; row++) {
      const y = 660 - row * 60;
      page.drawLine({ start: { x: 40, y }, end: { x: 572, y }, thickness: 0.5, color: rgb(0, 0, 0) });
      page.drawText(`Line ${i + 1}${'abcdef'[row]}`, { x: 40, y: y + 30, size: 9, font: plain });
      form
        .createTextField(`step${i + 1}.line${row}`)
        .addToPage(page, { x: 120, y: y + 4, width: 300, height: 20 });
    }
    page.drawText('Employee’s signature ______________________   Date ________', {
      x: 40,
      y: 120,
      size: 11,
      font: plain,
    });
  });
  form.getTextField('step1.line0').setText('Ann Filer');
  const file = join(mkdtempSync(join(tmpdir(), 'journey-')), 'fw4.pdf');
  writeFileSync(file, await doc.save());
  return file;
}

const seenMail = new Set<string>();
/** The newest mail to `email` with a link matching `link`, not read yet: the link. */
const mailedLink = (email: string, link: RegExp, what: string) =>
  eventually(
    async () => {
      const mail = (await listMailbox(dataPaths(suite.runtime.dataDir).mailbox)).find(
        (m) => m.kind === 'email' && m.to.includes(email) && !seenMail.has(m.id) && link.test(m.text),
      );
      if (mail?.kind !== 'email') return undefined;
      seenMail.add(mail.id);
      return link.exec(mail.text)![0];
    },
    30_000,
    what,
  );

/** Signs the page in to the console with the link mailed to the demo account's user. */
async function signIn(page: Page) {
  await page.goto(`${suite.runtime.baseUrl}/console/`);
  await page.getByLabel(consoleWord('signIn.email')).fill(DEMO_EMAIL);
  await page.getByRole('button', { name: consoleWord('signIn.submit') }).click();
  const link = new RegExp(`${suite.runtime.baseUrl}/console/sign-in/[0-9A-Za-z]{43}`);
  await page.goto(await mailedLink(DEMO_EMAIL, link, 'the sign-in email'));
  await page.getByRole('heading', { level: 1, name: consoleWord('bundles.heading') }).waitFor();
}

/** The Send screen: the form uploaded, the two signers typed, the draft created; its id. */
async function createDraft(page: Page): Promise<string> {
  await page
    .getByRole('navigation')
    .getByRole('link', { name: say('send.menu') })
    .click();
  await page.getByRole('heading', { level: 1, name: say('send.heading') }).waitFor();
  await page.getByLabel(say('send.files.choose')).setInputFiles(await aW4LikeForm());
  await page.locator('.uploads .file-name bdi', { hasText: 'fw4.pdf' }).waitFor();
  for (const [n, who] of [ANN, BOB].entries()) {
    if (n > 0) await page.getByRole('button', { name: say('send.signers.add') }).click();
    const signer = page.getByRole('group', { name: say('send.signers.numbered', { n: n + 1 }) });
    await signer.getByLabel(say('send.signers.name')).fill(who.name);
    await signer.getByLabel(say('send.signers.email')).fill(who.email);
  }
  await page.getByLabel(say('send.message.label')).fill(LABEL);
  await page.getByRole('button', { name: say('send.create') }).click();
  await page.waitForURL(/\/console\/send\/[A-Za-z0-9_-]+$/);
  return new URL(page.url()).pathname.split('/').pop()!;
}

/** The editor's frame in the console, once it has drawn the form's first page (of four). */
async function editorFrame(page: Page): Promise<Frame> {
  const element = page.locator('iframe.editor-frame');
  await element.waitFor();
  const frame = (await (await element.elementHandle())!.contentFrame())!;
  await frame.locator('.page.rendered').first().waitFor();
  expect(await frame.locator('.prep-page').count()).toBe(4);
  return frame;
}

/** Drags out a field on the page, between two points given in percent of the page. */
async function drag(page: Page, frame: Frame, pageNumber: number, from: number[], to: number[]) {
  const layer = frame.locator(`.prep-layer[data-page="${pageNumber}"]`);
  // The page is taller than the frame: its lower part, where the signature goes, is brought up.
  await layer.evaluate((e) => e.scrollIntoView({ block: 'end' }));
  await frame.locator('.prep-page.rendered', { has: layer }).waitFor();
  const box = (await layer.boundingBox())!;
  const at = (p: number[]) =>
    [box.x + (box.width * p[0]!) / 100, box.y + (box.height * p[1]!) / 100] as const;
  await page.mouse.move(...at(from));
  await page.mouse.down();
  await page.mouse.move(...at(to), { steps: 8 });
  await page.mouse.up();
}

/** In the editor: Ann's signature dragged out on page 1, Bob's on page 4; saved, then sent. */
async function placeAndSend(page: Page, frame: Frame) {
  await frame.locator('#new-kind').selectOption('sig');
  for (const [signer, pageNumber] of [
    [0, 1],
    [1, 4],
  ] as const) {
    await frame.locator('#new-role').selectOption({ index: signer });
    await drag(page, frame, pageNumber, [12, 80], [45, 86]);
  }
  const onPage = (n: number) => frame.locator(`.prep-layer[data-page="${n}"] .prep-field`);
  await expect.poll(() => onPage(1).textContent()).toContain(ANN.name);
  await expect.poll(() => onPage(4).textContent()).toContain(BOB.name);
  await shot(page, 'journey-1-fields-placed.png');
  await frame.getByRole('button', { name: 'Save draft' }).click();
  await page
    .getByRole('status')
    .filter({ hasText: /Draft saved at/ })
    .waitFor();
  await frame.getByRole('button', { name: 'Send', exact: true }).click();
}

/** Ann signs in the signing page from her emailed link, with a typed signature. */
async function annSignsInThePage() {
  const ann = await signerPage(suite.browser);
  await ann.page.goto(await mailedLink(ANN.email, /http:\/\/[^\s]+\/sign\/[0-9A-Za-z]{43}/, "Ann's link"));
  await ann.page.locator('.field.k-sig button').first().click();
  await ann.page.getByRole('dialog', { name: 'Add your signature' }).waitFor();
  await ann.page.getByRole('tab', { name: 'Type' }).click();
  await ann.page.getByRole('textbox', { name: 'Your full name' }).fill(ANN.name);
  await ann.page.getByRole('button', { name: 'Apply signature' }).click();
  await ann.page.getByLabel(/I agree to sign these documents electronically/).check();
  await ann.page.getByRole('button', { name: 'Finish signing' }).click();
  await ann.page.getByRole('heading', { name: 'You’re done' }).waitFor();
  expect(ann.problems).toEqual([]);
  await ann.context.close();
}

/** Bob signs his field (the editor named it sig-2, the second signature placed) through the signer API. */
async function bobSignsByTheApi(id: string) {
  const link = await mailedLink(BOB.email, /\/sign\/[0-9A-Za-z]{43}/, "Bob's link");
  const doc = (await suite.call('GET', `/bundles/${id}/`)).body.documents[0];
  await signWithToken(signerClient(suite.runtime), link.split('/').pop()!, doc.key, ['sig-2']);
}

/**
 * Clicks a download link of the bundle page: the file opens in a new tab (the file store is
 * another origin, where `download` is not heeded) and the bundle page stays. Its PDF viewer asks
 * for the file in ranges, so the bytes checked are fetched again from the link's address.
 */
async function download(page: Page, name: string): Promise<Buffer> {
  const link = page
    .getByRole('region', { name: say('bundle.downloads.heading') })
    .getByRole('link', { name });
  const href = (await link.getAttribute('href'))!;
  const received = page.context().waitForEvent('response', (r) => r.url() === href);
  const opened = page.context().waitForEvent('page');
  await link.click();
  const [response, tab] = await Promise.all([received, opened]);
  expect([response.status(), tab.url()]).toEqual([200, href]);
  await tab.close();
  const got = await fetch(href);
  expect(got.status).toBe(200);
  return Buffer.from(await got.arrayBuffer());
}

/** The final form and the certificates, downloaded and read with poppler. */
async function downloadAndCheck(page: Page) {
  const final = await download(page, say('bundle.downloads.final', { name: 'fw4.pdf' }));
  const pages = pageTexts(final);
  // The form's four pages, then its audit page.
  expect(pages.slice(0, 4).map((t) => /Page (\d) of 4/.exec(t)?.[1])).toEqual(['1', '2', '3', '4']);
  expect(pages.slice(4).join(' ')).toMatch(
    new RegExp(`${ANN.name}[\\s\\S]*${BOB.name}|${BOB.name}[\\s\\S]*${ANN.name}`),
  );
  // The form's own filled-in field, kept on its page.
  expect(pages[0]).toContain('Ann Filer');
  expect(pdfsig(final).split(/Signature #\d+:/)[1]).toContain('Signature is Valid.');
  for (const who of [ANN, BOB]) {
    const certificate = await download(page, say('bundle.downloads.certificate', { name: who.name }));
    const text = pageTexts(certificate).join(' ');
    expect(text).toMatch(/Certificate of Evidence/i);
    expect(text).toContain(who.email);
  }
  // pdfinfo agrees the signed form has the pages it should.
  const dir = mkdtempSync(join(tmpdir(), 'journey-final-'));
  writeFileSync(join(dir, 'final.pdf'), final);
  const info = execFileSync('pdfinfo', [join(dir, 'final.pdf')], { encoding: 'utf8' });
  expect(Number(/^Pages:\s+(\d+)/m.exec(info)?.[1])).toBe(pages.length);
}

/** A finger pressed at `from`, slid to `to` and lifted: Chromium's own touch input, as a tablet sends it. */
async function touchDrag(cdp: CDPSession, from: number[], to: number[]) {
  const at = (t: number) => [
    { x: from[0]! + (to[0]! - from[0]!) * t, y: from[1]! + (to[1]! - from[1]!) * t },
  ];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(0) });
  for (let i = 1; i <= 8; i++)
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(i / 8) });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
}

/** A draft of one signer made through the API, and its editor link. */
async function aDraftEditorLink() {
  const made = await suite.call('POST', '/bundles/', {
    json: {
      label: 'Tablet draft',
      status: 'dr',
      packets: [{ key: 'cy', name: 'Cy Tablet', email: 'cy.tablet@example.com' }],
      documents: [{ key: 'form', name: 'Form', file_b64: suite.pdfB64 }],
    },
  });
  expect(made.status, made.text).toBe(201);
  const link = await suite.call('POST', `/bundles/${made.body.id}/prepare_url/`);
  expect(link.status, link.text).toBe(201);
  return link.body.url as string;
}

const fieldBox = (page: Page) =>
  Promise.all(['f-x', 'f-y', 'f-w'].map(async (id) => Number(await page.locator(`#${id}`).inputValue())));

describe.runIf(runBrowser)("a sender's journey through the console", () => {
  it('uploads a W-4-like form, places fields for two signers by dragging, sends, sees it complete and downloads it', async () => {
    const context = await suite.browser.newContext({
      locale: 'en-US',
      viewport: { width: 1280, height: 900 },
    });
    const page = await context.newPage();
    const problems = watchProblems(page, { responses: true });
    await signIn(page);
    // Nothing below reloads the console: this mark would be gone.
    await page.evaluate('window.sameConsolePage = true');
    const id = await createDraft(page);
    await placeAndSend(page, await editorFrame(page));
    await page.waitForURL(new RegExp(`/console/bundles/${id}$`));
    await page.getByRole('heading', { level: 1, name: LABEL }).waitFor();
    expect((await suite.call('GET', `/bundles/${id}/`)).body.status).toBe('se');

    await annSignsInThePage();
    await bobSignsByTheApi(id);
    await page
      .locator('.bundle-head .status', { hasText: consoleWord('status.co') })
      .waitFor({ timeout: 30_000 });
    await page
      .getByRole('region', { name: say('bundle.downloads.heading') })
      .getByRole('link', { name: say('bundle.downloads.final', { name: 'fw4.pdf' }) })
      .waitFor({ timeout: 60_000 });
    expect(await page.evaluate<boolean>('window.sameConsolePage === true')).toBe(true);
    await shot(page, 'journey-2-complete.png');
    await downloadAndCheck(page);
    expect(await page.evaluate<boolean>('window.sameConsolePage === true')).toBe(true);
    // The one failed answer expected: the console's first question, asked signed out.
    expect(problems.filter((p) => !/\/console\/api\/session$/.test(p))).toEqual([]);
    await context.close();
  }, 150_000);
  it('places a field by touch on a tablet and moves it with a finger, the page not scrolling', async () => {
    const context = await suite.browser.newContext({
      locale: 'en-US',
      viewport: { width: 1024, height: 768 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
    });
    const page = await context.newPage();
    const problems = watchProblems(page, { responses: true });
    await page.goto(await aDraftEditorLink());
    await page.locator('.page.rendered').first().waitFor();
    const cdp = await context.newCDPSession(page);
    await page.locator('#new-kind').selectOption('sig');
    const layer = page.locator('.prep-layer[data-page="1"]');
    await layer.evaluate((e) => e.scrollIntoView({ block: 'center' }));
    const box = (await layer.boundingBox())!;
    const at = (x: number, y: number) => [box.x + (box.width * x) / 100, box.y + (box.height * y) / 100];
    const scrolled = await page.evaluate<number>('scrollY');

    // Drawn with a finger from (20%, 40%) to (50%, 46%).
    await touchDrag(cdp, at(20, 40), at(50, 46));
    const field = page.locator('.prep-field[data-key="sig-1"]');
    await expect.poll(() => field.textContent()).toBe('Signature · Cy Tablet');
    const [x, y, w] = await fieldBox(page);
    expect([Math.round(x!), Math.round(y!), Math.round(w!)]).toEqual([20, 40, 30]);

    // Moved with a finger 15% to the right and 10% down: the field follows, the page stays put.
    const fb = (await field.boundingBox())!;
    const mid = [fb.x + fb.width / 2, fb.y + fb.height / 2];
    await touchDrag(cdp, mid, [mid[0]! + box.width * 0.15, mid[1]! + box.height * 0.1]);
    await expect.poll(async () => (await fieldBox(page)).map(Math.round)).toEqual([35, 50, 30]);
    expect(await page.evaluate<number>('scrollY')).toBe(scrolled);
    await shot(page, 'journey-3-tablet.png');

    // A tap on the page places a field of the default size there.
    await page.touchscreen.tap(...(at(60, 20) as [number, number]));
    await page.locator('.prep-field[data-key="sig-2"]').waitFor();
    expect((await fieldBox(page)).map(Math.round).slice(0, 2)).toEqual([60, 20]);
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);
});
