// Taking text tags out of a document once their fields are placed, so that neither the signer
// nor anyone reading the final document sees "{{sig|signer=emp}}". Two steps, because neither
// alone is enough:
// - the tag's characters are taken out of the page's content stream where it writes them with a
//   one-byte encoding (what word processors and pdf-lib use for Latin text), their width given
//   back as a TJ displacement where the font's widths are known (else they become blanks): text
//   extraction, search and copy no longer find the tag, and the text after it does not move;
// - a white box is drawn over the tag's place: the tag disappears from view even where its text
//   could not be found in the stream (two-byte fonts, text inside form XObjects).
import {
  decodePDFRawStream,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFFlateStream,
  PDFName,
  PDFNumber,
  type PDFObject,
  type PDFPage,
  PDFRawStream,
  PDFStream,
  rgb,
  StandardFontEmbedder,
  StandardFonts,
} from 'pdf-lib';
import type { TFoundTag } from './find-text';
import { boxOf, frameOf, inFrame } from './page-frame';

const OBJECTS_PER_TICK = 10_000;
// A little past the text's own box: anti-aliased glyph edges reach beyond it.
const MARGIN_POINTS = 0.75;

export async function hideTextTags(bytes: Uint8Array, tags: TFoundTag[]): Promise<Uint8Array> {
  if (tags.length === 0) return bytes;
  const doc = await PDFDocument.load(bytes, { updateMetadata: false, parseSpeed: OBJECTS_PER_TICK });
  const pages = doc.getPages();
  const byPage = new Map<number, TFoundTag[]>();
  for (const t of tags) byPage.set(t.page, [...(byPage.get(t.page) ?? []), t]);
  for (const [pageNumber, onPage] of byPage) {
    const page = pages[pageNumber - 1];
    if (!page) continue;
    blankInContent(
      page,
      onPage.map((t) => t.text),
    );
    const frame = frameOf(page);
    inFrame(page, frame, () => {
      for (const { box } of onPage) {
        const r = boxOf(frame, box);
        page.drawRectangle({
          x: r.x - MARGIN_POINTS,
          y: r.y - MARGIN_POINTS,
          width: r.width + 2 * MARGIN_POINTS,
          height: r.height + 2 * MARGIN_POINTS,
          color: rgb(1, 1, 1),
        });
      }
    });
  }
  return doc.save({ objectsPerTick: OBJECTS_PER_TICK });
}

interface TStringToken {
  start: number;
  end: number;
  bytes: number[];
}

/**
 * Takes out of the page's content the bytes of every shown string that spell one of `texts`,
 * which may run over several strings (a tag split across runs); spaces in the texts are not
 * required to be in the stream, since the text extractor may have inserted them for gaps. The
 * page's content streams are read as one (the PDF meaning of an array of them) and written back
 * as one.
 */
