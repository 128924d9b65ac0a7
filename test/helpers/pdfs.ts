import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { degrees, PageSizes, PDFDocument, StandardFonts } from 'pdf-lib';

export type TPageSizeSpec = [width: number, height: number] | 'A4' | 'Letter';

export interface TTextSpec {
  value: string;
  /** Baseline start, in PDF points from the bottom-left of the unrotated page. */
  x: number;
  y: number;
  size: number;
  font?: StandardFonts;
}

export interface TPageSpec {
  size: TPageSizeSpec;
  text?: TTextSpec[];
  rotate?: 0 | 90 | 180 | 270;
  /** x, y, width, height within the MediaBox. */
  cropBox?: [x: number, y: number, width: number, height: number];
}

/** A real PDF made with pdf-lib; one A4 page unless told otherwise. */
export async function aPdf({ pages = [{ size: 'A4' }] }: { pages?: TPageSpec[] } = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (const spec of pages) {
    const size = spec.size === 'A4' ? PageSizes.A4 : spec.size === 'Letter' ? PageSizes.Letter : spec.size;
    const page = doc.addPage(size);
    if (spec.rotate) page.setRotation(degrees(spec.rotate));
    if (spec.cropBox) page.setCropBox(...spec.cropBox);
    for (const text of spec.text ?? []) {
      const font = await doc.embedFont(text.font ?? StandardFonts.Helvetica);
      page.drawText(text.value, { x: text.x, y: text.y, size: text.size, font });
    }
  }
  return doc.save({ addDefaultPage: false });
}

/** The first 60% of a real PDF, as an interrupted upload leaves it. */
export async function aCorruptPdf(): Promise<Uint8Array> {
  const whole = await aPdf({ pages: [{ size: 'A4', text: [{ value: 'Hello', x: 72, y: 720, size: 12 }] }] });
  return whole.slice(0, Math.floor(whole.length * 0.6));
}

/**
 * A few hundred bytes whose page tree claims `pageCount` pages: each level lists the next level's
 * single node ten times, so walking it naively visits 10^levels pages. With `declareCount: false`
 * the root carries no /Count, and only walking it can tell.
 */
export function aPdfBomb(pageCount: number, { declareCount = true } = {}): Uint8Array {
  const levels = Math.max(1, Math.ceil(Math.log10(pageCount)));
  const objects: string[] = ['<< /Type /Catalog /Pages 2 0 R >>'];
  for (let level = 0; level < levels; level++) {
    const self = level + 2;
    const kids = Array.from({ length: 10 }, () => `${self + 1} 0 R`).join(' ');
    const count =
      level === 0 ? (declareCount ? ` /Count ${pageCount}` : '') : ` /Count ${10 ** (levels - level)}`;
    const parent = level === 0 ? '' : ` /Parent ${self - 1} 0 R`;
    objects.push(`<< /Type /Pages /Kids [${kids}]${count}${parent} >>`);
  }
  objects.push(`<< /Type /Page /Parent ${levels + 1} 0 R /MediaBox [0 0 612 792] >>`);
  return handWritten(objects);
}

/**
 * MediaBox and Rotate set on the page tree node and inherited: the first page is 400 x 600 turned
 * a quarter, the second overrides both with its own 200 x 300 and no rotation.
 */
export function aPdfWithInheritedPageAttributes(): Uint8Array {
  return handWritten([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 /MediaBox [0 0 400 600] /Rotate 90 >>',
    '<< /Type /Page /Parent 2 0 R >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 300] /Rotate 0 >>',
  ]);
}

/** A page tree whose only child lists the root as its child. */
export function aPdfWithCyclicPageTree(): Uint8Array {
  return handWritten([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Pages /Kids [2 0 R] /Parent 2 0 R /Count 1 >>',
  ]);
}

/** A one-page PDF whose object stream is Flate inside Flate and expands to `expandedBytes`. */
export function aPdfWithObjectStreamBomb(expandedBytes: number): Uint8Array {
  const header = '5 0 ';
  const content = Buffer.alloc(expandedBytes, ' ');
  content.write(`${header}<< /Padding true >>`, 'latin1');
  const packed = deflateSync(deflateSync(content, { level: 9 }), { level: 9 });
  return handWritten([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>',
    stream(`/Type /ObjStm /N 1 /First ${header.length} /Filter [/FlateDecode /FlateDecode]`, packed),
  ]);
}

