// The public pages' web fonts over real HTTP: a page in a language of another script than Latin
// links its script's style sheet, whose @font-face rules name font files the service answers
// (made from the repository's fonts on first request); a Latin page links none.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { sharedTestRuntime } from '../helpers/shared-runtime';

let runtime: TRuntime;
beforeAll(async () => {
  runtime = await sharedTestRuntime();
});
afterAll(() => runtime.stop());

const get = (path: string, accept?: string) =>
  fetch(`${runtime.baseUrl}${path}`, { headers: accept ? { 'accept-language': accept } : {} });

/** The web font style sheets a page links. */
async function fontSheets(path: string, accept?: string): Promise<string[]> {
  const html = await (await get(path, accept)).text();
  return [...html.matchAll(/<link rel="stylesheet" href="([^"]*\/sign\/fonts\/[^"]+)">/g)].map((m) => m[1]!);
}

/** The font files a style sheet's @font-face rules name, in the order declared, with their format. */
function fontFiles(css: string): { url: string; format: string; range: string }[] {
  return [...css.matchAll(/src: url\("([^"]+)"\) format\("([^"]+)"\);[^}]*unicode-range: ([^;]+);/g)].map(
    (m) => ({ url: m[1]!, format: m[2]!, range: m[3]! }),
  );
}

/** Whether `bytes` is a WOFF or WOFF2 file whose header says its own length and a font inside. */
function isWebFont(bytes: Buffer, format: string): boolean {
  const signature = format === 'woff2' ? 'wOF2' : 'wOFF';
  return (
    bytes.subarray(0, 4).toString('latin1') === signature &&
    // The header's length is the file's; the flavor is TrueType (0x00010000) or CFF ('OTTO').
    bytes.readUInt32BE(8) === bytes.length &&
    [0x00010000, 0x4f54544f].includes(bytes.readUInt32BE(4)) &&
    bytes.readUInt16BE(12) > 0
  );
}

const SCRIPTS = [
  ['ja', 'japanese', '署名'],
  ['zh-CN', 'chinese', '签署'],
  ['ar', 'arabic', 'توقيع'],
  ['hi', 'devanagari', 'हस्ताक्षर'],
  ['he', 'hebrew', 'חתימה'],
] as const;

describe('web fonts of the public pages', () => {
  it.each(SCRIPTS)(
    'a %s page links the %s style sheet, which names real fonts covering the language',
    async (lang, script, word) => {
      const verify = await fontSheets(`/verify?lang=${lang}`);
      const signing = await fontSheets('/sign/not-a-token', lang);
      // The signed copies' pages are built apart from the signing page; they read the same.
      const copies = await fontSheets(`/sign/copies/${'x'.repeat(43)}`, lang);
      expect(verify).toHaveLength(1);
      expect(verify[0]).toMatch(new RegExp(`^/sign/fonts/[0-9a-f]{16}/${script}\\.css$`));
      expect(signing).toEqual(verify);
      expect(copies).toEqual(verify);

      const sheet = await get(verify[0]!);
      expect(sheet.status).toBe(200);
      expect(sheet.headers.get('content-type')).toBe('text/css; charset=utf-8');
      expect(sheet.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      const css = await sheet.text();
      expect(css).toContain('--script-font:');
      const files = fontFiles(css);
      expect(files.length).toBeGreaterThan(0);
      // The last declared face, tried first, is the language's main file: it covers the word.
      const main = files.at(-1)!;
      expect(main.format).toBe('woff2');
      const covered = (range: string, ch: string) =>
        range.split(', ').some((r) => {
          const [from, to = from] = r
            .slice(2)
            .split('-')
            .map((h) => Number.parseInt(h, 16));
          return ch.codePointAt(0)! >= from! && ch.codePointAt(0)! <= to!;
        });
      for (const ch of word) expect(covered(main.range, ch), ch).toBe(true);
      const font = await get(new URL(main.url, `${runtime.baseUrl}${verify[0]}`).pathname);
      expect(font.status).toBe(200);
      expect(font.headers.get('content-type')).toBe('font/woff2');
      expect(isWebFont(Buffer.from(await font.arrayBuffer()), 'woff2')).toBe(true);
    },
    60_000,
  );

  it('serves the ideographs outside the catalog in files of their own, fetched only for them', async () => {
    const [href] = await fontSheets('/verify?lang=ja');
    const files = fontFiles(await (await get(href!)).text());
    const block = files.find((f) => f.url === 'japanese-1.woff')!;
    expect(block.range).toBe('U+3400-37FF');
    const font = await get(href!.replace('japanese.css', 'japanese-1.woff'));
    expect(font.status).toBe(200);
    expect(font.headers.get('content-type')).toBe('font/woff');
    expect(isWebFont(Buffer.from(await font.arrayBuffer()), 'woff')).toBe(true);
  }, 60_000);

  it('links no font on a Latin page, and answers 404 for a name or version it does not have', async () => {
    for (const lang of ['en', 'de', 'tr', 'pl']) {
      expect(await fontSheets(`/verify?lang=${lang}`), lang).toEqual([]);
      expect(await fontSheets('/sign/not-a-token', lang), lang).toEqual([]);
    }
    const [href] = await fontSheets('/verify?lang=ar');
    expect((await get(href!.replace('arabic.css', 'latin.css'))).status).toBe(404);
    expect((await get(href!.replace('arabic.css', '../../assets/app.css'))).status).toBe(404);
    expect((await get(href!.replace(/fonts\/[0-9a-f]+\//, 'fonts/0000000000000000/'))).status).toBe(404);
  });
});
