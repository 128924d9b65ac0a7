// The draft bundle editor in a real headless Chromium: a four-page PDF with a text tag, two
// signers; fields placed for both by dragging, moved, resized, copied and nudged with the
// keyboard, saved, previewed as a signer and sent, after which the API shows the bundle sent with
// those fields. Then the editor framed by a page of an allowed origin (a second local server,
// the account's embed origin), which hears its messages, and by a refused one, which the CSP
// blocks. Screenshots go to test-artifacts/.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountStore } from '#shared/adapters/dynamodb/account-store';
import { createBundleStore } from '#shared/adapters/dynamodb/bundle-store';
import { expectAccessible } from '../helpers/axe';
import { runBrowser, shot, watchProblems } from '../helpers/browser';
import { browserSuite } from '../helpers/browser-suite';

const line = (value: string, y: number) => ({ value, x: 72, y, size: 12 });
const suite = browserSuite({
  pdf: [
    { size: 'Letter', text: [line('Service agreement', 700), line('The client agrees to the terms.', 660)] },
    { size: 'Letter', text: [line('Terms and conditions', 700)] },
    { size: 'Letter', text: [line('Initials: {{ini|signer=bob|key=bob-ini}}', 300)] },
    { size: 'Letter', text: [line('Signatures', 700)] },
  ],
});

type TSite = { origin: string; server: Server };
let allowed: TSite;
let refused: TSite;

