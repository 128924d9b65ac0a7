// Real JPEG and PNG files built byte by byte, so that tests control every marker (EXIF
// orientation, truncation) without an image library: a grey-level picture given as a function of
// the pixel, dark where `dark(x, y)` says.
import { crc32, deflateSync } from 'node:zlib';

export type TPixelTest = (x: number, y: number) => boolean;

/** The left quarter dark: after any turn or mirror, where it ends up says which one was applied. */
export const darkLeftQuarter =
  (width: number): TPixelTest =>
  (x) =>
    x < width / 4;

/** Dark or light grey: the light part still shows where the picture ends on a white page. */
const level = (dark: boolean) => (dark ? 0 : 176);

/** An 8-bit grey PNG. */
export function aPng(width: number, height: number, dark: TPixelTest): Buffer {
  const raw = Buffer.alloc((width + 1) * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) raw[y * (width + 1) + 1 + x] = level(dark(x, y));
  return encodePng(width, height, 0, raw);
}

/**
 * A PNG file of filtered scanlines `raw` (each row a filter byte, then its pixels): 8 bits per
 * sample, colour type 0 (grey) or 6 (RGBA).
 */
export function encodePng(width: number, height: number, colourType: 0 | 6, raw: Buffer): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, colourType, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** An EXIF APP1 segment whose first directory holds only the orientation tag. */
export function exifSegment(orientation: number, byteOrder: 'II' | 'MM' = 'MM'): Buffer {
  const little = byteOrder === 'II';
  const tiff = Buffer.alloc(8 + 2 + 12 + 4);
  tiff.write(byteOrder, 0, 'latin1');
  const u16 = (v: number, at: number) => (little ? tiff.writeUInt16LE(v, at) : tiff.writeUInt16BE(v, at));
  const u32 = (v: number, at: number) => (little ? tiff.writeUInt32LE(v, at) : tiff.writeUInt32BE(v, at));
  u16(42, 2);
  u32(8, 4); // IFD0 right after the header
  u16(1, 8); // one entry
  u16(0x0112, 10); // Orientation
  u16(3, 12); // SHORT
  u32(1, 14); // one value
  u16(orientation, 18);
  u32(0, 22); // no next directory
  const body = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const head = Buffer.from([0xff, 0xe1, 0, 0]);
  head.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([head, body]);
}

/**
 * A baseline grey JPEG whose 8 × 8 blocks are each one level (DC coefficients only, every AC
 * block ended at once), with an EXIF orientation when given. Width and height are multiples of 8.
 */
export function aJpeg(
  width: number,
  height: number,
  dark: TPixelTest,
  { orientation, byteOrder }: { orientation?: number; byteOrder?: 'II' | 'MM' } = {},
): Buffer {
  const segment = (marker: number, body: number[]) => {
    const len = body.length + 2;
    return Buffer.from([0xff, marker, len >> 8, len & 0xff, ...body]);
  };
  const dqt = segment(0xdb, [0, ...new Array(64).fill(1)]);
  const sof = segment(0xc0, [8, height >> 8, height & 0xff, width >> 8, width & 0xff, 1, 1, 0x11, 0]);
  // The standard luminance DC table (categories 0–11), and an AC table with only end-of-block.
  const dcBits = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0];
  const dcValues = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
  const dht = segment(0xc4, [0x00, ...dcBits, ...dcValues, 0x10, 1, ...new Array(15).fill(0), 0x00]);
  const sos = segment(0xda, [1, 1, 0x00, 0, 63, 0]);

  // Canonical Huffman codes of the DC table.
  const dcCodes: { code: number; length: number }[] = [];
  let code = 0;
  let k = 0;
  dcBits.forEach((count, i) => {
    for (let j = 0; j < count; j++) dcCodes[dcValues[k++]!] = { code: code++, length: i + 1 };
    code <<= 1;
  });

  const out: number[] = [];
  let acc = 0;
  let bits = 0;
  const put = (value: number, length: number) => {
    for (let i = length - 1; i >= 0; i--) {
      acc = (acc << 1) | ((value >> i) & 1);
      if (++bits === 8) {
        out.push(acc);
        if (acc === 0xff) out.push(0);
        acc = 0;
        bits = 0;
      }
    }
  };
  let previous = 0;
  for (let by = 0; by < height / 8; by++) {
    for (let bx = 0; bx < width / 8; bx++) {
      const dc = 8 * (level(dark(bx * 8 + 4, by * 8 + 4)) - 128);
      const diff = dc - previous;
      previous = dc;
      const category = diff === 0 ? 0 : Math.floor(Math.log2(Math.abs(diff))) + 1;
      put(dcCodes[category]!.code, dcCodes[category]!.length);
      if (category > 0) put(diff > 0 ? diff : diff + (1 << category) - 1, category);
      put(0, 1); // end of block
    }
  }
  if (bits > 0) put(0x7f, 8 - bits); // pad with ones
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    ...(orientation ? [exifSegment(orientation, byteOrder)] : []),
    dqt,
    sof,
    dht,
    sos,
    Buffer.from(out),
    Buffer.from([0xff, 0xd9]),
  ]);
}
