import { createHash, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { PageSizes, PDFDocument, type PDFFont, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { DomMatrix2d } from '#shared/pdf/dom-matrix-shim';
import { findText, type TTextHit } from '#shared/pdf/find-text';
import { inspectPdf, PdfRejectedError, type TPdfRejectionReason } from '#shared/pdf/inspect-pdf';
import {
  aCorruptPdf,
  anEncryptedPdf,
  aPdf,
  aPdfBomb,
  aPdfWithContentStreamBomb,
  aPdfWithCyclicPageTree,
  aPdfWithInheritedPageAttributes,
  aPdfWithObjectStreamBomb,
  type TTextSpec,
} from '../helpers/pdfs';

const limits = { maxPages: 100 };

async function refusal(bytes: Uint8Array, maxPages = limits.maxPages, extra = {}): Promise<PdfRejectedError> {
  try {
    await inspectPdf(bytes, { maxPages, ...extra });
  } catch (err) {
    expect(err).toBeInstanceOf(PdfRejectedError);
    const rejected = err as PdfRejectedError;
    expect(rejected.name).toBe('PdfRejectedError');
    expect(rejected.message.length).toBeGreaterThan(10);
    return rejected;
  }
  return expect.unreachable('the file was accepted');
}

const reasonOf = async (bytes: Uint8Array, maxPages?: number): Promise<TPdfRejectionReason> =>
  (await refusal(bytes, maxPages)).reason;

describe('inspectPdf', () => {
  it("records the SHA-256 of the bytes as uploaded, as node:crypto's hex digest", async () => {
    const bytes = await aPdf();
    const info = await inspectPdf(bytes, limits);
    expect(info.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(info.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('measures mixed A4, Letter and custom pages in points', async () => {
    const info = await inspectPdf(
      await aPdf({ pages: [{ size: 'A4' }, { size: 'Letter' }, { size: [300, 500] }] }),
      limits,
    );
    expect(info.pageCount).toBe(3);
    expect(info.pages).toEqual([
      { width: PageSizes.A4[0], height: PageSizes.A4[1] },
      { width: 612, height: 792 },
      { width: 300, height: 500 },
    ]);
  });

  it('gives the size as displayed for rotated pages: a quarter turn swaps width and height', async () => {
    const info = await inspectPdf(
      await aPdf({
        pages: [
          { size: 'Letter', rotate: 90 },
          { size: 'Letter', rotate: 180 },
          { size: 'Letter', rotate: 270 },
        ],
      }),
      limits,
    );
    expect(info.pages).toEqual([
      { width: 792, height: 612 },
      { width: 612, height: 792 },
      { width: 792, height: 612 },
    ]);
  });

  it('uses the CropBox, clipped to the MediaBox, and turns it with the page', async () => {
    const info = await inspectPdf(
      await aPdf({
        pages: [
          { size: [300, 500], cropBox: [10, 20, 100, 200] },
          { size: [300, 500], cropBox: [250, 450, 100, 100] },
          { size: [300, 500], cropBox: [10, 20, 100, 200], rotate: 270 },
        ],
      }),
      limits,
    );
    expect(info.pages).toEqual([
      { width: 100, height: 200 },
      { width: 50, height: 50 },
      { width: 200, height: 100 },
    ]);
  });

  it('inherits MediaBox and Rotate from the page tree, and lets a page override them', async () => {
    const info = await inspectPdf(aPdfWithInheritedPageAttributes(), limits);
    expect(info.pages).toEqual([
      { width: 600, height: 400 },
      { width: 200, height: 300 },
    ]);
  });

  it('refuses an empty file', async () => {
    expect(await reasonOf(new Uint8Array())).toBe('empty');
  });

  it('refuses files that are not PDFs: a PNG, plain text', async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48]);
    expect(await reasonOf(png)).toBe('not_pdf');
    expect(await reasonOf(new TextEncoder().encode('Dear customer, please sign.'))).toBe('not_pdf');
  });

  it('refuses a truncated upload as corrupt', async () => {
    expect(await reasonOf(await aCorruptPdf())).toBe('corrupt');
  });

  it('refuses garbage between a PDF header and an end marker as corrupt', async () => {
    const framed = (body: Uint8Array) =>
      new Uint8Array(Buffer.concat([Buffer.from('%PDF-1.7\n'), body, Buffer.from('\n%%EOF\n')]));
    expect(await reasonOf(framed(randomBytes(2_000_000)))).toBe('corrupt');
    expect(await reasonOf(framed(Buffer.from('1 0 obj\n'.repeat(100_000))))).toBe('corrupt');
    expect(await reasonOf(framed(Buffer.from(`1 0 obj\n${'['.repeat(100_000)}`)))).toBe('corrupt');
    const whole = Buffer.from(await aPdf({ pages: [{ size: 'A4' }, { size: 'Letter' }] }));
    whole.fill('#', 200, whole.length - 200);
    expect(await reasonOf(new Uint8Array(whole))).toBe('corrupt');
  });

  it('never fails with anything but PdfRejectedError, however a real PDF is damaged; nor does findText', async () => {
    const original = await aPdf({
      pages: [
        { size: 'A4', text: [{ value: 'Hello', x: 72, y: 700, size: 12 }] },
        { size: 'Letter', rotate: 90 },
      ],
    });
    const outcomes = { accepted: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.nat({ max: original.length - 1 }), fc.integer({ min: 0, max: 255 })), {
          maxLength: 20,
        }),
        // Half of the files keep their whole body, half are cut anywhere.
        fc.oneof(fc.constant(original.length), fc.nat({ max: original.length })),
        async (changes, cut) => {
          const damaged = Buffer.concat([
            Buffer.from(original.subarray(0, Math.max(cut, 16))),
            Buffer.from('\n%%EOF\n'),
          ]);
          for (const [at, byte] of changes) if (at < damaged.length) damaged[at] = byte;
          const bytes = new Uint8Array(damaged);
          try {
            expect((await inspectPdf(bytes, limits)).pageCount).toBeGreaterThan(0);
            outcomes.accepted++;
          } catch (err) {
            expect(err).toBeInstanceOf(PdfRejectedError);
            outcomes.refused++;
          }
          await findText(bytes, ['Hello']).catch((err: unknown) =>
            expect(err).toBeInstanceOf(PdfRejectedError),
          );
        },
      ),
      { numRuns: 150 },
    );
    expect(outcomes.accepted).toBeGreaterThan(0);
    expect(outcomes.refused).toBeGreaterThan(0);
  });

  it('refuses an encrypted PDF, which pdf-lib loads when told to ignore encryption', async () => {
    const bytes = anEncryptedPdf();
    // Why inspectPdf checks itself: pdf-lib refuses only by default, and with its own error type.
    await expect(PDFDocument.load(bytes)).rejects.toThrow(/is encrypted/);
    expect((await PDFDocument.load(bytes, { ignoreEncryption: true })).isEncrypted).toBe(true);
    expect(await reasonOf(bytes)).toBe('encrypted');
  });

  it('refuses a document without pages', async () => {
    expect(await reasonOf(await aPdf({ pages: [] }))).toBe('no_pages');
  });

  it('refuses more than maxPages pages, and accepts exactly maxPages', async () => {
    const three = await aPdf({ pages: [{ size: 'A4' }, { size: 'A4' }, { size: 'A4' }] });
    expect(await reasonOf(three, 2)).toBe('too_many_pages');
    expect((await inspectPdf(three, { maxPages: 3 })).pageCount).toBe(3);
  });

  it('refuses a page-tree bomb claiming a million pages by its count, without walking it', async () => {
    const bomb = aPdfBomb(1_000_000);
    expect(bomb.length).toBeLessThan(2000);
    expect(await reasonOf(bomb, 5000)).toBe('too_many_pages');
  });

  it('refuses the same bomb when it hides its count: each node is visited once', async () => {
    expect(await reasonOf(aPdfBomb(1_000_000, { declareCount: false }), 5000)).toBe('corrupt');
  });

  it('refuses a page tree that loops back on itself', async () => {
    expect(await reasonOf(aPdfWithCyclicPageTree())).toBe('corrupt');
  });

  it('refuses object streams that would expand past the cap, and accepts ordinary ones under it', async () => {
    const cap = { maxObjectStreamBytes: 2 ** 20 };
    const bomb = aPdfWithObjectStreamBomb(8 * 2 ** 20);
    expect(bomb.length).toBeLessThan(4000);
    expect((await refusal(bomb, limits.maxPages, cap)).reason).toBe('corrupt');
    // pdf-lib writes its own files with object streams, so this one goes through the measuring.
    const ordinary = await aPdf({
      pages: [{ size: 'A4', text: [{ value: 'Hi', x: 72, y: 700, size: 12 }] }],
    });
    expect(Buffer.from(ordinary).includes('/ObjStm')).toBe(true);
    expect((await inspectPdf(ordinary, { ...limits, ...cap })).pageCount).toBe(1);
  });
});

