import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { exifOrientation } from '#shared/pdf/exif-orientation';
import { imageKindOf } from '#shared/pdf/image-kind';
import { imageToPdf } from '#shared/pdf/image-to-pdf';
import { inspectPdf, PdfRejectedError } from '#shared/pdf/inspect-pdf';
import { aJpeg, aPng, darkLeftQuarter, exifSegment } from '../helpers/images';
import { imageCount, pageGrey } from '../helpers/poppler';

/**
 * Which edge of the picture, as rendered, is dark: the test images are light grey with one
 * quarter black, on a white page.
 */
function darkEdge(pdf: Uint8Array): string {
  const page = pageGrey(pdf, 1, 36);
  let [left, top, right, bottom] = [page.width, page.height, 0, 0];
  for (let y = 0; y < page.height; y++)
    for (let x = 0; x < page.width; x++)
      if (page.at(x, y) < 230) {
        [left, top] = [Math.min(left, x), Math.min(top, y)];
        [right, bottom] = [Math.max(right, x), Math.max(bottom, y)];
      }
  const [midX, midY] = [Math.floor((left + right) / 2), Math.floor((top + bottom) / 2)];
  const probes = {
    left: page.at(left + 3, midY),
    right: page.at(right - 3, midY),
    top: page.at(midX, top + 3),
    bottom: page.at(midX, bottom - 3),
  };
  return Object.entries(probes)
    .filter(([, grey]) => grey < 64)
    .map(([edge]) => edge)
    .join(',');
}

async function pageSize(pdf: Uint8Array): Promise<[number, number]> {
  const { pages } = await inspectPdf(pdf, { maxPages: 1 });
  return [Math.round(pages[0]!.width), Math.round(pages[0]!.height)];
}

describe('exifOrientation', () => {
  it('reads the tag in either byte order, after other segments', () => {
    expect(exifOrientation(aJpeg(16, 8, () => false, { orientation: 6 }))).toBe(6);
    expect(exifOrientation(aJpeg(16, 8, () => false, { orientation: 3, byteOrder: 'II' }))).toBe(3);
    // An APP0 (JFIF) segment first, as most cameras and editors write.
    const jfif = Buffer.from([0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]);
    const plain = aJpeg(16, 8, () => false);
    const withBoth = Buffer.concat([plain.subarray(0, 2), jfif, exifSegment(8), plain.subarray(2)]);
    expect(exifOrientation(withBoth)).toBe(8);
  });

  it('is 1 without EXIF, for values out of range, cut-short segments and files that are no JPEG', () => {
    expect(exifOrientation(aJpeg(16, 8, () => false))).toBe(1);
    expect(exifOrientation(aJpeg(16, 8, () => false, { orientation: 9 }))).toBe(1);
    const jpeg = aJpeg(16, 8, () => false, { orientation: 6 });
    expect(exifOrientation(jpeg.subarray(0, 20))).toBe(1);
    expect(exifOrientation(aPng(4, 4, () => false))).toBe(1);
    expect(exifOrientation(new Uint8Array())).toBe(1);
  });
});

describe('imageToPdf', () => {
  it('knows JPEG and PNG by their first bytes, and nothing else', () => {
    expect(imageKindOf(aPng(4, 4, () => false))).toBe('png');
    expect(imageKindOf(aJpeg(8, 8, () => false))).toBe('jpeg');
    expect(imageKindOf(Buffer.from('%PDF-1.7'))).toBeUndefined();
  });

  it('puts a wide PNG on a landscape Letter page, as it is, with one image', async () => {
    const pdf = await imageToPdf(aPng(160, 80, darkLeftQuarter(160)), 'png', 'letter');
    expect(await pageSize(pdf)).toEqual([792, 612]);
    expect(imageCount(pdf)).toBe(1);
    expect(darkEdge(pdf)).toBe('left');
  });

  it('puts a tall image on a portrait A4 page', async () => {
    const pdf = await imageToPdf(aPng(80, 160, darkLeftQuarter(80)), 'png', 'a4');
    expect(await pageSize(pdf)).toEqual([595, 842]);
    expect(darkEdge(pdf)).toBe('left');
  });

  it.each([
    [1, [792, 612], 'left'],
    [2, [792, 612], 'right'],
    [3, [792, 612], 'right'],
    [4, [792, 612], 'left'],
    [5, [612, 792], 'top'],
    [6, [612, 792], 'top'],
    [7, [612, 792], 'bottom'],
    [8, [612, 792], 'bottom'],
  ] as const)(
    'turns a JPEG with EXIF orientation %i as a viewer shows it',
    async (orientation, size, edge) => {
      const jpeg = aJpeg(160, 80, darkLeftQuarter(160), { orientation });
      const pdf = await imageToPdf(jpeg, 'jpeg', 'letter');
      expect(await pageSize(pdf)).toEqual(size);
      expect(darkEdge(pdf)).toBe(edge);
    },
  );

  it('refuses damaged and oversized images with a clear reason', async () => {
    const refusal = async (bytes: Buffer, kind: 'png' | 'jpeg') => {
      const err = await imageToPdf(bytes, kind, 'letter').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(PdfRejectedError);
      expect((err as PdfRejectedError).reason).toBe('bad_image');
      return (err as Error).message;
    };
    const jpeg = aJpeg(64, 64, darkLeftQuarter(64));
    expect(await refusal(jpeg.subarray(0, jpeg.length - 40), 'jpeg')).toMatch(
      /JPEG image is damaged.*cut short/,
    );
    expect(await refusal(Buffer.from([0xff, 0xd8, 0xff, 0xd9]), 'jpeg')).toMatch(/size could not be read/);
    const png = aPng(64, 64, darkLeftQuarter(64));
    // The image data replaced by bytes that do not inflate.
    const broken = Buffer.from(png);
    broken.fill(0x55, 41, png.length - 16);
    expect(await refusal(broken, 'png')).toMatch(/PNG image is damaged: its IDAT chunk fails its checksum/);
    // Garbage with valid checksums: what pdf-lib's decoder would never finish with.
    const idat = Buffer.from('IDAT', 'latin1');
    const rechecked = Buffer.from(broken);
    const idatLength = rechecked.readUInt32BE(33);
    rechecked.writeUInt32BE(
      crc32(Buffer.concat([idat, rechecked.subarray(41, 41 + idatLength)])),
      41 + idatLength,
    );
    expect(await refusal(rechecked, 'png')).toMatch(
      /PNG image is damaged: its image data could not be decompressed/,
    );
    expect(await refusal(png.subarray(0, png.length - 20), 'png')).toMatch(/cut short/);
    // A header claiming 100,000 × 100,000 pixels is refused before anything is decoded.
    const huge = Buffer.from(png);
    huge.writeUInt32BE(100_000, 16);
    huge.writeUInt32BE(100_000, 20);
    expect(await refusal(huge, 'png')).toMatch(/100000 × 100000 pixels; at most 60 megapixels/);
  });
});