/** A one-page PDF whose page content is Flate inside Flate and expands to `expandedBytes`. */
export function aPdfWithContentStreamBomb(expandedBytes: number): Uint8Array {
  const content = Buffer.alloc(expandedBytes, ' ');
  content.write('BT /F1 12 Tf 72 700 Td (Hello) Tj ET', 'latin1');
  const packed = deflateSync(deflateSync(content, { level: 9 }), { level: 9 });
  return handWritten([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    stream('/Filter [/FlateDecode /FlateDecode]', packed),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ]);
}

/**
 * A genuinely encrypted PDF (standard security handler, revision 2, RC4 with a 40-bit key, empty
 * user password), written by hand because pdf-lib cannot encrypt. Readers open it without asking
 * for a password and show "Secret" on its page; its content stream is ciphertext.
 */
export function anEncryptedPdf(): Uint8Array {
  const id = createHash('md5').update('open-esign test document').digest();
  const permissions = -4;
  const ownerKey = md5(PASSWORD_PADDING).subarray(0, 5);
  const O = rc4(ownerKey, PASSWORD_PADDING);
  const P = Buffer.alloc(4);
  P.writeInt32LE(permissions);
  const fileKey = md5(Buffer.concat([PASSWORD_PADDING, O, P, id])).subarray(0, 5);
  const U = rc4(fileKey, PASSWORD_PADDING);
  const contentObject = 4;
  const objectKey = md5(
    Buffer.concat([fileKey, Buffer.from([contentObject & 0xff, (contentObject >> 8) & 0xff, 0, 0, 0])]),
  );
  const content = rc4(objectKey.subarray(0, 10), Buffer.from('BT /F1 24 Tf 72 700 Td (Secret) Tj ET'));
  const hex = (b: Buffer) => `<${b.toString('hex')}>`;
  return handWritten(
    [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
      stream('', content),
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
      `<< /Filter /Standard /V 1 /R 2 /O ${hex(O)} /U ${hex(U)} /P ${permissions} >>`,
    ],
    `/Encrypt 6 0 R /ID [${hex(id)} ${hex(id)}]`,
  );
}

const PASSWORD_PADDING = Buffer.from(
  '28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a',
  'hex',
);

function md5(data: Buffer): Buffer {
  return createHash('md5').update(data).digest();
}

// OpenSSL 3 keeps RC4 in its legacy provider, which Node does not load; the cipher is ten lines.
function rc4(key: Buffer, data: Buffer): Buffer {
  const s = Array.from({ length: 256 }, (_, i) => i);
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i]! + key[i % key.length]!) & 0xff;
    [s[i], s[j]] = [s[j]!, s[i]!];
  }
  const out = Buffer.alloc(data.length);
  for (let n = 0, i = 0, j = 0; n < data.length; n++) {
    i = (i + 1) & 0xff;
    j = (j + s[i]!) & 0xff;
    [s[i], s[j]] = [s[j]!, s[i]!];
    out[n] = data[n]! ^ s[(s[i]! + s[j]!) & 0xff]!;
  }
  return out;
}

function stream(dict: string, data: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(`<< ${dict} /Length ${data.length} >>\nstream\n`, 'latin1'),
    data,
    Buffer.from('\nendstream'),
  ]);
}

/** Numbers the objects from 1 (the first is the catalog) and writes a correct cross-reference table. */
function handWritten(objects: (string | Buffer)[], trailer = ''): Uint8Array {
  const parts = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let offset = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    const object = Buffer.concat([
      Buffer.from(`${i + 1} 0 obj\n`),
      typeof body === 'string' ? Buffer.from(body, 'latin1') : body,
      Buffer.from('\nendobj\n'),
    ]);
    offsets.push(offset);
    parts.push(object);
    offset += object.length;
  });
  const entries = offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  const size = objects.length + 1;
  parts.push(
    Buffer.from(
      `xref\n0 ${size}\n0000000000 65535 f \n${entries}trailer\n<< /Size ${size} /Root 1 0 R ${trailer} >>\nstartxref\n${offset}\n%%EOF\n`,
    ),
  );
  return new Uint8Array(Buffer.concat(parts));
}
