// The console's files as the local runtime serves them: the page at every console path, revalidated
// on each load; its hashed assets cached for a year; the pages' security headers on both; and
// /console/api/ left to the console's session endpoints.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { sharedTestRuntime } from '../helpers/shared-runtime';

let runtime: TRuntime;
beforeAll(async () => {
  runtime = await sharedTestRuntime();
});
afterAll(() => runtime?.stop());

const get = (path: string, init: RequestInit = {}) =>
  fetch(`${runtime.baseUrl}${path}`, { redirect: 'manual', ...init });

function expectPolicy(res: Response) {
  const csp = res.headers.get('content-security-policy') ?? '';
  expect(csp).toContain("script-src 'self'");
  expect(csp).not.toContain('unsafe-inline');
  expect(csp).toContain("frame-ancestors 'none'");
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
}

describe('the console at /console/', () => {
  it('answers its page at every console path, never cached without asking again', async () => {
    const pages = await Promise.all(
      ['/console/', '/console/bundles/abc', '/console/sign-in/x1'].map((p) => get(p)),
    );
    const bodies = await Promise.all(pages.map((r) => r.text()));
    for (const res of pages) {
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expectPolicy(res);
    }
    expect(new Set(bodies).size).toBe(1);
    expect(bodies[0]).toMatch(/<script type="module" src="\/console\/assets\/main-[A-Z0-9]+\.js">/);
    const bare = await get('/console');
    expect(bare.status).toBe(308);
    expect(bare.headers.get('location')).toBe('/console/');
  });

  it('serves the hashed assets the page names for a year, and no others', async () => {
    const html = await (await get('/console/')).text();
    const script = /src="(\/console\/assets\/[^"]+\.js)"/.exec(html)![1]!;
    const style = /href="(\/console\/assets\/[^"]+\.css)"/.exec(html)![1]!;
    const [js, css] = await Promise.all([get(script), get(style)]);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expectPolicy(js);
    expect((await js.text()).length).toBeGreaterThan(1000);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(css.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const stale = await get('/console/assets/main-OLDBUILD.js');
    expect(stale.status).toBe(404);
    expect(stale.headers.get('cache-control')).toBe('no-cache');
  });

  it('leaves /console/api/ to the session endpoints, and / leads to the console', async () => {
    const api = await get('/console/api/session');
    expect(api.headers.get('content-type') ?? '').not.toContain('text/html');
    const home = await (await get('/')).text();
    expect(home).toContain('<a class="start" href="/console/">');
  });
});