const metrics = await PDFDocument.create();
const helvetica = await metrics.embedFont(StandardFonts.Helvetica);
const helveticaBold = await metrics.embedFont(StandardFonts.HelveticaBold);
const times = await metrics.embedFont(StandardFonts.TimesRoman);
const courier = await metrics.embedFont(StandardFonts.Courier);
/** Width as drawn: pdf-lib's widthOfTextAtSize adds kerning, which its drawText does not apply. */
const widthOf = (font: PDFFont, text: string, size: number) =>
  [...text].reduce((w, c) => w + font.widthOfTextAtSize(c, size), 0);
// Helvetica's ascent and descent as fractions of the font size: a hit's box spans them.
const ASCENT = 0.718;
const DESCENT = -0.207;
const A4 = { width: PageSizes.A4[0], height: PageSizes.A4[1] };

/** The hit expected for Helvetica text drawn upright at (x, y) on an unrotated page. */
function upright(
  page: number,
  text: TTextSpec,
  size: { width: number; height: number },
  before = '',
): TTextHit {
  const left = text.x + widthOf(helvetica, before, text.size);
  return {
    page,
    x: (left / size.width) * 100,
    y: ((size.height - (text.y + ASCENT * text.size)) / size.height) * 100,
    w: (widthOf(helvetica, text.value.slice(before.length), text.size) / size.width) * 100,
    h: (((ASCENT - DESCENT) * text.size) / size.height) * 100,
  };
}

