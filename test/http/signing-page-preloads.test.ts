// The signing page loads its own code as one script, the bundle of its modules (page-bundles.ts),
// and names in its head what that script needs at run time before it can draw the first page, so
// the browser fetches it at once: the message library and pdf.js. The catalog of the page's
// language comes in the page itself (page-words.ts). Each named file is served. Before all of
// them, one inline script starts the session and pdf.js's worker (early-start.ts), and the style
// sheet comes inline too (page-style.ts): the page's CSP allows exactly that script and that
// style sheet, each by its hash.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signingPageWords } from '#functions/public-pages/page-words';
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
  it("loads one bundle of its modules, preloads i18next and pdf.js, and carries its language's catalog", async () => {
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
    expect(named(/<script type="module" src="([^"]+)"/g)).toEqual(['app.bundle.js']);
    const preloaded = named(/<link rel="modulepreload" href="([^"]+)">/g);
    expect(preloaded.sort()).toEqual(['i18next.js', 'pdf.min.mjs']);
    // The words come with the page, as a data block the browser never runs: no request for them.
    expect(html).not.toContain('/locales/');
    const block = /<script type="application\/json" id="esign-catalog">([^<]*)<\/script>/.exec(html);
    const served = await fetch(`${runtime.baseUrl}${assets}/locales/de.json`);
    expect(served.status).toBe(200);
    // The signing page's sections of the language's catalog; the file has the other pages' too.
    const whole = (await served.json()) as Record<string, unknown>;
    expect(JSON.parse(block![1]!)).toEqual(signingPageWords(whole));
    expect(Object.keys(whole)).toContain('verify');
    for (const name of preloaded) {
      const res = await fetch(`${runtime.baseUrl}${assets}/${name}`);
      expect(res.status, name).toBe(200);
    }
    // The message library is served minified: its package ships it as written, comments and all.
    const library = await (await fetch(`${runtime.baseUrl}${assets}/i18next.js`)).text();
    const shipped = readFileSync('node_modules/i18next/dist/esm/i18next.js', 'utf8');
    expect(library.length).toBeLessThan(shipped.length * 0.7);
    expect(library).toMatch(/export\s*\{/);
    // The bundle holds the page's modules, found through their imports (those deep in the graph
    // and the rules shared with the service among them), early-session.js among them: it only
    // takes what the head's inline script started, so the page imports nothing of its own.
    const bundle = await (await fetch(`${runtime.baseUrl}${assets}/app.bundle.js`)).text();
    expect(bundle).not.toMatch(/from"\.\/[\w-]+\.js"/);
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
    expect(sources).toContain('early-session.js');
    expect(sources).not.toContain('prepare.js');
  });

  it('starts its session and pdf.js worker from one inline script, the only one its CSP allows', async () => {
    const call = apiClient(runtime);
    const created = await call('POST', '/bundles/', { json: anEmbeddedBundle(await aPdfB64()) });
    expect(created.status, created.text).toBe(201);
    const link = await call('POST', `/packets/${created.body.packets[0].id}/embed_url/`);
    const page = await fetch(link.body.url);
    expect(page.status).toBe(200);
    const html = await page.text();
    const inline = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    expect(inline).toHaveLength(1);
    // First in the head: no style sheet or script file before it to wait for.
    const head = html.slice(html.indexOf('<head>'), html.indexOf('</head>'));
    expect(head.indexOf('<script>')).toBeLessThan(head.indexOf('<link'));
    expect(inline[0]).toContain('/session');
    expect(inline[0]).toContain('pdf.worker.min.mjs');
    // What the browser hashes is the element's text as sent: its hash is the policy's only addition.
    const hash = `'sha256-${createHash('sha256').update(inline[0]!, 'utf8').digest('base64')}'`;
    const policy = page.headers.get('content-security-policy')!;
    const scriptSrc = policy.split('; ').find((d) => d.startsWith('script-src '));
    expect(scriptSrc).toBe(`script-src 'self' ${hash}`);
    expect(policy).not.toMatch(/unsafe-inline|unsafe-eval|nonce-/);
    // Its style sheet comes in its head too, allowed by its own hash: no request for it.
    const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]!);
    expect(styles).toHaveLength(1);
    const served = await (
      await fetch(`${runtime.baseUrl}${/data-assets="([^"]+)"/.exec(html)![1]}/app.css`)
    ).text();
    expect(styles[0]).toBe(served);
    expect(html).not.toContain('rel="stylesheet"');
    const styleHash = `'sha256-${createHash('sha256').update(styles[0]!, 'utf8').digest('base64')}'`;
    expect(policy.split('; ').find((d) => d.startsWith('style-src '))).toBe(`style-src 'self' ${styleHash}`);

    // A page with nothing to run (an unknown link) carries no inline script, and its policy no hash.
    const unknown = await fetch(`${runtime.baseUrl}/sign/${'x'.repeat(43)}`);
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).not.toContain('<script');
    expect(unknown.headers.get('content-security-policy')).toContain("script-src 'self';");
    // A clear page links the style sheet, and its policy allows no inline style.
    expect(unknown.headers.get('content-security-policy')).toContain("style-src 'self';");
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
