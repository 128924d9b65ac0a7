// The console's build and the headers it is served with: every asset named by its content's hash
// and listed in the manifest, a page that names them with no inline code, and the policy that
// keeps inline code and framing out. Also the two pieces of the bundle list that read and write
// the API's wire format (its query string, its pagination header).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildConsole, type TConsoleBuild, writeConsole } from '#functions/console-app/build';
import { consoleCatalogOf } from '#functions/console-app/console-catalog';
import { consoleHeaders } from '#functions/console-app/serve';
import { bundleSearch, FIRST_QUERY } from '#functions/console-app/web/bundle-query';
import { parsePagination } from '#functions/console-app/web/pagination';
import type { TConfig } from '#shared/config';
import { LANGUAGES } from '#shared/i18n/languages';

const config: TConfig = {
  stage: 'test',
  region: 'us-east-1',
  tableName: 'table',
  bucketName: 'bucket',
  usagePlanId: 'plan',
  logLevel: 'silent',
  endpoints: {},
  secrets: { kind: 'local', key: Buffer.alloc(32).toString('base64') },
};

let built: TConsoleBuild;
beforeAll(async () => {
  built = await buildConsole();
});

describe('the console build', () => {
  it('names each asset by its content hash and lists every one in the manifest', () => {
    expect(built.manifest['main.js']).toMatch(/^main-[A-Z0-9]{8}\.js$/);
    expect(built.manifest['main.css']).toMatch(/^main-[A-Z0-9]{8}\.css$/);
    for (const lang of LANGUAGES)
      expect(built.manifest[`locales/${lang}.json`]).toMatch(
        new RegExp(`^locale-${lang}-[A-Za-z0-9]{12}\\.json$`),
      );
    expect(new Set(Object.values(built.manifest))).toEqual(new Set(built.assets.keys()));
    expect(built.assets.get(built.manifest['main.js']!)?.contentType).toBe('text/javascript; charset=utf-8');
  });

  it('builds the same names from the same sources, and a language file holds that language’s console words', async () => {
    const again = await buildConsole();
    expect(again.manifest).toEqual(built.manifest);
    const arabic = built.assets.get(built.manifest['locales/ar.json']!)!;
    expect(JSON.parse(Buffer.from(arabic.contents).toString('utf8'))).toEqual(consoleCatalogOf('ar'));
  });

  it('writes the page, the hashed assets and the manifest as the static host will serve them', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'console-build-'));
    try {
      writeConsole(built, dir);
      expect(readdirSync(dir).sort()).toEqual(['assets', 'index.html', 'manifest.json']);
      expect(readdirSync(path.join(dir, 'assets')).sort()).toEqual([...built.assets.keys()].sort());
      expect(JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8'))).toEqual(built.manifest);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('bundles only the browser code, its libraries and the pure language rules, no server code', () => {
    const outside = built.inputs.filter(
      (f) =>
        !f.startsWith('functions/console-app/web/') &&
        !/(^|\/)node_modules\/(preact|i18next|@simplewebauthn\/browser)\//.test(f) &&
        !f.startsWith('<define:') &&
        f !== 'shared/i18n/languages.ts',
    );
    expect(outside).toEqual([]);
    expect(built.inputs).toContain('shared/i18n/languages.ts');
  });

  it('answers a page that names the hashed script and stylesheet and carries no inline code', () => {
    const html = built.indexHtml;
    expect(html).toContain(
      `<script type="module" src="/console/assets/${built.manifest['main.js']}"></script>`,
    );
    expect(html).toContain(`<link rel="stylesheet" href="/console/assets/${built.manifest['main.css']}">`);
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>|<style|\sstyle=|\son[a-z]+=/i);
    // The script finds each catalog by its hashed name.
    const script = Buffer.from(built.assets.get(built.manifest['main.js']!)!.contents).toString('utf8');
    expect(script).toContain(`/console/assets/${built.manifest['locales/he.json']}`);
  });
});

describe('the console’s headers', () => {
  it('allow only the page’s own scripts and styles, no inline code, and no framing', () => {
    const headers = consoleHeaders(config);
    const csp = headers['Content-Security-Policy']!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(headers['X-Frame-Options']).toBe('DENY');
    expect(consoleHeaders(config, true)['Strict-Transport-Security']).toMatch(/^max-age=/);
  });
});

describe('the bundle list’s wire format', () => {
  it('asks List Bundles with its own parameters, leaving empty filters out', () => {
    expect(bundleSearch(FIRST_QUERY)).toBe('page=1&per_page=25&ordering=-created');
    expect(
      bundleSearch({ ...FIRST_QUERY, page: 3, search: '  lease ', status: 'co', ordering: '-sent' }),
    ).toBe('page=3&per_page=25&ordering=-sent&search=lease&status=co');
  });

  it('reads X-BlueInk-Pagination, and a missing or malformed one as a single page', () => {
    expect(parsePagination('2,7,25,160')).toEqual({ page: 2, pages: 7, perPage: 25, total: 160 });
    expect(parsePagination(null)).toEqual({ page: 1, pages: 1, perPage: 0, total: 0 });
    expect(parsePagination('2,x,25')).toEqual({ page: 1, pages: 1, perPage: 0, total: 0 });
  });
});
