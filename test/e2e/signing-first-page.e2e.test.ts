// What the signing page does before it draws the first page, in a real Chromium: it opens its
// session and starts pdf.js's worker while its own script is still loading (not after), exchanges
// its single-use link once, and takes its first state and its first document from the session's
// answer rather than asking for them; its own code comes as one script. Ordering is observed by
// holding that script back: no timing threshold.
import { describe, expect, it } from 'vitest';
import { runBrowser, watchProblems } from '../helpers/browser';
import { browserSuite } from '../helpers/browser-suite';

const suite = browserSuite();

describe.runIf(runBrowser)('the signing page before its first page', () => {
  it('opens its session while its script loads, takes the state from it, and draws the document', async () => {
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
    let sessionBody: { document?: string } = {};
    const scripts: string[] = [];
    page.on('request', (r) => {
      const path = new URL(r.url()).pathname;
      if (path.endsWith('/sign/api/session')) {
        order.push('session asked');
        sessionBody = r.postDataJSON();
      }
      if (path.endsWith('/pdf.worker.min.mjs')) order.push('worker asked');
      if (path.includes('/sign/api/documents/')) order.push('document asked');
      if (r.resourceType() === 'script') scripts.push(path.split('/').pop()!);
    });
    // The page's code is one script (the bundle of its modules, page-bundles.ts): until it
    // arrives, none of it can run. Held back until the session and pdf.js's worker have both been
    // asked for (or 10 s).
    let sessionAsked: () => void = () => undefined;
    let workerAsked: () => void = () => undefined;
    const asked = Promise.all([
      new Promise<void>((resolve) => {
        sessionAsked = resolve;
      }),
      new Promise<void>((resolve) => {
        workerAsked = resolve;
      }),
    ]);
    page.on('request', (r) => {
      const path = new URL(r.url()).pathname;
      if (path.endsWith('/sign/api/session')) sessionAsked();
      if (path.endsWith('/pdf.worker.min.mjs')) workerAsked();
    });
    await page.route('**/app.bundle.js', async (route) => {
      const held = await Promise.race([
        asked.then(() => 'after'),
        new Promise((r) => setTimeout(r, 10_000, 'timeout')),
      ]);
      order.push(`script released ${held}`);
      await route.continue();
    });
    // The first state comes with the session: the page asks for no state of its own.
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.endsWith('/sign/api/state')) order.push('state asked');
    });
    await page.goto(url);
    await page.locator('.page.rendered').first().waitFor({ timeout: 30_000 });
    expect(order.filter((o) => o === 'session asked')).toHaveLength(1);
    expect(order.indexOf('script released after')).toBeGreaterThan(order.indexOf('session asked'));
    // The scripts it loaded: early-session.js and the page's bundle, then the libraries it
    // imports at run time and pdf.js's worker; none of its ~30 modules one by one.
    expect(scripts.sort()).toEqual([
      'app.bundle.js',
      'early-session.js',
      'i18next.js',
      'pdf.min.mjs',
      'pdf.worker.min.mjs',
    ]);
    // The worker starts before the page's own modules can run.
    expect(order.filter((o) => o === 'worker asked')).toHaveLength(1);
    expect(order).not.toContain('state asked');
    // The first document came with the session: the page asks for it no more.
    expect(sessionBody.document).toBe('lease');
    expect(order).not.toContain('document asked');
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);
});
