// Taking text tags out of a document once their fields are placed, so that neither the signer
// nor anyone reading the final document sees "{{sig|signer=emp}}". Two steps, because neither
// alone is enough:
// - the tag's characters are blanked in the page's content stream where it writes them with a
//   one-byte encoding (what word processors and pdf-lib use for Latin text): text extraction,
//   search and copy no longer find the tag, and the layout does not move;
// - a white box is drawn over the tag's place: the tag disappears from view even where its text
//   could not be found in the stream (two-byte fonts, text inside form XObjects).
import {
  decodePDFRawStream,
  type PDFArray,
  PDFDocument,
  PDFFlateStream,
  PDFName,
  type PDFObject,
  type PDFPage,
  PDFRawStream,
  PDFStream,
  rgb,
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
 * Replaces with spaces the bytes of every shown string that spell one of `texts`, which may run
 * over several strings (a tag split across runs); spaces in the texts are not required to be in
 * the stream, since the text extractor may have inserted them for gaps. The page's content
 * streams are read as one (the PDF meaning of an array of them) and written back as one.
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
  const changed = new Set<number>();
  for (const text of new Set(texts.map((t) => t.replace(/\s+/g, '')))) {
    if (!text) continue;
    for (let i = shown.indexOf(text); i >= 0; i = shown.indexOf(text, i + text.length)) {
      for (const c of chars.slice(i, i + text.length)) {
        (tokens[c.token] as TStringToken).bytes[c.at] = 0x20;
        changed.add(c.token);
      }
    }
  }
  if (changed.size === 0) return;
  let out = '';
  let from = 0;
  tokens.forEach((t, i) => {
    if (!changed.has(i)) return;
    out += `${source.slice(from, t.start)}<${Buffer.from(t.bytes).toString('hex')}>`;
    from = t.end;
  });
  out += source.slice(from);
  const stream = page.doc.context.flateStream(Buffer.from(out, 'latin1'));
  page.node.set(PDFName.of('Contents'), page.doc.context.obj([page.doc.context.register(stream)]));
}

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
