// What the signing page does before it draws the first page, in a real Chromium: its head's
// inline script (allowed by its hash in the page's CSP) opens its session and starts pdf.js's
// worker before any script file has arrived (not after), it exchanges its single-use link once,
// and takes its first state and its first document from the session's answer rather than asking
// for them; its own code comes as one script; and it draws the page on the screen before the next
// one; pdf.js gets the first document before the page's words have arrived. Ordering is observed
// by holding files back and by watching the page's canvases and pdf.js's messages: no timing
// threshold.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { runBrowser, watchProblems } from '../helpers/browser';
import { browserSuite } from '../helpers/browser-suite';

const suite = browserSuite();

/**
 * Notes, in order, when a page frame's canvas is given its size (its drawing starts) and when
 * the frame is classed rendered (drawn), by the frame's place among the pages.
 */
const NOTE_DRAWING = `(() => {
  window.drawing = [];
  const index = (node) => [...document.querySelectorAll('.page')].indexOf(node);
  new MutationObserver((changes) => {
    for (const c of changes) {
      if (c.target.matches('.page > canvas') && c.attributeName === 'width')
        window.drawing.push('page ' + (index(c.target.parentElement) + 1) + ' started');
      if (c.target.matches('.page.rendered') && !(c.oldValue ?? '').includes('rendered'))
        window.drawing.push('page ' + (index(c.target) + 1) + ' drawn');
    }
  }).observe(document, { subtree: true, attributes: true, attributeOldValue: true });
})();`;

/**
 * Every script file (the page's bundle, the libraries it preloads) is held back until the
 * session and pdf.js's worker have both been asked for (or 10 s): only the head's inline
 * script can ask for them meanwhile. Each release is noted in `order`.
 */
async function holdScriptsUntilAsked(page: Page, order: string[]): Promise<void> {
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
  await page.route(/\/sign\/assets\/.*\.m?js$/, async (route) => {
    const name = new URL(route.request().url()).pathname.split('/').pop()!;
    if (name === 'pdf.worker.min.mjs') return route.continue();
    const held = await Promise.race([
      asked.then(() => 'after'),
      new Promise((r) => setTimeout(r, 10_000, 'timeout')),
    ]);
    order.push(`${name} released ${held}`);
    await route.continue();
  });
}

/** The embedded URL of a packet sent with the lease to sign. */
async function leaseLink(): Promise<string> {
  const created = await suite.sentBundle({
    label: 'Lease',
    packets: [{ key: 'ann', name: 'Ann Lee', email: 'ann@example.com', deliver_via: 'embed' }],
    document: 'lease',
    fields: [{ key: 'sig', kind: 'sig', page: 1, x: 10, y: 70, w: 30, h: 6, editors: ['ann'] }],
  });
  return suite.embedUrl(created.packets[0]!.id);
}

