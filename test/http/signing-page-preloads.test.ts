// The signing page loads its own code as one script, the bundle of its modules (page-bundles.ts),
// and names in its head what that script needs at run time before it can draw the first page, so
// the browser fetches it at once: the message library, pdf.js and the catalog of the page's
// language. Each named file is served.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { anEmbeddedBundle, aPdfB64 } from '../helpers/bundles';
import { apiClient } from '../helpers/runtime';
import { sharedTestRuntime } from '../helpers/shared-runtime';

let runtime: TRuntime;
beforeAll(async () => {
  runtime = await sharedTestRuntime();
});
afterAll(() => runtime.stop());

describe('the signing page', () => {
  it("loads one bundle of its modules and preloads i18next, pdf.js and its language's catalog", async () => {
    const call = apiClient(runtime);
    const created = await call('POST', '/bundles/', {
      json: { ...anEmbeddedBundle(await aPdfB64()), language: 'de' },
    });
    expect(created.status, created.text).toBe(201);
    const link = await call('POST', `/packets/${created.body.packets[0].id}/embed_url/`);
    expect(link.status).toBe(201);
    const page = await fetch(link.body.url);
    expect(page.status).toBe(200);
    const html = await page.text();
    const assets = /data-assets="([^"]+)"/.exec(html)![1]!;
    const named = (re: RegExp) => [...html.matchAll(re)].map((m) => m[1]!.slice(assets.length + 1));
    expect(named(/<script type="module" src="([^"]+)"/g)).toEqual(['early-session.js', 'app.bundle.js']);
    const preloaded = named(/<link rel="modulepreload" href="([^"]+)">/g);
    expect(preloaded.sort()).toEqual(['i18next.js', 'pdf.min.mjs']);
    expect(html).toContain(
      `<link rel="preload" as="fetch" crossorigin="anonymous" href="${assets}/locales/de.json">`,
    );
    for (const name of [...preloaded, 'locales/de.json']) {
      const res = await fetch(`${runtime.baseUrl}${assets}/${name}`);
      expect(res.status, name).toBe(200);
    }
    // The bundle holds the page's modules, found through their imports (those deep in the graph
    // and the rules shared with the service among them), and leaves early-session.js, which the
    // head already runs, to the browser: one instance of it, one session exchange.
    const bundle = await (await fetch(`${runtime.baseUrl}${assets}/app.bundle.js`)).text();
    expect(bundle).toMatch(/from"\.\/early-session\.js"/);
    const map = await fetch(`${runtime.baseUrl}${assets}/app.bundle.js.map`);
    expect(map.headers.get('content-type')).toBe('application/json');
    const sources = ((await map.json()) as { sources: string[] }).sources.map((s) => s.split('/').pop());
    expect(sources).toEqual(
      expect.arrayContaining([
        'app.js',
        'i18n.js',
        'viewer.js',
        'api.js',
        'fields.js',
        'guide.js',
        'value-rules.js',
      ]),
    );
    expect(sources).not.toContain('early-session.js');
    expect(sources).not.toContain('prepare.js');
  });

  it('names every language of its menu in its own words, so the page need not work them out', async () => {
    const call = apiClient(runtime);
    const created = await call('POST', '/bundles/', { json: anEmbeddedBundle(await aPdfB64()) });
    expect(created.status, created.text).toBe(201);
    const link = await call('POST', `/packets/${created.body.packets[0].id}/embed_url/`);
    const html = await (await fetch(link.body.url)).text();
    const tags = /data-languages="([^"]+)"/.exec(html)![1]!.split(' ');
    const names = /data-language-names="([^"]+)"/.exec(html)![1]!.split('|');
    expect(names).toHaveLength(tags.length);
    const named = Object.fromEntries(tags.map((tag, i) => [tag, names[i]]));
    expect(named).toMatchObject({ en: 'English', de: 'Deutsch', ar: 'العربية', ja: '日本語' });
  });
});
