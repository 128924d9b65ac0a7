// A Document Template preparation session in a real headless Chromium (Debian's, driven by
// playwright-core): the public page renders the template's PDF, a role is added, a signature field
// is drawn by click-drag and moved by drag, a second field is added from the keyboard, and Save
// writes the template, which the API then shows; a field's role is changed keeping its other
// roles; the page works framed by an origin the account lists. Screenshots go to test-artifacts/.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountStore } from '#shared/adapters/dynamodb/account-store';
import { runBrowser, shot, watchProblems } from '../helpers/browser';
import { browserSuite } from '../helpers/browser-suite';
import { aPdfB64 } from '../helpers/bundles';

const suite = browserSuite();
let partner: { origin: string; server: Server };

/** The integrator's own site: a page that frames the preparation link it is given. */
async function startPartnerSite() {
  const server = createServer((req, res) => {
    const src = (new URL(req.url ?? '/', 'http://partner').searchParams.get('src') ?? '').replace(
      /"/g,
      '&quot;',
    );
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html><head><title>Partner app</title></head><body><h1>Partner app</h1>` +
        `<iframe title="Prepare your template" src="${src}" style="width:1200px;height:800px"></iframe></body></html>`,
    );
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

beforeAll(async () => {
  partner = await startPartnerSite();
});

afterAll(async () => {
  await new Promise<void>((done) => (partner ? partner.server.close(() => done()) : done()));
});

describe.runIf(runBrowser)('preparing a template in a real browser', () => {
  describe('places a field by mouse drag, moves it, adds one by keyboard, saves; the template shows them', () => {
    let session: Awaited<ReturnType<typeof suite.call>>;
    let context: BrowserContext;
    let page: Page;
    let problems: string[];
    let box: { x: number; y: number; width: number; height: number };

    beforeAll(async () => {
      session = await suite.call('POST', '/templates/preparation_session/', {
        json: {
          name: 'Purchase agreement',
          file_b64: await aPdfB64(),
          roles: [{ key: 'buyer', label: 'Buyer' }],
          allowed_data_flow_tags: ['acme:*'],
        },
      });
      expect(session.status, session.text).toBe(201);

      context = await suite.browser.newContext({
        viewport: { width: 1280, height: 900 },
        locale: 'en-US',
      });
      page = await context.newPage();
      problems = watchProblems(page, { responses: true });
      await page.goto(session.body.url);
      await page.getByRole('heading', { name: 'Prepare the template' }).waitFor();
      await page.locator('.page.rendered').first().waitFor();
    });

    it('a second role, then a signature field for the buyer drawn by mouse on page 1', async () => {
      // A second role, then a signature field for the buyer drawn on page 1.
      await page.getByRole('button', { name: 'Add role' }).click();
      await page.getByLabel('Role 2 name').fill('Seller');
      await page.getByLabel('Role 2 name').press('Tab');
      await page.locator('#new-kind').selectOption('sig');
      await page.locator('#new-role').selectOption('buyer');

      const layer = page.locator('.prep-layer[data-page="1"]');
      box = (await layer.boundingBox())!;
      await page.mouse.move(box.x + box.width * 0.1, box.y + box.height * 0.5);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width * 0.25, box.y + box.height * 0.52, { steps: 5 });
      await page.mouse.move(box.x + box.width * 0.4, box.y + box.height * 0.55, { steps: 5 });
      await page.mouse.up();
      const field = page.locator('.prep-field[data-key="sig-1"]');
      await field.waitFor();
      await expect.poll(() => field.textContent()).toBe('Signature · Buyer');
      expect(Number(await page.locator('#f-x').inputValue())).toBeCloseTo(10, 0);
      expect(Number(await page.locator('#f-w').inputValue())).toBeCloseTo(30, 0);
    });

    it('the field moved by dragging, then labelled and tagged', async () => {
      // Moved by dragging it 10% of the page to the right.
      const field = page.locator('.prep-field[data-key="sig-1"]');
      const fb = (await field.boundingBox())!;
      await page.mouse.move(fb.x + fb.width / 2, fb.y + fb.height / 2);
      await page.mouse.down();
      await page.mouse.move(fb.x + fb.width / 2 + box.width * 0.1, fb.y + fb.height / 2, { steps: 5 });
      await page.mouse.up();
      await expect.poll(async () => Number(await page.locator('#f-x').inputValue())).toBeGreaterThan(19);
      await page.getByLabel('Label').fill('Buyer signs here');
      await page.getByLabel('Label').press('Tab');
      await page.getByLabel('Data flow tag').fill('acme:buyer.signature');
      await page.getByLabel('Data flow tag').press('Tab');
      await shot(page, 'prepare-1-drawn.png');
    });

    it('a date field for the seller, added and moved with the keyboard only', async () => {
      // A date field for the seller, added and moved with the keyboard only.
      await page.locator('#new-kind').selectOption('dat');
      await page.locator('#new-role').selectOption('role-1');
      await page.getByRole('button', { name: 'Add field to page 1' }).focus();
      await page.keyboard.press('Enter');
      const date = page.locator('.prep-field[data-key="dat-1"]');
      await date.focus();
      await page.keyboard.press('Shift+ArrowDown');
      await page.keyboard.press('ArrowRight');
      await expect.poll(async () => Number(await page.locator('#f-y').inputValue())).toBe(15);
    });

    it('a field then deleted does not reach the template, which saves', async () => {
      // A field then deleted does not reach the template.
      await page.locator('#new-kind').selectOption('chk');
      await page.getByRole('button', { name: 'Add field to page 1' }).click();
      await page.getByRole('button', { name: 'Delete field' }).click();
      await expect.poll(() => page.locator('.prep-field').count()).toBe(2);

      await page.getByRole('button', { name: 'Save template' }).click();
      await page.getByRole('heading', { name: 'Template saved' }).waitFor();
      await shot(page, 'prepare-2-saved.png');
      expect(problems).toEqual([]);
      await context.close();
    });

    it('the template shows both roles and the two fields where they were put', async () => {
      const t = await suite.call('GET', `/templates/${session.body.template_id}/`);
      expect(t.status).toBe(200);
      expect(t.body.roles).toEqual([
        { key: 'buyer', label: 'Buyer' },
        { key: 'role-1', label: 'Seller' },
      ]);
      expect(t.body.fields).toHaveLength(2);
      const [sig, dat] = t.body.fields;
      expect(sig).toMatchObject({
        key: 'sig-1',
        kind: 'sig',
        label: 'Buyer signs here',
        required: true,
        page: 1,
        editor_roles: ['buyer'],
        tag: 'acme:buyer.signature',
      });
      expect(sig.x).toBeGreaterThan(19);
      expect(sig.x).toBeLessThan(21);
      expect(sig.y).toBeCloseTo(50, 0);
      expect(sig.w).toBeCloseTo(30, 0);
      expect(sig.h).toBeCloseTo(5, 0);
      expect(dat).toMatchObject({
        key: 'dat-1',
        kind: 'dat',
        page: 1,
        x: 10.5,
        y: 15,
        editor_roles: ['role-1'],
      });
    });
  });

  it('shows the save errors the service answers, and saves nothing', async () => {
    const session = await suite.call('POST', '/templates/preparation_session/', {
      json: { name: 'No tags', file_b64: await aPdfB64(), allowed_data_flow_tags: [] },
    });
    expect(session.status, session.text).toBe(201);
    const context = await suite.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(session.body.url);
    await page.locator('.page.rendered').first().waitFor();
    // With no role the field is for nobody; a field off the page is the service's to refuse.
    await page.getByRole('button', { name: 'Add field to page 1' }).click();
    await page.getByLabel('Left').fill('95');
    await page.getByLabel('Left').press('Tab');
    expect(await page.getByLabel('Data flow tag').isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Save template' }).click();
    await page
      .getByRole('alert')
      .getByText(/extends past the right edge/)
      .waitFor();
    await shot(page, 'prepare-3-refused.png');
    await context.close();
    const t = await suite.call('GET', `/templates/${session.body.template_id}/`);
    expect(t.body.fields).toEqual([]);
  });
  it("changing a field's role keeps its `-` prefix and its other roles", async () => {
    const made = await suite.call('POST', '/templates/', {
      json: {
        name: 'Lease with agent',
        file_b64: await aPdfB64(),
        roles: [
          { key: 'tenant', label: 'Tenant' },
          { key: 'agent', label: 'Agent' },
          { key: 'landlord', label: 'Landlord' },
        ],
        fields: [
          {
            key: 'sig-t',
            kind: 'sig',
            page: 1,
            x: 10,
            y: 70,
            w: 30,
            h: 5,
            editor_roles: ['-tenant', 'agent'],
          },
        ],
      },
    });
    expect(made.status, made.text).toBe(201);
    const session = await suite.call('POST', '/templates/preparation_session/', {
      json: { template_id: made.body.id },
    });
    expect(session.status, session.text).toBe(201);
    const context = await suite.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems = watchProblems(page, { responses: true });
    await page.goto(session.body.url);
    await page.locator('.page.rendered').first().waitFor();
    await page.locator('.prep-field[data-key="sig-t"]').click();
    expect(await page.locator('#f-role').inputValue()).toBe('tenant');
    await page.locator('#f-role').selectOption('landlord');
    await expect
      .poll(() => page.locator('.prep-field[data-key="sig-t"]').textContent())
      .toBe('Signature · Landlord');
    await page.getByRole('button', { name: 'Save template' }).click();
    await page.getByRole('heading', { name: 'Template saved' }).waitFor();
    expect(problems).toEqual([]);
    await context.close();
    const t = await suite.call('GET', `/templates/${made.body.id}/`);
    expect(t.body.fields[0].editor_roles).toEqual(['-landlord', 'agent']);
  });
  it('works embedded in a page of an origin the account lists, and saves from the frame', async () => {
    const account = await suite.runtime.seedAccount(
      'Embedded Preparation',
      'owner@embedded-preparation.example',
    );
    await createAccountStore(suite.runtime.db, suite.runtime.config.tableName).setEmbedOrigins(
      account.accountId,
      [partner.origin],
    );
    const session = await suite.call('POST', '/templates/preparation_session/', {
      key: account.apiKey,
      json: { name: 'Embedded', file_b64: await aPdfB64(), roles: [{ key: 'buyer', label: 'Buyer' }] },
    });
    expect(session.status, session.text).toBe(201);
    const context = await suite.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems = watchProblems(page, { responses: true });
    const framed = page.waitForResponse((r) => r.url() === session.body.url);
    await page.goto(`${partner.origin}/?src=${encodeURIComponent(session.body.url)}`);
    expect((await framed).headers()['content-security-policy']).toContain(
      `frame-ancestors ${partner.origin}`,
    );
    const frame = page.frameLocator('iframe[title="Prepare your template"]');
    await frame.locator('.page.rendered').first().waitFor();
    await frame.getByRole('button', { name: 'Add field to page 1' }).click();
    await frame.getByRole('button', { name: 'Save template' }).click();
    await frame.getByRole('heading', { name: 'Template saved' }).waitFor();
    await shot(page, 'prepare-4-embedded.png');
    expect(problems).toEqual([]);
    await context.close();
    const t = await suite.call('GET', `/templates/${session.body.template_id}/`, { key: account.apiKey });
    expect(t.body.fields).toHaveLength(1);
  });
});
