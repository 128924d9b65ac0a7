import { crc32, inflateSync } from 'node:zlib';

/** Bit depths allowed for each PNG colour type (channels, depths). */
const COLOR_TYPES: Record<number, { channels: number; depths: number[] }> = {
  0: { channels: 1, depths: [1, 2, 4, 8, 16] },
  2: { channels: 3, depths: [8, 16] },
  3: { channels: 1, depths: [1, 2, 4, 8] },
  4: { channels: 2, depths: [8, 16] },
  6: { channels: 4, depths: [8, 16] },
};
/** Adam7's passes: first column, first row, column step, row step. */
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

/**
 * What is wrong with a PNG, or undefined when its structure is sound: every chunk whole with its
 * checksum, the header first and valid, a palette where one is needed, image data that inflates
 * to exactly the rows the header promises, each row with a known filter. pdf-lib's PNG decoder
 * trusts all of this (damaged image data can keep it busy for good), so it is checked first.
 */
export function pngProblem(bytes: Uint8Array, maxPixels: number): string | undefined {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 8;
  let header: { width: number; height: number; depth: number; type: number; interlace: number } | undefined;
  let palette = false;
  let ended = false;
  const data: Buffer[] = [];
  while (at < buf.length && !ended) {
    if (at + 12 > buf.length) return 'it ends in the middle of a chunk';
    const length = buf.readUInt32BE(at);
    const type = buf.toString('latin1', at + 4, at + 8);
    if (at + 12 + length > buf.length) return 'it ends early, as if the upload was cut short';
    const body = buf.subarray(at + 8, at + 8 + length);
    if (crc32(buf.subarray(at + 4, at + 8 + length)) !== buf.readUInt32BE(at + 8 + length))
      return `its ${type} chunk fails its checksum`;
    if (!header && type !== 'IHDR') return 'it does not start with a header';
    if (type === 'IHDR') {
      if (length !== 13) return 'its header is malformed';
      header = {
        width: body.readUInt32BE(0),
        height: body.readUInt32BE(4),
        depth: body[8]!,
        type: body[9]!,
        interlace: body[12]!,
      };
    } else if (type === 'PLTE') palette = true;
    else if (type === 'IDAT') data.push(body);
    else if (type === 'IEND') ended = true;
    at += 12 + length;
  }
  if (!header) return 'it has no header';
  if (!ended) return 'it ends early, as if the upload was cut short';
  const color = COLOR_TYPES[header.type];
  if (!color?.depths.includes(header.depth) || header.interlace > 1) return 'its header is malformed';
  if (header.type === 3 && !palette) return 'it has no palette';
  if (header.width === 0 || header.height === 0) return 'it has no pixels';
  if (header.width * header.height > maxPixels) return undefined; // the caller refuses it by size

  const bitsPerPixel = color.channels * header.depth;
  const rows = (header.interlace ? ADAM7 : [[0, 0, 1, 1] as const]).flatMap(([x0, y0, dx, dy]) => {
    const w = Math.ceil((header.width - x0) / dx);
    const h = Math.ceil((header.height - y0) / dy);
    return w > 0 && h > 0 ? new Array<number>(h).fill(Math.ceil((w * bitsPerPixel) / 8)) : [];
  });
  const expected = rows.reduce((sum, n) => sum + 1 + n, 0);
  let raw: Buffer;
  try {
    raw = inflateSync(Buffer.concat(data), { maxOutputLength: expected + 1 });
  } catch {
    return 'its image data could not be decompressed';
  }
  if (raw.length !== expected) return 'its image data does not match its size';
  let row = 0;
  for (const n of rows) {
    if (raw[row]! > 4) return 'its image data is malformed';
    row += 1 + n;
  }
  return undefined;
}