function blankInContent(page: PDFPage, texts: string[]): void {
  const content = contentOf(page);
  if (content === undefined) return;
  const source = Buffer.from(content).toString('latin1');
  const tokens = stringTokens(source);
  // The shown characters that are not spaces, each with its token and byte.
  const chars: { token: number; at: number; ch: string }[] = [];
  tokens.forEach((t, token) => {
    t.bytes.forEach((b, at) => {
      if (b !== 0x20) chars.push({ token, at, ch: String.fromCharCode(b) });
    });
  });
  const shown = chars.map((c) => c.ch).join('');
  // Per token, the bytes that belong to a tag (with the spaces between them in that token).
  const removed = new Map<number, Set<number>>();
  for (const text of new Set(texts.map((t) => t.replace(/\s+/g, '')))) {
    if (!text) continue;
    for (let i = shown.indexOf(text); i >= 0; i = shown.indexOf(text, i + text.length)) {
      const matched = chars.slice(i, i + text.length);
      matched.forEach((c, k) => {
        const set = removed.get(c.token) ?? new Set<number>();
        removed.set(c.token, set);
        const prev = matched[k - 1];
        const from = prev && prev.token === c.token ? prev.at + 1 : c.at;
        for (let at = from; at <= c.at; at++) set.add(at);
      });
    }
  }
  if (removed.size === 0) return;
  const fonts = fontsOf(page, source);
  let out = '';
  let from = 0;
  tokens.forEach((t, i) => {
    const gone = removed.get(i);
    if (!gone) return;
    out += source.slice(from, t.start);
    from = t.end;
    const after = /^\s*(Tj|.)/s.exec(source.slice(t.end, t.end + 8))?.[1] ?? '';
    const inArray =
      /^[<([\]\d.+-]$/.test(after) && !source.startsWith('<<', t.end + source.slice(t.end).search(/\S/));
    const widthOf = fonts(t.start);
    const parts = after === 'Tj' || inArray ? withoutBytes(t.bytes, gone, widthOf) : undefined;
    if (parts === undefined) {
      // Where the removed width cannot be given back, blanks keep the text in its run.
      out += hex(t.bytes.map((b, at) => (gone.has(at) ? 0x20 : b)));
    } else if (after === 'Tj') {
      out += `[${parts}] TJ`;
      from = t.end + source.slice(t.end).indexOf('Tj') + 2;
    } else out += parts;
  });
  out += source.slice(from);
  const stream = page.doc.context.flateStream(Buffer.from(out, 'latin1'));
  page.node.set(PDFName.of('Contents'), page.doc.context.obj([page.doc.context.register(stream)]));
}

const hex = (bytes: number[]) => `<${Buffer.from(bytes).toString('hex')}>`;

/**
 * A string's kept bytes with the removed ones replaced by a TJ displacement of their width, so
 * that what follows stays where it was: TJ numbers are thousandths of the font size, the unit of
 * glyph widths, so no size or matrix is needed. Undefined when the font's widths are unknown.
 */
function withoutBytes(
  bytes: number[],
  gone: ReadonlySet<number>,
  widthOf: ((bytes: number[]) => number | undefined) | undefined,
): string | undefined {
  if (!widthOf) return undefined;
  const parts: string[] = [];
  let run: number[] = [];
  let removing = gone.has(0);
  const flush = () => {
    if (run.length === 0) return true;
    if (!removing) parts.push(hex(run));
    else {
      const width = widthOf(run);
      if (width === undefined) return false;
      parts.push(String(-Math.round(width * 1000) / 1000));
    }
    run = [];
    return true;
  };
  for (let at = 0; at < bytes.length; at++) {
    if (gone.has(at) !== removing) {
      if (!flush()) return undefined;
      removing = gone.has(at);
    }
    run.push(bytes[at] as number);
  }
  if (!flush()) return undefined;
  return parts.join(' ');
}

/**
 * The glyph widths (thousandths of the font size) of the font selected (Tf) at a place in the
 * content: from a simple font's /Widths, or the metrics of the standard 14 fonts. Two-byte
 * (Type0) fonts and fonts not found give undefined.
 */
function fontsOf(page: PDFPage, source: string) {
  const selections = [...source.matchAll(/\/([^\s/[\]<>(){}%]+)\s+[-+\d.]+\s+Tf\b/g)].map(
    (m) => [m.index, m[1] as string] as const,
  );
  const fonts = page.node.Resources()?.lookupMaybe(PDFName.of('Font'), PDFDict);
  return (at: number) => {
    const name = selections.filter(([i]) => i < at).at(-1)?.[1];
    const font = name ? fonts?.lookupMaybe(PDFName.of(decodeName(name)), PDFDict) : undefined;
    return font ? widthsOf(font) : undefined;
  };
}

function widthsOf(font: PDFDict): ((bytes: number[]) => number | undefined) | undefined {
  const subtype = font.lookupMaybe(PDFName.of('Subtype'), PDFName)?.asString();
  if (subtype === '/Type0' || subtype === '/Type3') return undefined;
  const widths = font.lookupMaybe(PDFName.of('Widths'), PDFArray);
  const first = font.lookupMaybe(PDFName.of('FirstChar'), PDFNumber)?.asNumber();
  if (widths && first !== undefined) {
    return (bytes) => {
      let sum = 0;
      for (const b of bytes) {
        const w = font.context.lookupMaybe(widths.get(b - first), PDFNumber)?.asNumber();
        if (w === undefined) return undefined;
        sum += w;
      }
      return sum;
    };
  }
  const base = font.lookupMaybe(PDFName.of('BaseFont'), PDFName)?.decodeText();
  if (!base || !(Object.values(StandardFonts) as string[]).includes(base)) return undefined;
  // StandardFonts names the same fonts as the embedder's own (unexported) enum.
  const embedder = StandardFontEmbedder.for(
    base as unknown as Parameters<typeof StandardFontEmbedder.for>[0],
  );
  return (bytes) => {
    try {
      // Glyph by glyph: the embedder's width of a string adds kerning, which a PDF viewer does not.
      return bytes.reduce((sum, b) => sum + embedder.widthOfTextAtSize(String.fromCharCode(b), 1000), 0);
    } catch {
      return undefined;
    }
  };
}

/** A content stream's name token, its #xx escapes decoded. */
const decodeName = (name: string) =>
  name.replace(/#([0-9a-fA-F]{2})/g, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16)));

/** The page's content, its streams decoded and joined; undefined when one cannot be decoded. */
function contentOf(page: PDFPage): Uint8Array | undefined {
  const contents = page.node.Contents();
  if (!contents) return undefined;
  const items: (PDFObject | undefined)[] =
    contents instanceof PDFStream
      ? [contents]
      : (contents as PDFArray).asArray().map((r) => page.doc.context.lookup(r));
  const parts: Buffer[] = [];
  for (const item of items) {
    try {
      // pdf-lib's own streams (the q … Q it wraps a loaded page's content in) are not yet encoded.
      if (item instanceof PDFRawStream) parts.push(Buffer.from(decodePDFRawStream(item).decode()));
      else if (item instanceof PDFFlateStream) parts.push(Buffer.from(item.getUnencodedContents()));
      else return undefined;
      parts.push(Buffer.from('\n'));
    } catch {
      return undefined;
    }
  }
  return Buffer.concat(parts);
}

/**
 * The string operands of a content stream — literal "(…)" and hex "<…>" — with their places.
 * Comments are skipped, and an inline image's data (ID … EI) too, since its bytes are no syntax.
 */
function stringTokens(s: string): TStringToken[] {
  const tokens: TStringToken[] = [];
  let i = 0;
  while (i < s.length) {
    const c = s[i];
    if (c === '%') {
      while (i < s.length && s[i] !== '\n' && s[i] !== '\r') i++;
    } else if (c === '(') {
      const start = i;
      const bytes: number[] = [];
      let depth = 1;
      i++;
      while (i < s.length && depth > 0) {
        const ch = s[i] as string;
        if (ch === '\\') {
          const next = s[i + 1] ?? '';
          const escapes: Record<string, number> = {
            n: 10,
            r: 13,
            t: 9,
            b: 8,
            f: 12,
            '(': 40,
            ')': 41,
            '\\': 92,
          };
          if (next in escapes) {
            bytes.push(escapes[next] as number);
            i += 2;
          } else if (/[0-7]/.test(next)) {
            const octal = /^[0-7]{1,3}/.exec(s.slice(i + 1, i + 4))?.[0] ?? '0';
            bytes.push(Number.parseInt(octal, 8) & 0xff);
            i += 1 + octal.length;
          } else if (next === '\r' || next === '\n') {
            i += next === '\r' && s[i + 2] === '\n' ? 3 : 2;
          } else i++;
          continue;
        }
        if (ch === '(') depth++;
        else if (ch === ')' && --depth === 0) break;
        bytes.push(ch.charCodeAt(0));
        i++;
      }
      tokens.push({ start, end: i + 1, bytes });
      i++;
    } else if (c === '<' && s[i + 1] === '<') {
      i += 2;
    } else if (c === '<') {
      const close = s.indexOf('>', i);
      const end = close < 0 ? s.length : close;
      const hex = s.slice(i + 1, end).replace(/[^0-9a-fA-F]/g, '');
      const padded = hex.length % 2 ? `${hex}0` : hex;
      tokens.push({ start: i, end: end + 1, bytes: [...Buffer.from(padded, 'hex')] });
      i = end + 1;
    } else if (c === 'I' && s[i + 1] === 'D' && /\s/.test(s[i + 2] ?? '') && /\s/.test(s[i - 1] ?? ' ')) {
      const ei = /\sEI(?=\s|$)/g;
      ei.lastIndex = i + 3;
      i = ei.exec(s) ? ei.lastIndex : s.length;
    } else i++;
  }
  return tokens;
}
