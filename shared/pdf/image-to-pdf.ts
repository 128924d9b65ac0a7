import {
  concatTransformationMatrix,
  drawObject,
  PDFDocument,
  type PDFImage,
  popGraphicsState,
  pushGraphicsState,
} from 'pdf-lib';
import { pngProblem } from './check-png';
import { exifOrientation } from './exif-orientation';
import type { TImageKind, TImagePageSize } from './image-kind';
import { PdfRejectedError } from './pdf-rejected-error';

/** Portrait sizes in points. */
const PAPER: Record<TImagePageSize, [number, number]> = {
  letter: [612, 792],
  a4: [595.28, 841.89],
};
/** Half an inch all round: what office printers cannot print on anyway. */
const MARGIN = 36;
/**
 * Larger images are refused before they are decoded: a PNG is inflated in full to be embedded,
 * and a few kilobytes can claim gigapixels. 60 megapixels is a 600 dpi scan of a full page; a
 * JPEG is copied into the PDF as it is, so that is its only limit.
 */
const MAX_PIXELS = 60_000_000;
const MAX_SIDE = 20_000;
/**
 * What a PNG may take once decoded: pdf-lib holds its samples and an 8-bit RGBA copy (4 bytes a
 * pixel, more at 16 bits a channel) at once, in buffers beyond the worker's heap limit. 100 MB is
 * 25 megapixels of 8-bit colour, a 600 dpi scan of half a page or a 300 dpi one of several.
 */
const MAX_PNG_DECODED_BYTES = 100_000_000;
/** Channels of each PNG colour type (a palette becomes RGB). */
const PNG_CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 3, 4: 2, 6: 4 };

const badImage = (kind: TImageKind, detail: string) =>
  new PdfRejectedError('bad_image', `The ${kind === 'png' ? 'PNG' : 'JPEG'} image is damaged: ${detail}.`);

/**
 * A one-page PDF of a JPEG or PNG: the page Letter or A4, landscape when the image (as displayed)
 * is wider than tall, the image scaled to fill the page inside its margins and centred, a JPEG
 * turned and mirrored as its EXIF orientation says. Throws PdfRejectedError ('bad_image') for an
 * image that cannot be read or is too large.
 */
export async function imageToPdf(
  bytes: Uint8Array,
  kind: TImageKind,
  paper: TImagePageSize,
): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const image = await embed(doc, bytes, kind);
  const orientation = kind === 'jpeg' ? exifOrientation(bytes) : 1;
  // Orientations 5 to 8 turn the image a quarter: its displayed width is its stored height.
  const turned = orientation >= 5;
  const [w, h] = turned ? [image.height, image.width] : [image.width, image.height];

  const [short, long] = PAPER[paper];
  const [pageW, pageH] = w > h ? [long, short] : [short, long];
  const scale = Math.min((pageW - 2 * MARGIN) / w, (pageH - 2 * MARGIN) / h);
  const [dw, dh] = [w * scale, h * scale];
  const [x, y] = [(pageW - dw) / 2, (pageH - dh) / 2];

  const page = doc.addPage([pageW, pageH]);
  const name = page.node.newXObject('Image', image.ref);
  const [a, b, c, d, e, f] = ORIENTATION[orientation]!;
  page.pushOperators(
    pushGraphicsState(),
    concatTransformationMatrix(dw * a, dh * b, dw * c, dh * d, x + dw * e, y + dh * f),
    drawObject(name),
    popGraphicsState(),
  );
  return doc.save({ useObjectStreams: false });
}

/**
 * For each EXIF orientation, the matrix taking the image's unit square (as PDF draws it: the
 * first stored row at the top) to the displayed unit square, [a b c d e f] as in a PDF `cm`.
 * 2 mirrors, 3 turns half round, 4 flips, 5 transposes, 6 turns a quarter clockwise, 7
 * transposes the other way, 8 turns a quarter anticlockwise.
 */
const ORIENTATION: Record<number, [number, number, number, number, number, number]> = {
  1: [1, 0, 0, 1, 0, 0],
  2: [-1, 0, 0, 1, 1, 0],
  3: [-1, 0, 0, -1, 1, 1],
  4: [1, 0, 0, -1, 0, 1],
  5: [0, -1, -1, 0, 1, 1],
  6: [0, -1, 1, 0, 0, 1],
  7: [0, 1, 1, 0, 0, 0],
  8: [0, 1, -1, 0, 1, 0],
};

async function embed(doc: PDFDocument, bytes: Uint8Array, kind: TImageKind): Promise<PDFImage> {
  const size = kind === 'png' ? pngSize(bytes) : jpegSize(bytes);
  if (!size) throw badImage(kind, 'its size could not be read');
  if (size.width === 0 || size.height === 0) throw badImage(kind, 'it has no pixels');
  if (size.width > MAX_SIDE || size.height > MAX_SIDE || size.width * size.height > MAX_PIXELS) {
    throw new PdfRejectedError(
      'bad_image',
      `The image is ${size.width} × ${size.height} pixels; at most ${MAX_PIXELS / 1_000_000} megapixels and ${MAX_SIDE} pixels a side are accepted.`,
    );
  }
  const png = kind === 'png' ? pngSize(bytes) : undefined;
  if (png) {
    const perPixel = Math.max(4, ((PNG_CHANNELS[png.colorType] ?? 4) * png.depth) / 8);
    const decoded = size.width * size.height * perPixel;
    if (decoded > MAX_PNG_DECODED_BYTES) {
      throw new PdfRejectedError(
        'bad_image',
        `The PNG image is ${size.width} × ${size.height} pixels at ${png.depth} bits a channel, ${Math.ceil(decoded / 1_000_000)} MB once decoded; at most ${MAX_PNG_DECODED_BYTES / 1_000_000} MB (25 megapixels of 8-bit colour) are accepted. Save it smaller, at 8 bits a channel, or as a JPEG.`,
      );
    }
  }
  const problem = kind === 'png' ? pngProblem(bytes, MAX_PIXELS) : undefined;
  if (problem) throw badImage(kind, problem);
  // pdf-lib copies a JPEG's data as it is, so a JPEG cut short would pass unnoticed: its end
  // marker must be there.
  if (kind === 'jpeg' && !(bytes.at(-2) === 0xff && bytes.at(-1) === 0xd9)) {
    throw badImage(kind, 'it ends early, as if the upload was cut short');
  }
  // pdf-lib reads the bytes' whole ArrayBuffer from its start, which is wrong for a Node Buffer
  // cut from a larger pool: give it a copy of its own.
  const own = new Uint8Array(bytes);
  try {
    return kind === 'png' ? await doc.embedPng(own) : await doc.embedJpg(own);
  } catch {
    throw badImage(kind, 'it could not be decoded');
  }
}

function pngSize(
  bytes: Uint8Array,
): { width: number; height: number; depth: number; colorType: number } | undefined {
  // The IHDR chunk comes first: length (13), "IHDR", width, height, bit depth, colour type.
  if (bytes.length < 33 || String.fromCharCode(...bytes.subarray(12, 16)) !== 'IHDR') return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20), depth: bytes[24]!, colorType: bytes[25]! };
}

/** The frame header's size (any SOF marker but DHT, JPG and DAC). */
function jpegSize(bytes: Uint8Array): { width: number; height: number } | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 2;
  while (at + 9 <= bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at++;
      continue;
    }
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
      return { height: view.getUint16(at + 5), width: view.getUint16(at + 7) };
    }
    if (marker === 0xda || marker === 0xd9) return undefined;
    at += 2 + view.getUint16(at + 2);
  }
  return undefined;
}
