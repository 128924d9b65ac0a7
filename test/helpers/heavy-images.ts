// Images that are small to send and large to decode: all zeros, so they compress to almost nothing.
import { crc32 } from 'node:zlib';
import { deflatedZeros } from './hostile-pdfs';

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 4: 2, 6: 4 };

function chunk(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(body.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), body])));
  return Buffer.concat([head, body, crc]);
}

/** A sound black PNG of `width` × `height` pixels, `depth` bits a channel, of colour type `colorType`. */
export function blackPng(width: number, height: number, depth: 8 | 16 = 8, colorType = 2): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = depth;
  ihdr[9] = colorType;
  // Each row: a filter byte (0, none) and its samples, all zero.
  const row = 1 + Math.ceil((width * CHANNELS[colorType]! * depth) / 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflatedZeros(row * height)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