describe.runIf(runBrowser)('the signing page before its first page', () => {
  it('opens its session before any script file arrives, takes the state from it, and draws the document', async () => {
    const url = await leaseLink();
    // Tall enough for the first two pages to be near the screen at once.
    const context = await suite.browser.newContext({ viewport: { width: 1280, height: 1600 } });
    await context.addInitScript(NOTE_DRAWING);
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
    await holdScriptsUntilAsked(page, order);
    // The first state comes with the session: the page asks for no state of its own.
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.endsWith('/sign/api/state')) order.push('state asked');
    });
    await page.goto(url);
    await page.locator('.page.rendered').first().waitFor({ timeout: 30_000 });
    expect(order.filter((o) => o === 'session asked')).toHaveLength(1);
    const released = order.filter((o) => o.includes(' released '));
    expect(released.sort()).toEqual([
      'app.bundle.js released after',
      'i18next.js released after',
      'pdf.min.mjs released after',
    ]);
    // The scripts it loaded: the page's bundle, the libraries it imports at run time and pdf.js's
    // worker; none of its ~30 modules one by one.
    expect(scripts.sort()).toEqual(['app.bundle.js', 'i18next.js', 'pdf.min.mjs', 'pdf.worker.min.mjs']);
    // The worker starts before the page's own modules can run.
    expect(order.filter((o) => o === 'worker asked')).toHaveLength(1);
    expect(order).not.toContain('state asked');
    // The first document came with the session: the page asks for it no more.
    expect(sessionBody.document).toBe('lease');
    expect(order).not.toContain('document asked');
    // The first page on the screen is drawn before the next one starts: the two do not share
    // pdf.js's worker and the page's thread while the signer waits for the first.
    await page.locator('.page.rendered').nth(1).waitFor({ timeout: 30_000 });
    const drawing = (await page.evaluate('window.drawing')) as string[];
    expect(drawing.slice(0, 3)).toEqual(['page 1 started', 'page 1 drawn', 'page 2 started']);
    // A wide screen's dock is empty: its height is never set on the root, which would restyle
    // every element of the page while the first page waits.
    expect(await page.evaluate("document.documentElement.style.getPropertyValue('--dock-height')")).toBe('');
    // No script was refused (the CSP allows the inline one by its hash) and nothing failed.
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);

  it("hands pdf.js its first document before the page's message library arrives", async () => {
    const url = await leaseLink();
    const context = await suite.browser.newContext();
    let handed: () => void = () => undefined;
    const documentHanded = new Promise<void>((resolve) => {
      handed = resolve;
    });
    await context.exposeBinding('__documentHanded', () => handed());
    // pdf.js asks its worker to open a document with a GetDocRequest message.
    await context.addInitScript(`(() => {
      const post = Worker.prototype.postMessage;
      Worker.prototype.postMessage = function (message, ...rest) {
        if (message && message.action === 'GetDocRequest') window.__documentHanded();
        return post.call(this, message, ...rest);
      };
    })();`);
    const page = await context.newPage();
    const problems = watchProblems(page, { responses: true });
    // The message library, which i18n.js waits for before the page's other modules run, is held
    // until pdf.js has the document (or 10 s). The words themselves come in the page.
    let library = '';
    const asked: string[] = [];
    page.on('request', (r) => asked.push(new URL(r.url()).pathname));
    await page.route(/\/sign\/assets\/[^/]+\/i18next\.js$/, async (route) => {
      library = await Promise.race([
        documentHanded.then(() => 'released after the document was handed'),
        new Promise<string>((r) => setTimeout(r, 10_000, 'released after 10 s')),
      ]);
      await route.continue();
    });
    await page.goto(url);
    await page.locator('.page.rendered').first().waitFor({ timeout: 30_000 });
    expect(library).toBe('released after the document was handed');
    expect(asked.filter((p) => p.includes('/locales/'))).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);
});

/**
 * Notes what the signing page shows while it opens (public/opening.js), in order: whether the
 * root is held (`opening`) and the body hidden once the HTML is parsed, then each of: the hold
 * ending (`shown`), a page frame drawn, a full-page message built, each with performance.now().
 * Class changes are read from each change's old value, so their order is the order they happened.
 */
const NOTE_OPENING = `(() => {
  window.opening = { atParse: null, events: [] };
  const note = (what) => window.opening.events.push({ what, at: performance.now() });
  document.addEventListener('DOMContentLoaded', () => {
    window.opening.atParse = {
      held: document.documentElement.classList.contains('opening'),
      visibility: getComputedStyle(document.body).visibility,
    };
  });
  new MutationObserver((changes) => {
    for (const c of changes) {
      const old = c.oldValue ?? '';
      if (c.target === document.documentElement && c.attributeName === 'class' && old.includes('opening'))
        note('shown');
      if (c.attributeName === 'class' && c.target.matches('.page.rendered') && !old.includes('rendered'))
        note('page ' + ([...document.querySelectorAll('.page')].indexOf(c.target) + 1) + ' drawn');
      for (const n of c.addedNodes) if (n.querySelector && n.querySelector('#msg-title')) note('message');
    }
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeOldValue: true });
})();`;

type TOpening = {
  atParse: { held: boolean; visibility: string } | null;
  events: { what: string; at: number }[];
};

/**
 * Resolves once `expression`, evaluated in the page as page.evaluate evaluates it, is true; rejects
 * after `timeoutMs`. Not page.waitForFunction: given a string, it evaluates it with eval, which the
 * page's CSP refuses.
 */
