// poppler-utils (Debian's package; .ci/run installs it) read our PDFs from outside the project:
// pdftotext for the text a reader extracts, pdfsig for the seal, pdftoppm for how pages look.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

function withFile<T>(bytes: Uint8Array, use: (file: string, dir: string) => T): T {
  const dir = mkdtempSync(path.join(tmpdir(), 'poppler-'));
  try {
    const file = path.join(dir, 'in.pdf');
    writeFileSync(file, bytes);
    return use(file, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The text of every page, one string per page (pdftotext separates pages by form feeds). */
export function pageTexts(pdf: Uint8Array): string[] {
  return withFile(pdf, (file) =>
    execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' }),
  )
    .split('\f')
    .slice(0, -1);
}

/** All text, with runs of whitespace made single spaces. */
export function textOf(pdf: Uint8Array): string {
  return pageTexts(pdf).join(' ').replace(/\s+/g, ' ');
}

export interface TWordBox {
  word: string;
  page: number;
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
  pageWidth: number;
  pageHeight: number;
}

/**
 * Every word with its box, in points from the top-left of the page as displayed (the CropBox,
 * turned by /Rotate). The page size is pdftotext's: the CropBox's, not turned.
 */
export function wordBoxes(pdf: Uint8Array): TWordBox[] {
  const html = withFile(pdf, (file) =>
    execFileSync('pdftotext', ['-bbox', '-cropbox', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' }),
  );
  const out: TWordBox[] = [];
  let page = 0;
  let size = { w: 0, h: 0 };
  for (const line of html.split('\n')) {
    const p = /<page width="([\d.]+)" height="([\d.]+)">/.exec(line);
    if (p) {
      page++;
      size = { w: Number(p[1]), h: Number(p[2]) };
      continue;
    }
    const w = /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*)<\/word>/.exec(line);
    if (w) {
      out.push({
        word: w[5]!
          .replace(/&amp;/g, '&')
          .replace(/&lt;/g, '<')
          .replace(/&gt;/g, '>')
          .replace(/&quot;/g, '"'),
        page,
        xMin: Number(w[1]),
        yMin: Number(w[2]),
        xMax: Number(w[3]),
        yMax: Number(w[4]),
        pageWidth: size.w,
        pageHeight: size.h,
      });
    }
  }
  return out;
}

/** The files a PDF carries, as pdfdetach lists and saves them: name → bytes. */
export function attachedFiles(pdf: Uint8Array): Map<string, Buffer> {
  return withFile(pdf, (file, dir) => {
    const list = execFileSync('pdfdetach', ['-list', file], { encoding: 'utf8' });
    const names = [...list.matchAll(/^\s*(\d+):\s*(.+)$/gm)].map(
      (m) => [Number(m[1]), m[2]!.trim()] as const,
    );
    const out = new Map<string, Buffer>();
    for (const [n, name] of names) {
      const to = path.join(dir, `attachment-${n}`);
      execFileSync('pdfdetach', ['-save', String(n), '-o', to, file]);
      out.set(name, readFileSync(to));
    }
    return out;
  });
}

/** The base names of the fonts pdffonts lists (subset tags and pdf-lib's number suffix dropped). */
export function fontsOf(pdf: Uint8Array): string[] {
  const listing = withFile(pdf, (file) => execFileSync('pdffonts', [file], { encoding: 'utf8' }));
  const names = listing
    .split('\n')
    .slice(2)
    .map((line) => line.split(/\s+/)[0] ?? '')
    .filter((name) => name !== '')
    .map((name) => name.replace(/^[A-Z]{6}\+/, '').replace(/-\d+$/, ''));
  return [...new Set(names)].sort();
}

/** pdfsig's report (it exits non-zero for files without signatures, which is reported too). */
export function pdfsig(pdf: Uint8Array): string {
  return withFile(pdf, (file) => {
    const r = spawnSync('pdfsig', [file], { encoding: 'utf8' });
    return `${r.stdout}${r.stderr}`;
  });
}

/** One page of `file` rendered by pdftoppm at `dpi`, as PNG or as binary PGM (grey levels). */
function rasterise(file: string, dir: string, page: number, dpi: number, as: 'png' | 'gray'): Buffer {
  const prefix = path.join(dir, 'page');
  execFileSync('pdftoppm', [
    `-${as}`,
    '-r',
    String(dpi),
    '-f',
    String(page),
    '-l',
    String(page),
    '-singlefile',
    file,
    prefix,
  ]);
  return readFileSync(`${prefix}.${as === 'png' ? 'png' : 'pgm'}`);
}

/** One page as PNG at `dpi`, written to `to`. */
export function savePagePng(pdf: Uint8Array, page: number, to: string, dpi = 60): void {
  withFile(pdf, (file, dir) => {
    writeFileSync(to, rasterise(file, dir, page, dpi, 'png'));
  });
}

/** One page in grey levels (0 black … 255 white), row by row, at `dpi`. */
export function pageGrey(
  pdf: Uint8Array,
  page: number,
  dpi = 36,
): { width: number; height: number; at(x: number, y: number): number } {
  return withFile(pdf, (file, dir) => {
    const pgm = rasterise(file, dir, page, dpi, 'gray');
    // Binary PGM: "P5", width, height, maxval, one whitespace, then the pixels.
    const header = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(pgm.subarray(0, 64).toString('latin1'))!;
    const [width, height] = [Number(header[1]), Number(header[2])];
    const pixels = pgm.subarray(header[0].length);
    return { width, height, at: (x, y) => pixels[y * width + x]! };
  });
}

/** How many images pdfimages finds on the pages (soft masks not counted). */
export function imageCount(pdf: Uint8Array): number {
  const list = withFile(pdf, (file) => execFileSync('pdfimages', ['-list', file], { encoding: 'utf8' }));
  return list
    .split('\n')
    .slice(2)
    .filter((line) => /^\s*\d+\s+\d+\s+image\b/.test(line)).length;
}
