// What the signing page does before it draws the first page, in a real Chromium: it opens its
// session while its own script is still loading (not after), exchanges its single-use link once,
// starts pdf.js's worker before the document arrives, and asks for its first document beside its
// state rather than after it. Ordering is observed by holding one of
// the page's deepest modules back: no timing threshold.
import { describe, expect, it } from 'vitest';
import { runBrowser, watchProblems } from '../helpers/browser';
import { browserSuite } from '../helpers/browser-suite';

const suite = browserSuite();

describe.runIf(runBrowser)('the signing page before its first page', () => {
  it('opens its session while its script loads, asks for the document beside the state, and draws it', async () => {
    const created = await suite.sentBundle({
      label: 'Lease',
      packets: [{ key: 'ann', name: 'Ann Lee', email: 'ann@example.com', deliver_via: 'embed' }],
      document: 'lease',
      fields: [{ key: 'sig', kind: 'sig', page: 1, x: 10, y: 70, w: 30, h: 6, editors: ['ann'] }],
    });
    const url = await suite.embedUrl(created.packets[0]!.id);
    const context = await suite.browser.newContext();
    const page = await context.newPage();
    const problems = watchProblems(page, { responses: true });
    const order: string[] = [];
    page.on('request', (r) => {
      const path = new URL(r.url()).pathname;
      if (path.endsWith('/sign/api/session')) order.push('session asked');
      if (path.endsWith('/pdf.worker.min.mjs')) order.push('worker asked');
      if (path.includes('/sign/api/documents/')) order.push('document asked');
    });
    // guide.js sits at the bottom of the page script's imports: until it arrives, none of the
    // page's own modules can run. Held back until the session has been asked for (or 10 s).
    let sessionAsked: () => void = () => undefined;
    const asked = new Promise<void>((resolve) => {
      sessionAsked = resolve;
    });
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.endsWith('/sign/api/session')) sessionAsked();
    });
    await page.route('**/guide.js', async (route) => {
      const held = await Promise.race([
        asked.then(() => 'after'),
        new Promise((r) => setTimeout(r, 10_000, 'timeout')),
      ]);
      order.push(`guide.js released ${held}`);
      await route.continue();
    });
    // The state's answer, held back until the document has been asked for (or 10 s): the page
    // asks for its first document beside the state, not after it.
    let documentAsked: () => void = () => undefined;
    const docAsked = new Promise<void>((resolve) => {
      documentAsked = resolve;
    });
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.includes('/sign/api/documents/')) documentAsked();
    });
    await page.route('**/sign/api/state', async (route) => {
      const held = await Promise.race([
        docAsked.then(() => 'after'),
        new Promise((r) => setTimeout(r, 10_000, 'timeout')),
      ]);
      order.push(`state released ${held}`);
      await route.continue();
    });
    await page.goto(url);
    await page.locator('.page.rendered').first().waitFor({ timeout: 30_000 });
    expect(order.filter((o) => o === 'session asked')).toHaveLength(1);
    expect(order.indexOf('guide.js released after')).toBeGreaterThan(order.indexOf('session asked'));
    expect(order.indexOf('worker asked')).toBeGreaterThanOrEqual(0);
    expect(order.indexOf('worker asked')).toBeLessThan(order.indexOf('document asked'));
    expect(order).toContain('state released after');
    expect(order.filter((o) => o === 'document asked')).toHaveLength(1);
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);
});