function expectNear(actual: TTextHit[] | undefined, expected: TTextHit[], tolerance = 0.02) {
  expect(actual).toHaveLength(expected.length);
  expected.forEach((e, i) => {
    const a = actual![i]!;
    expect(a.page).toBe(e.page);
    for (const k of ['x', 'y', 'w', 'h'] as const) {
      expect(Math.abs(a[k] - e[k]), `hit ${i} ${k}: ${a[k]} vs ${e[k]}`).toBeLessThanOrEqual(tolerance);
    }
  });
}

describe('findText', () => {
  it('gives each hit in percent of the page, from its top-left corner to the text box', async () => {
    const text = { value: '{{sig}}', x: 72, y: 700, size: 12 };
    const hits = await findText(await aPdf({ pages: [{ size: 'A4', text: [text] }] }), ['{{sig}}']);
    expectNear(hits.get('{{sig}}'), [upright(1, text, A4)]);
  });

  it('places a hit inside a longer run of text', async () => {
    const text = { value: 'Sign here: {{sig}}', x: 100, y: 400, size: 14 };
    const hits = await findText(await aPdf({ pages: [{ size: 'A4', text: [text] }] }), ['{{sig}}']);
    expectNear(hits.get('{{sig}}'), [{ ...upright(1, text, A4, 'Sign here: ') }]);
  });

  it("places it by the widths of the standard font of the run's family, and estimates for others", async () => {
    const prefix = 'Please sign on the line: ';
    const line = (y: number, font: StandardFonts) => ({
      value: `${prefix}{{sig}}`,
      x: 72,
      y,
      size: 12,
      font,
    });
    const hits = await findText(
      await aPdf({
        pages: [
          { size: 'A4', text: [line(300, StandardFonts.TimesRoman), line(200, StandardFonts.HelveticaBold)] },
        ],
      }),
      ['{{sig}}'],
    );
    const [inTimes, inBold] = hits.get('{{sig}}')!;
    expect(inTimes!.x).toBeCloseTo(((72 + widthOf(times, prefix, 12)) / A4.width) * 100, 1);
    // Helvetica-Bold is estimated with Helvetica's widths: off by a fraction of a character.
    const boldLeft = ((72 + widthOf(helveticaBold, prefix, 12)) / A4.width) * 100;
    expect(Math.abs(inBold!.x - boldLeft)).toBeLessThan(0.5);
  });

  it('finds text on a rotated page, in the geometry of the page as displayed', async () => {
    const text = { value: '{{sig}}', x: 100, y: 500, size: 12 };
    const width = widthOf(helvetica, text.value, text.size);
    const [W, H] = [600, 800];
    const hits = await findText(
      await aPdf({
        pages: [
          { size: [W, H], rotate: 90, text: [text] },
          { size: [W, H], rotate: 270, text: [text] },
        ],
      }),
      ['{{sig}}'],
    );
    // Shown turned, the page is H wide and W high; the text runs down (90) or up (270) the page.
    expectNear(hits.get('{{sig}}'), [
      {
        page: 1,
        x: ((text.y + DESCENT * text.size) / H) * 100,
        y: (text.x / W) * 100,
        w: (((ASCENT - DESCENT) * text.size) / H) * 100,
        h: (width / W) * 100,
      },
      {
        page: 2,
        x: ((H - (text.y + ASCENT * text.size)) / H) * 100,
        y: ((W - (text.x + width)) / W) * 100,
        w: (((ASCENT - DESCENT) * text.size) / H) * 100,
        h: (width / W) * 100,
      },
    ]);
  });

  it('measures from the corner of the CropBox', async () => {
    const text = { value: '{{sig}}', x: 100, y: 600, size: 12 };
    const hits = await findText(
      await aPdf({ pages: [{ size: [600, 800], cropBox: [50, 100, 500, 600], text: [text] }] }),
      ['{{sig}}'],
    );
    expectNear(hits.get('{{sig}}'), [
      upright(1, { ...text, x: text.x - 50, y: text.y - 100 }, { width: 500, height: 600 }),
    ]);
  });

  it('finds every occurrence, on several pages, in page and reading order', async () => {
    const a = { value: 'Buyer: {{sig}}', x: 72, y: 700, size: 12 };
    const b = { value: '{{sig}} and {{sig}}', x: 72, y: 200, size: 10 };
    const c = { value: 'Seller {{sig}}', x: 300, y: 100, size: 16 };
    const hits = await findText(
      await aPdf({ pages: [{ size: 'A4', text: [a, b] }, { size: 'Letter' }, { size: 'A4', text: [c] }] }),
      ['{{sig}}', 'Seller'],
    );
    const secondOfB = widthOf(helvetica, '{{sig}} and ', 10);
    expectNear(hits.get('{{sig}}'), [
      upright(1, a, A4, 'Buyer: '),
      upright(1, { ...b, value: '{{sig}}' }, A4),
      upright(1, { ...b, value: '{{sig}}', x: b.x + secondOfB }, A4),
      upright(3, c, A4, 'Seller '),
    ]);
    expectNear(hits.get('Seller'), [upright(3, { ...c, value: 'Seller' }, A4)]);
  });

  it('gives an empty list for text that does not occur, or differs in case; every search is a key', async () => {
    const bytes = await aPdf({
      pages: [{ size: 'A4', text: [{ value: 'Sign: {{sig}}', x: 72, y: 700, size: 12 }] }],
    });
    const hits = await findText(bytes, ['{{initials}}', '{{SIG}}', '', '{{sig}}', '{{sig}}']);
    expect([...hits.keys()]).toEqual(['{{initials}}', '{{SIG}}', '', '{{sig}}']);
    expect(hits.get('{{initials}}')).toEqual([]);
    expect(hits.get('{{SIG}}')).toEqual([]);
    expect(hits.get('')).toEqual([]);
    expect(hits.get('{{sig}}')).toHaveLength(1);
  });

  it('finds text split across runs on one line, and not across a visible gap', async () => {
    const first = { value: '{{si', x: 72, y: 500, size: 12 };
    const firstWidth = widthOf(helvetica, first.value, 12);
    const second = { value: 'g}}', x: 72 + firstWidth, y: 500, size: 12, font: StandardFonts.Courier };
    const apart = [
      { value: '{{si', x: 72, y: 300, size: 12 },
      { value: 'g}}', x: 300, y: 300, size: 12 },
    ];
    const hits = await findText(await aPdf({ pages: [{ size: 'A4', text: [first, second, ...apart] }] }), [
      '{{sig}}',
    ]);
    const total = firstWidth + widthOf(courier, second.value, 12);
    expectNear(hits.get('{{sig}}'), [{ ...upright(1, first, A4), w: (total / A4.width) * 100 }]);
  });

  it('accepts a Node Buffer, as uploads arrive', async () => {
    const bytes = await aPdf({
      pages: [{ size: 'A4', text: [{ value: '{{sig}}', x: 72, y: 700, size: 12 }] }],
    });
    const hits = await findText(Buffer.from(bytes), ['{{sig}}']);
    expect(hits.get('{{sig}}')).toHaveLength(1);
    // pdf.js works on a copy: the caller's bytes are still there afterwards.
    expect(bytes.length).toBeGreaterThan(0);
    expect((await inspectPdf(bytes, limits)).pageCount).toBe(1);
  });

  it('reads the test helper encrypted PDF: it is really encrypted, with an empty user password', async () => {
    expect(Buffer.from(anEncryptedPdf()).includes('Secret')).toBe(false);
    expect((await findText(anEncryptedPdf(), ['Secret'])).get('Secret')).toHaveLength(1);
  });

  it('refuses content that would expand past its cap, which inspecting does not read', async () => {
    const bomb = aPdfWithContentStreamBomb(8 * 2 ** 20);
    expect(bomb.length).toBeLessThan(4000);
    expect((await inspectPdf(bomb, limits)).pageCount).toBe(1);
    await expect(findText(bomb, ['Hello'], { maxDecodedBytes: 2 ** 20 })).rejects.toMatchObject({
      reason: 'corrupt',
    });
    // Under the cap the same file is read: the text is there.
    expect((await findText(bomb, ['Hello'], { maxDecodedBytes: 16 * 2 ** 20 })).get('Hello')).toHaveLength(1);
  });

  it('refuses a file it cannot read', async () => {
    await expect(findText(new TextEncoder().encode('not a pdf'), ['x'])).rejects.toMatchObject({
      name: 'PdfRejectedError',
      reason: 'corrupt',
    });
  });
});

describe('DomMatrix2d, the DOMMatrix pdf.js gets in Node', () => {
  it('composes like DOMMatrix: each operation applies before the ones already there', () => {
    const m = new DomMatrix2d().scaleSelf(2, 3).translateSelf(5, 7);
    expect([m.a, m.b, m.c, m.d, m.e, m.f]).toEqual([2, 0, 0, 3, 10, 21]);
    const back = m.multiply(m.inverse());
    expect([back.a, back.b, back.c, back.d, back.e, back.f]).toEqual([1, 0, 0, 1, 0, 0]);
  });
});

describe('page tree nodes of another type', () => {
  it('refuses a catalog whose page tree points back at itself', async () => {
    const bytes = new Uint8Array(
      Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 1 0 R >>\nendobj\n%%EOF\n'),
    );
    await expect(inspectPdf(bytes, { maxPages: 500 })).rejects.toMatchObject({
      name: 'PdfRejectedError',
      reason: 'corrupt',
    });
  });
});