async function until(page: Page, expression: string, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await page.evaluate(expression))) {
    if (Date.now() > end) throw new Error(`not true after ${timeoutMs} ms: ${expression}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The hold's cap in early-start.js: after it, the page shows what it has. */
const HOLD_CAP_MS = 1000;

describe.runIf(runBrowser)('the signing page while it opens', () => {
  it('paints nothing until its first page is drawn, then shows it with its title focused', async () => {
    const url = await leaseLink();
    const context = await suite.browser.newContext();
    await context.addInitScript(NOTE_OPENING);
    const page = await context.newPage();
    const problems = watchProblems(page, { responses: true });
    await page.goto(url);
    await page.locator('.page.rendered').first().waitFor({ timeout: 30_000 });
    await until(page, "document.activeElement?.id === 'doc-title'");
    const seen = (await page.evaluate('window.opening')) as TOpening;
    // Held from the start: the loading line is never painted on its way.
    expect(seen.atParse).toEqual({ held: true, visibility: 'hidden' });
    const whats = seen.events.map((e) => e.what);
    const shown = seen.events.find((e) => e.what === 'shown');
    expect(shown).toBeDefined();
    // Shown in the very task that drew the first page; only a first page later than the cap
    // (a busy machine) is shown by the cap instead, never earlier.
    if (whats.indexOf('page 1 drawn') < whats.indexOf('shown')) {
      expect(whats.slice(whats.indexOf('page 1 drawn'), whats.indexOf('page 1 drawn') + 2)).toEqual([
        'page 1 drawn',
        'shown',
      ]);
    } else {
      expect(shown!.at).toBeGreaterThanOrEqual(HOLD_CAP_MS);
    }
    expect(await page.evaluate('getComputedStyle(document.body).visibility')).toBe('visible');
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);

  it('shows what it has after a second when the first page is late, and a message at once', async () => {
    const url = await leaseLink();
    const context = await suite.browser.newContext();
    await context.addInitScript(NOTE_OPENING);
    const page = await context.newPage();
    // pdf.js is held until the page is shown (or 10 s): no page can be drawn before.
    let pdfjs = '';
    await page.route(/\/sign\/assets\/[^/]+\/pdf\.min\.mjs$/, async (route) => {
      pdfjs = await Promise.race([
        until(page, "!document.documentElement.classList.contains('opening')").then(
          () => 'released once shown',
        ),
        new Promise<string>((r) => setTimeout(r, 10_000, 'released after 10 s')),
      ]).catch((e) => `not released: ${e}`);
      await route.continue();
    });
    await page.goto(url);
    await page.locator('.page.rendered').first().waitFor({ timeout: 30_000 });
    expect(pdfjs).toBe('released once shown');
    const seen = (await page.evaluate('window.opening')) as TOpening;
    const whats = seen.events.map((e) => e.what);
    expect(whats.indexOf('shown')).toBeLessThan(whats.indexOf('page 1 drawn'));
    expect(seen.events.find((e) => e.what === 'shown')!.at).toBeGreaterThanOrEqual(HOLD_CAP_MS);
    // Its title takes the focus once it is shown (a hidden element takes none).
    await until(page, "document.activeElement?.id === 'doc-title'");

    // A session that cannot be opened: the message is shown as soon as it is built.
    const failing = await context.newPage();
    await failing.route(/\/sign\/api\/session$/, (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: '{"message":"busy"}' }),
    );
    await failing.goto(await leaseLink());
    await failing.locator('#msg-title').waitFor({ timeout: 30_000 });
    const failed = (await failing.evaluate('window.opening')) as TOpening;
    expect(failed.atParse?.held).toBe(true);
    expect(failed.events.map((e) => e.what).slice(0, 2)).toEqual(['shown', 'message']);
    expect(await failing.evaluate('document.activeElement?.id')).toBe('msg-title');
    await context.close();
  }, 60_000);

  it('never holds a page that runs no script', async () => {
    const url = await leaseLink();
    const context = await suite.browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(url);
    expect(await page.locator('noscript').count()).toBe(1);
    expect(await page.locator('body').isVisible()).toBe(true);
    expect(await page.locator('.loading').isVisible()).toBe(true);
    await context.close();
  }, 60_000);
});
