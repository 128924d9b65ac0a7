// The web fonts of the public pages (/sign/fonts/<version>/<name>): a reader without fonts for
// the page's script (no CJK font on many Linux desktops and kiosks) would see every character as
// a box. So a page in a language of another script than Latin links one style sheet, its script's,
// whose @font-face rules name subsets of the fonts the evidence PDFs embed (shared/pdf/fonts.ts)
// by `unicode-range`: the browser downloads only the files holding characters the page shows.
// Latin pages link none: every system has Latin fonts. The files are made from the font files by
// infra/web-fonts.ts (subsetting with HarfBuzz), at build time for Lambda (`web-fonts/` beside
// index.mjs, with a manifest) and on first request locally; nothing here is code of the entry
// bundle, and nothing is read before a page or a font is asked for.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TConfig } from '#shared/config';
import type { TRequest, TResponse } from '#shared/http/request';
import type { TRoute } from '#shared/http/router';
import type { TLanguage } from '#shared/i18n/languages';
import { esc } from './html';
import { fileNotFound, securityHeaders } from './security-headers';

/** The scripts that get a web font, each named after the style sheet that declares it. */
export type TWebFontScript = 'arabic' | 'devanagari' | 'hebrew' | 'japanese' | 'chinese';

/** The script of each language that needs one; the others are written in Latin. */
export const WEB_FONT_SCRIPT: Partial<Record<TLanguage, TWebFontScript>> = {
  ar: 'arabic',
  hi: 'devanagari',
  he: 'hebrew',
  ja: 'japanese',
  'zh-CN': 'chinese',
};

/** The folder beside the Lambda's index.mjs that holds the made files and their manifest. */
export const WEB_FONTS_DIR = 'web-fonts';
const MANIFEST = 'manifest.json';

export interface TWebFontStore {
  /** A hash of what the files are made from: part of their URLs, so they are cached for good. */
  version: string;
  /** A file's bytes (a style sheet or a font), or undefined for a name that is not one. */
  read(name: string): Promise<Buffer | undefined>;
}

let store: TWebFontStore | undefined;

/** The local runtime's store, which makes each file on first request (infra/web-fonts.ts). */
export function useWebFonts(source: TWebFontStore): void {
  store = source;
}

function bundledStore(dir: string): TWebFontStore {
  const manifest = JSON.parse(readFileSync(path.join(dir, MANIFEST), 'utf8')) as {
    version: string;
    files: string[];
  };
  const names = new Set(manifest.files);
  return {
    version: manifest.version,
    read: async (name) => (names.has(name) ? readFileSync(path.join(dir, name)) : undefined),
  };
}

/** The store: the one given by the runtime, else the files beside the bundle; none without either. */
function webFonts(): TWebFontStore | undefined {
  if (store) return store;
  const bundled = path.join(path.dirname(fileURLToPath(import.meta.url)), WEB_FONTS_DIR);
  if (existsSync(path.join(bundled, MANIFEST))) store = bundledStore(bundled);
  return store;
}

/** The `<link>` of the style sheet of `lang`'s script, or '' for a Latin one; `base` as the page's. */
export function webFontLink(base: string, lang: TLanguage): string {
  const script = WEB_FONT_SCRIPT[lang];
  const fonts = webFonts();
  if (!script || !fonts) return '';
  return `<link rel="stylesheet" href="${esc(`${base}/sign/fonts/${fonts.version}/${script}.css`)}">`;
}

const IMMUTABLE = 'public, max-age=31536000, immutable';
const TYPES: Record<string, string> = {
  '.css': 'text/css; charset=utf-8',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
};

/** The route that serves the files, with the pages' security headers. */
export const webFontRoutes = (config: TConfig): TRoute[] => [
  {
    method: 'GET',
    path: '/sign/fonts/{version}/{file}',
    handler: async (req: TRequest): Promise<TResponse> => {
      const fonts = webFonts();
      const name = req.params.file!;
      const type = TYPES[path.extname(name)];
      const bytes =
        fonts && type && req.params.version === fonts.version ? await fonts.read(name) : undefined;
      const headers = securityHeaders(config, { https: req.url.protocol === 'https:' });
      if (!bytes || !type) return fileNotFound(headers);
      // The version is a hash of what the files are made from: a URL's file never changes.
      return {
        status: 200,
        ...(name.endsWith('.css') ? { text: bytes.toString('utf8') } : { binary: bytes }),
        headers: { ...headers, 'Content-Type': type, 'Cache-Control': IMMUTABLE },
      };
    },
  },
];
