// The API reference page (/docs) in a real headless Chromium: Swagger UI, served by the service
// itself from swagger-ui-dist, renders the service's own OpenAPI description with nothing fetched
// from anywhere else and nothing refused by the page's CSP.
import { describe, expect, it } from 'vitest';
import { axeViolations, describeViolations } from '../helpers/axe';
import { runBrowser, shot, watchProblems } from '../helpers/browser';
import { browserSuite } from '../helpers/browser-suite';

const suite = browserSuite();

describe.runIf(runBrowser)('the API reference page', () => {
  it('lists the operations from /api/v2/openapi.json, with no console errors and nothing from elsewhere', async () => {
    const page = await suite.browser.newPage();
    const problems = watchProblems(page, { responses: true });
    const elsewhere: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(suite.runtime.baseUrl) && !r.url().startsWith('data:')) elsewhere.push(r.url());
    });
    const fetched: string[] = [];
    page.on('response', (r) => fetched.push(`${r.status()} ${new URL(r.url()).pathname}`));
    const res = await page.goto(`${suite.runtime.baseUrl}/docs`);
    expect(res?.status()).toBe(200);

    // POST /bundles/ (the description's paths are written without the trailing slash; Swagger UI
    // breaks them with zero-width spaces).
    const postPaths = async () =>
      (await page.locator('.opblock-post .opblock-summary-path').allInnerTexts()).map((t) =>
        t.replace(/\u200b/g, ''),
      );
    await expect.poll(postPaths, { timeout: 15_000 }).toContain('/bundles');
    expect(fetched).toContain('200 /api/v2/openapi.json');
    expect(await page.locator('.opblock').count()).toBeGreaterThan(40);
    const createBundle = page.locator('.opblock-post').nth((await postPaths()).indexOf('/bundles'));
    expect(await createBundle.locator('.opblock-summary-method').innerText()).toBe('POST');
    // Opened, it shows the operation's request body as the description gives it.
    await createBundle.locator('.opblock-summary-control').click();
    await createBundle.locator('.opblock-body').waitFor({ timeout: 10_000 });
    expect(await createBundle.locator('.opblock-body').innerText()).toContain('application/json');
    await shot(page, 'api-docs.png');
    expect(problems).toEqual([]);
    expect(elsewhere).toEqual([]);
    await page.close();
  });

  it('meets WCAG 2.2 A/AA (axe), offers no Authorize button since it sends no request, opened or not', async () => {
    const context = await suite.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${suite.runtime.baseUrl}/docs`);
    await page.locator('.opblock').first().waitFor({ timeout: 15_000 });
    expect(await page.locator('.btn.authorize, .auth-wrapper button').count()).toBe(0);
    expect(await page.locator('.try-out__btn').count()).toBe(0);
    expect(describeViolations(await axeViolations(page))).toEqual([]);
    // An operation opened: its parameters, body and answers.
    await page.locator('.opblock-post .opblock-summary-control').first().click();
    await page.locator('.opblock-body').first().waitFor({ timeout: 10_000 });
    expect(await page.locator('.try-out__btn').count()).toBe(0);
    expect(describeViolations(await axeViolations(page))).toEqual([]);
    await context.close();
  }, 120_000);

  it('has, at /, a page of where things are that meets WCAG 2.2 A/AA (axe)', async () => {
    const context = await suite.browser.newContext();
    const page = await context.newPage();
    expect((await page.goto(`${suite.runtime.baseUrl}/`))?.status()).toBe(200);
    expect(await page.getByRole('link', { name: 'API reference' }).getAttribute('href')).toBe('/docs');
    expect(await page.getByRole('link', { name: 'Mailbox' }).getAttribute('href')).toBe('/dev/mailbox');
    expect(await page.getByRole('link', { name: 'Verify a document' }).getAttribute('href')).toBe('/verify');
    expect(describeViolations(await axeViolations(page))).toEqual([]);
    await context.close();
  }, 60_000);

  it('answers with the pages’ security headers, a title in the reader’s language, and no inline script', async () => {
    const res = await fetch(`${suite.runtime.baseUrl}/docs`, { headers: { 'accept-language': 'de' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    const html = await res.text();
    expect(html).toContain('<title>API-Referenz</title>');
    expect(html).not.toMatch(/<script>|<script(?![^>]*\bsrc=)[^>]*>/);
  });
});