/** An integrator's page: it frames the editor link it is given and keeps every message it hears. */
async function startSite(): Promise<TSite> {
  const server = createServer((req, res) => {
    const src = (new URL(req.url ?? '/', 'http://site').searchParams.get('src') ?? '').replace(
      /"/g,
      '&quot;',
    );
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html lang="en"><head><title>Partner app</title>` +
        `<script>window.heard=[];addEventListener('message',(e)=>heard.push({origin:e.origin,data:e.data}));</script>` +
        `</head><body><h1>Partner app</h1><iframe title="Edit the draft" src="${src}" ` +
        `style="width:1200px;height:800px"></iframe></body></html>`,
    );
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const closeSite = (s?: TSite) => new Promise<void>((done) => (s ? s.server.close(() => done()) : done()));

beforeAll(async () => {
  [allowed, refused] = await Promise.all([startSite(), startSite()]);
});
afterAll(async () => {
  await Promise.all([closeSite(allowed), closeSite(refused)]);
});

/** A draft of the given account with Ann and Bob, the file's PDF with its text tag; its editor link. */
async function aDraftLink(key?: string) {
  const made = await suite.call('POST', '/bundles/', {
    ...(key ? { key } : {}),
    json: {
      label: 'Service agreement',
      status: 'dr',
      packets: [
        { key: 'ann', name: 'Ann Lee', email: 'ann@example.com' },
        { key: 'bob', name: 'Bob Roe', email: 'bob@example.com' },
      ],
      documents: [{ key: 'contract', name: 'Agreement', file_b64: suite.pdfB64, text_tags: true }],
    },
  });
  expect(made.status, made.text).toBe(201);
  const link = await suite.call('POST', `/bundles/${made.body.id}/prepare_url/`, { ...(key ? { key } : {}) });
  expect(link.status, link.text).toBe(201);
  return { id: made.body.id as string, url: link.body.url as string };
}

/** Draws a field by dragging on a page, from and to points in percent of the page. */
async function drag(page: Page, pageNumber: number, from: [number, number], to: [number, number]) {
  const layer = page.locator(`.prep-layer[data-doc="contract"][data-page="${pageNumber}"]`);
  await layer.scrollIntoViewIfNeeded();
  const box = (await layer.boundingBox())!;
  await page.mouse.move(box.x + (box.width * from[0]) / 100, box.y + (box.height * from[1]) / 100);
  await page.mouse.down();
  await page.mouse.move(box.x + (box.width * to[0]) / 100, box.y + (box.height * to[1]) / 100, { steps: 8 });
  await page.mouse.up();
  return box;
}

const numberIn = async (page: Page | Frame, id: string) => Number(await page.locator(`#${id}`).inputValue());

describe.runIf(runBrowser)('editing a draft bundle in a real browser', () => {
  describe('places, moves, resizes, copies and nudges fields, saves, previews and sends', () => {
    let draft: { id: string; url: string };
    let context: BrowserContext;
    let page: Page;
    let problems: string[];
    let placed: { x: number; w: number };

    beforeAll(async () => {
      draft = await aDraftLink();
      context = await suite.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
      page = await context.newPage();
      problems = watchProblems(page, { responses: true });
      await page.goto(draft.url);
      await page.getByRole('heading', { name: 'Prepare the documents' }).waitFor();
      await page.locator('.page.rendered').first().waitFor();
    });
    afterAll(() => context?.close());

    it('shows both signers, the four pages and the text tag as a field; 0 axe violations', async () => {
      await expect.poll(() => page.locator('.prep-page').count()).toBe(4);
      await page.getByText('ann@example.com').waitFor();
      await expect
        .poll(() => page.locator('.prep-field[data-key="bob-ini"]').textContent())
        .toBe('Initials · Bob Roe');
      await expectAccessible(page, 'the bundle editor');
    });

    it("draws Ann's signature on page 1 and Bob's text field on page 2 by dragging", async () => {
      await page.locator('#new-kind').selectOption('sig');
      await page.locator('#new-role').selectOption('ann');
      await drag(page, 1, [10, 70], [40, 76]);
      const sig = page.locator('.prep-field[data-key="sig-1"]');
      await expect.poll(() => sig.textContent()).toBe('Signature · Ann Lee');
      expect(await numberIn(page, 'f-x')).toBeCloseTo(10, 0);
      expect(await numberIn(page, 'f-w')).toBeCloseTo(30, 0);

      await page.locator('#new-kind').selectOption('inp');
      await page.locator('#new-role').selectOption('bob');
      await drag(page, 2, [20, 30], [50, 34]);
      await expect
        .poll(() => page.locator('.prep-field[data-key="inp-1"]').textContent())
        .toBe('Text · Bob Roe');
      await page.getByLabel('Allowed input').selectOption('email');
      await page.getByLabel('Initial value').fill('bob@example.com');
      await page.getByLabel('Initial value').press('Tab');
      // The sender's value, locked: Bob will see it and not change it.
      await page.getByLabel(/^Read-only/).check();
      // A formula is checked as it is typed, by the service's own parser; left empty, the field
      // stays the signer's to fill.
      const formula = page.getByLabel('Formula (calculated field)');
      await formula.fill('1 + * 2');
      await page.locator('#f-formula-hint').getByText('Unexpected "*" (at character 5).').waitFor();
      await formula.fill('');
      await formula.press('Tab');
    });

    it('moves the signature by dragging, resizes it by its handle, copies and nudges it by keyboard', async () => {
      const sig = page.locator('.prep-field[data-key="sig-1"]');
      await sig.scrollIntoViewIfNeeded();
      const layer = (await page.locator('.prep-layer[data-page="1"]').boundingBox())!;
      const fb = (await sig.boundingBox())!;
      await page.mouse.move(fb.x + fb.width / 2, fb.y + fb.height / 2);
      await page.mouse.down();
      await page.mouse.move(fb.x + fb.width / 2 + layer.width * 0.1, fb.y + fb.height / 2, { steps: 6 });
      await page.mouse.up();
      await expect.poll(() => numberIn(page, 'f-x')).toBeCloseTo(20, 0);

      const before = await numberIn(page, 'f-w');
      const handle = (await sig.locator('.prep-handle').boundingBox())!;
      await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
      await page.mouse.down();
      await page.mouse.move(handle.x + layer.width * 0.05, handle.y + layer.height * 0.02, { steps: 6 });
      await page.mouse.up();
      // 5% wider, to the half-percent grid.
      await expect
        .poll(async () => Math.abs((await numberIn(page, 'f-w')) - before - 5))
        .toBeLessThanOrEqual(0.5);
      placed = { x: await numberIn(page, 'f-x'), w: await numberIn(page, 'f-w') };

      // Copied with Ctrl+D: the copy is selected and focused; the keyboard moves and resizes it.
      await sig.focus();
      await page.keyboard.press('Control+d');
      const copy = page.locator('.prep-field[data-key="sig-2"]');
      await copy.waitFor();
      const x0 = await numberIn(page, 'f-x');
      const y0 = await numberIn(page, 'f-y');
      const w0 = await numberIn(page, 'f-w');
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('Shift+ArrowUp');
      await page.keyboard.press('Alt+ArrowRight');
      await expect.poll(() => numberIn(page, 'f-x')).toBe(x0 + 0.5);
      expect(await numberIn(page, 'f-y')).toBe(y0 - 5);
      expect(await numberIn(page, 'f-w')).toBe(w0 + 0.5);
      await shot(page, 'bundle-editor-1-placed.png');
    });

    it("shows the service's refusal beside the field it names, and saves once it is fixed", async () => {
      const text = page.locator('.prep-field[data-key="inp-1"]');
      await text.scrollIntoViewIfNeeded();
      await text.click();
      await page.getByLabel('Width').fill('90');
      await page.getByLabel('Width').press('Tab');
      await page.getByRole('button', { name: 'Save draft' }).click();
      await page
        .getByRole('alert')
        .getByText('Field inp-1 (w): The field extends past the right edge')
        .waitFor();
      const note = page.locator('.prep-field-error');
      await expect.poll(() => note.textContent()).toMatch(/extends past the right edge/);
      expect(await text.getAttribute('aria-describedby')).toBe(await note.getAttribute('id'));
      await expectAccessible(page, 'a refused field');
      await text.click();
      await page.getByLabel('Width').fill('30');
      await page.getByLabel('Width').press('Tab');
      await expect.poll(() => note.count()).toBe(0);
      // Bob's text shows only once Ann's signature is there: "Show only when".
      await page.getByLabel('Another field').selectOption('sig-1');
      await expect.poll(() => page.getByLabel('Condition', { exact: true }).inputValue()).toBe('filled');
      await expectAccessible(page, 'a field with a condition');
      // The refused save is the only problem the browser saw.
      expect(problems.length).toBeGreaterThan(0);
      expect(problems.filter((p) => !/400 .*\/prepare\/api\/bundle\/fields/.test(p))).toEqual([]);
      problems.length = 0;
    });

    it('saves, previews as Bob (only his fields, read-only), and sends', async () => {
      await page.getByRole('button', { name: 'Save draft' }).click();
      await page.getByText(/Draft saved at/).waitFor();

      await page.getByLabel('Signer to preview').selectOption('bob');
      await page.getByRole('button', { name: 'Preview as signer' }).click();
      await expect.poll(() => page.locator('.prep-preview-field').count()).toBe(2);
      expect(await page.locator('.prep-field').count()).toBe(0);
      await expect
        .poll(() => page.locator('.prep-preview-field[data-key="inp-1"]').textContent())
        .toBe('bob@example.com');
      await expectAccessible(page, 'the preview as a signer');
      await shot(page, 'bundle-editor-2-preview.png');
      await page.getByRole('button', { name: 'Back to editing' }).click();
      await expect.poll(() => page.locator('.prep-field').count()).toBe(4);

      await page.getByRole('button', { name: 'Send', exact: true }).click();
      await page.getByRole('heading', { name: 'Sent' }).waitFor();
      expect(problems).toEqual([]);
    });

    it('the API shows the bundle sent with those fields, each for its signer', async () => {
      const b = await suite.call('GET', `/bundles/${draft.id}/`);
      expect(b.body.status).toBe('se');
      await createAccountStore(suite.runtime.db, suite.runtime.config.tableName).setFeatures(
        suite.runtime.demo.accountId,
        { early_data_access: true },
      );
      const data = await suite.call('GET', `/bundles/${draft.id}/data/`);
      expect(data.status, data.text).toBe(200);
      expect(
        data.body.map((d: { field_key: string; kind: string }) => `${d.field_key}:${d.kind}`).sort(),
      ).toEqual(['bob-ini:ini', 'inp-1:inp', 'sig-1:sig', 'sig-2:sig']);
      // Where each field sits and whose it is: the stored document the signing pages will read.
      const store = createBundleStore(suite.runtime.db, suite.runtime.config.tableName);
      const [doc] = await store.documents((await store.get(suite.runtime.demo.accountId, draft.id))!);
      const byKey = Object.fromEntries(doc!.fields.map((f) => [f.key, f]));
      expect(byKey['sig-1']).toMatchObject({ page: 1, editors: ['ann'], ...placed });
      expect(byKey['sig-2']).toMatchObject({ page: 1, editors: ['ann'] });
      expect(byKey['inp-1']).toMatchObject({
        page: 2,
        editors: ['bob'],
        vPattern: 'email',
        readOnly: true,
        visibleWhen: { all: [{ field: 'sig-1', not_empty: true }] },
      });
      expect(byKey['bob-ini']).toMatchObject({ page: 3, editors: ['bob'] });
    });
  });

  describe('embedded', () => {
    let key: string;
    beforeAll(async () => {
      const account = await suite.runtime.seedAccount('Embedding Editor', 'owner@embedding-editor.example');
      await createAccountStore(suite.runtime.db, suite.runtime.config.tableName).setEmbedOrigins(
        account.accountId,
        [allowed.origin],
      );
      key = account.apiKey;
    });

    it('framed by an allowed origin: its page hears ready, saved, closed and sent', async () => {
      const draft = await aDraftLink(key);
      const context = await suite.browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      const problems = watchProblems(page, { responses: true });
      await page.goto(`${allowed.origin}/?src=${encodeURIComponent(draft.url)}`);
      const frame = page.frameLocator('iframe[title="Edit the draft"]');
      await frame.locator('.page.rendered').first().waitFor();
      const heard = () =>
        page.evaluate(() => (globalThis as unknown as { heard: { data: { event: string } }[] }).heard);
      await expect.poll(async () => (await heard()).length).toBe(1);
      // Placed with the keyboard alone, on a page picked from the list.
      await frame.getByLabel('Page for a new field').selectOption({ label: 'Agreement, page 3' });
      await frame.getByRole('button', { name: 'Add field', exact: true }).press('Enter');
      await frame.locator('.prep-layer[data-page="3"] .prep-field[data-key="sig-1"]').waitFor();
      // Each message is waited for before the next step: a save answers later than a click.
      await frame.getByRole('button', { name: 'Save draft' }).click();
      await expect.poll(async () => (await heard()).length).toBe(2);
      await frame.getByRole('button', { name: 'Close' }).click();
      await expect.poll(async () => (await heard()).length).toBe(3);
      await frame.getByRole('button', { name: 'Send', exact: true }).click();
      await frame.getByRole('heading', { name: 'Sent' }).waitFor();
      await expect.poll(async () => (await heard()).length).toBe(5);
      const all = await heard();
      expect(all).toEqual(
        ['ready', 'saved', 'closed', 'saved', 'sent'].map((event) => ({
          origin: new URL(draft.url).origin,
          data: { source: 'esign-editor', event, bundle_id: draft.id },
        })),
      );
      await shot(page, 'bundle-editor-3-embedded.png');
      expect(problems).toEqual([]);
      await context.close();
      expect((await suite.call('GET', `/bundles/${draft.id}/`, { key })).body.status).toBe('se');
    });

    it('framed by an origin the account does not list: the browser blocks it', async () => {
      const draft = await aDraftLink(key);
      const context = await suite.browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      const blocked = page.waitForEvent('console', (m) => /frame-ancestors/.test(m.text()));
      const answer = page.waitForResponse((r) => r.url() === draft.url);
      await page.goto(`${refused.origin}/?src=${encodeURIComponent(draft.url)}`);
      expect((await answer).headers()['content-security-policy']).toMatch(
        new RegExp(`frame-ancestors 'self' ${allowed.origin}$`),
      );
      expect((await blocked).text()).toContain(`frame-ancestors 'self' ${allowed.origin}`);
      const child = page.frames().find((f) => f !== page.mainFrame())!;
      expect(await child.getByRole('heading', { name: 'Prepare the documents' }).count()).toBe(0);
      expect(await page.evaluate(() => (globalThis as unknown as { heard: unknown[] }).heard)).toEqual([]);
      await context.close();
    });
  });
});
