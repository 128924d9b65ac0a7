/**
 * The EXIF orientation of a JPEG (1–8, TIFF tag 0x0112), or 1 when it has none. Cameras store
 * the sensor's pixels as they come and say in this tag how to turn them for display; a phone
 * photo taken upright is usually stored sideways with orientation 6. Reads only the segments
 * before the image data, and never trusts an offset without checking it is inside the segment.
 */
export function exifOrientation(jpeg: Uint8Array): number {
  const view = new DataView(jpeg.buffer, jpeg.byteOffset, jpeg.byteLength);
  if (jpeg.length < 4 || view.getUint16(0) !== 0xffd8) return 1;
  let at = 2;
  while (at + 4 <= jpeg.length) {
    if (jpeg[at] !== 0xff) return 1;
    const marker = jpeg[at + 1]!;
    // Fill bytes before a marker.
    if (marker === 0xff) {
      at++;
      continue;
    }
    // Start of scan or end of image: the metadata segments are all before it.
    if (marker === 0xda || marker === 0xd9) return 1;
    const length = view.getUint16(at + 2);
    const start = at + 4;
    const end = at + 2 + length;
    if (length < 2 || end > jpeg.length) return 1;
    if (marker === 0xe1 && isExif(jpeg, start, end)) return orientationInTiff(view, start + 6, end);
    at = end;
  }
  return 1;
}

function isExif(bytes: Uint8Array, start: number, end: number): boolean {
  const id = [0x45, 0x78, 0x69, 0x66, 0, 0]; // "Exif\0\0"
  return end - start >= 6 + 8 && id.every((b, i) => bytes[start + i] === b);
}

/** The orientation entry of the TIFF block's first directory (IFD0), where EXIF keeps it. */
function orientationInTiff(view: DataView, tiff: number, end: number): number {
  const order = view.getUint16(tiff);
  if (order !== 0x4949 && order !== 0x4d4d) return 1;
  const little = order === 0x4949;
  const u16 = (at: number) => view.getUint16(at, little);
  const u32 = (at: number) => view.getUint32(at, little);
  if (u16(tiff + 2) !== 42) return 1;
  const ifd = tiff + u32(tiff + 4);
  if (ifd + 2 > end) return 1;
  const count = u16(ifd);
  for (let i = 0; i < count; i++) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > end) return 1;
    // Tag 0x0112, type SHORT (3), one value, held in the entry itself.
    if (u16(entry) !== 0x0112) continue;
    if (u16(entry + 2) !== 3) return 1;
    const value = u16(entry + 8);
    return value >= 1 && value <= 8 ? value : 1;
  }
  return 1;
}
