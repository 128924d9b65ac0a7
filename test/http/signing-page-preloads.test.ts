// The signing page names, in its head, everything its script needs before it can draw the first
// page, so the browser fetches it at once instead of one import level at a time: every module of
// the page's script (read from the modules' own imports), the message library, pdf.js, and the
// catalog of the page's language. Each named file is served.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signingAssets } from '#functions/public-pages/assets';
import { moduleGraph } from '#functions/public-pages/module-preloads';
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
  it("preloads its script's every module, i18next, pdf.js and its language's catalog", async () => {
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
    const preloaded = [...html.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)].map((m) =>
      m[1]!.slice(assets.length + 1),
    );
    // The graph as the modules' imports give it, checked here by hand for a few that sit deep in it.
    const graph = moduleGraph(signingAssets(), 'app.js');
    expect(graph).toEqual(
      expect.arrayContaining(['i18n.js', 'viewer.js', 'api.js', 'fields.js', 'guide.js']),
    );
    expect(graph).not.toContain('prepare.js');
    expect(preloaded.sort()).toEqual([...graph.slice(1), 'i18next.js', 'pdf.min.mjs'].sort());
    expect(html).toContain(
      `<link rel="preload" as="fetch" crossorigin="anonymous" href="${assets}/locales/de.json">`,
    );
    for (const name of [...preloaded, 'locales/de.json']) {
      const res = await fetch(`${runtime.baseUrl}${assets}/${name}`);
      expect(res.status, name).toBe(200);
    }
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
