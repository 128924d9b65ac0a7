// PDFs built to make a reader work without end: written object by object here (no binary
// fixtures), each as small as the attack allows. The verifier and every other reader of a PDF the
// service is given must answer each within its budget (ARCHITECTURE.md, "Untrusted files").
import { constants, deflateRawSync, deflateSync } from 'node:zlib';

/** A PDF of the given objects (numbered from 1, the first is the catalog), with a true xref. */
export function pdfOfObjects(objects: (string | Buffer)[]): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let at = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    const obj = Buffer.concat([
      Buffer.from(`${i + 1} 0 obj\n`, 'latin1'),
      typeof body === 'string' ? Buffer.from(body, 'latin1') : body,
      Buffer.from('\nendobj\n', 'latin1'),
    ]);
    offsets.push(at);
    parts.push(obj);
    at += obj.length;
  });
  const xref = [
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`,
    ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`),
    `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${at}\n%%EOF\n`,
  ].join('');
  parts.push(Buffer.from(xref, 'latin1'));
  return Buffer.concat(parts);
}

const PAGES = [
  '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
  '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>',
];

/**
 * An attachment name tree whose node lists itself as its kids, `fanOut` times: a walk that only
 * counts its depth visits fanOut^depth nodes. About 650 bytes with the default.
 */
export function selfReferencingNameTree(fanOut = 24): Buffer {
  const kids = Array.from({ length: fanOut }, () => '6 0 R').join(' ');
  return pdfOfObjects([
    '<< /Type /Catalog /Pages 2 0 R /Names 4 0 R >>',
    ...PAGES,
    '<< /EmbeddedFiles 6 0 R >>',
    '<< >>',
    `<< /Kids [${kids}] >>`,
  ]);
}

/**
 * The zlib stream of `bytes` zeros without ever holding them: one piece of zeros deflated and
 * flushed to a byte boundary, repeated (a deflate stream may be any run of such blocks), an empty
 * final block, and the Adler-32 of zeros (a = 1, b = the count mod 65521).
 */
export function deflatedZeros(bytes: number): Buffer {
  const PIECE = 16 * 1024 * 1024;
  const flushed = (n: number) =>
    deflateRawSync(Buffer.alloc(n), { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  const whole = flushed(PIECE);
  const pieces: Buffer[] = [Buffer.from([0x78, 0xda])];
  for (let left = bytes; left > 0; left -= PIECE) pieces.push(left >= PIECE ? whole : flushed(left));
  pieces.push(deflateRawSync(Buffer.alloc(0)));
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE((((bytes % 65521) << 16) | 1) >>> 0);
  pieces.push(adler);
  return Buffer.concat(pieces);
}

/**
 * An attachment whose stream is deflated twice: `inflated` zeros (1.5 GB by default) in a few
 * kilobytes. A reader that inflates it whole holds all of it in memory.
 */
export function decompressionBomb(inflated = 1_500_000_000): Buffer {
  const twice = deflateSync(deflatedZeros(inflated), { level: 9 });
  return pdfOfObjects([
    '<< /Type /Catalog /Pages 2 0 R /Names 4 0 R >>',
    ...PAGES,
    '<< /EmbeddedFiles 5 0 R >>',
    '<< /Names [(evidence-record.json) 6 0 R] >>',
    '<< /Type /Filespec /F (evidence-record.json) /UF (evidence-record.json) /EF << /F 7 0 R >> >>',
    Buffer.concat([
      Buffer.from(
        `<< /Type /EmbeddedFile /Filter [/FlateDecode /FlateDecode] /Length ${twice.length} >>\nstream\n`,
        'latin1',
      ),
      twice,
      Buffer.from('\nendstream', 'latin1'),
    ]),
  ]);
}

/** A PDF with `count` signature dictionaries that no field points to (about 60 bytes each). */
export function manySignatures(count = 30_000): Buffer {
  const sigs = Array.from(
    { length: count },
    (_, i) => `<< /Type /Sig /ByteRange [0 ${i} ${i + 1} 0] /Contents <00> >>`,
  );
  return pdfOfObjects(['<< /Type /Catalog /Pages 2 0 R >>', ...PAGES, ...sigs]);
}

/** A PDF of `count` small objects besides its page: slow to parse, within every cap below 50,000. */
export function manyObjects(count: number): Buffer {
  return pdfOfObjects([
    '<< /Type /Catalog /Pages 2 0 R >>',
    ...PAGES,
    ...Array.from({ length: count }, (_, i) => `<< /N ${i} /A [1 2 3] >>`),
  ]);
}

/** Where a bomb is put: an attachment, the DSS's certificates, or an object stream pdf-lib inflates while loading. */
export type TBombPlace = 'attachment' | 'dss' | 'object stream';

/** `inflated` zeros deflated `levels` times (1 to 3), as a stream of the given dictionary entries. */
function bombStream(inflated: number, levels: number, entries: string): Buffer {
  let data = deflatedZeros(inflated);
  for (let i = 1; i < levels; i++) data = deflateSync(data, { level: 9 });
  const filters = Array.from({ length: levels }, () => '/FlateDecode').join(' ');
  return Buffer.concat([
    Buffer.from(`<< ${entries} /Filter [${filters}] /Length ${data.length} >>\nstream\n`, 'latin1'),
    data,
    Buffer.from('\nendstream', 'latin1'),
  ]);
}

/** A bomb of `inflated` zeros at `place`. */
export function bombAt(place: TBombPlace, inflated: number, levels: number): Buffer {
  switch (place) {
    case 'attachment':
      return pdfOfObjects([
        '<< /Type /Catalog /Pages 2 0 R /Names 4 0 R >>',
        ...PAGES,
        '<< /EmbeddedFiles 5 0 R >>',
        '<< /Names [(evidence-record.json) 6 0 R] >>',
        '<< /Type /Filespec /F (evidence-record.json) /EF << /F 7 0 R >> >>',
        bombStream(inflated, levels, '/Type /EmbeddedFile'),
      ]);
    case 'dss':
      return pdfOfObjects([
        '<< /Type /Catalog /Pages 2 0 R /DSS 4 0 R >>',
        ...PAGES,
        '<< /Certs [5 0 R] >>',
        bombStream(inflated, levels, ''),
      ]);
    case 'object stream':
      return pdfOfObjects([
        '<< /Type /Catalog /Pages 2 0 R >>',
        ...PAGES,
        bombStream(inflated, levels, '/Type /ObjStm /N 1 /First 4'),
      ]);
  }
}

/** A chain of `depth` attachment name-tree nodes, each the only kid of the one before. */
export function deepNameTree(depth: number): Buffer {
  const nodes = Array.from({ length: depth }, (_, i) =>
    i + 1 < depth ? `<< /Kids [${i + 6} 0 R] >>` : '<< /Names [] >>',
  );
  return pdfOfObjects([
    '<< /Type /Catalog /Pages 2 0 R /Names 4 0 R >>',
    ...PAGES,
    '<< /EmbeddedFiles 5 0 R >>',
    ...nodes,
  ]);
}

/** An object that is `depth` arrays, each inside the one before. */
export function deepArray(depth: number): Buffer {
  return pdfOfObjects([
    '<< /Type /Catalog /Pages 2 0 R /Deep 4 0 R >>',
    ...PAGES,
    `${'['.repeat(depth)}${']'.repeat(depth)}`,
  ]);
}

/** A page tree whose root lists itself among its kids, `fanOut` times. */
export function cyclicPageTree(fanOut: number): Buffer {
  const kids = ['3 0 R', ...Array.from({ length: fanOut }, () => '2 0 R')].join(' ');
  return pdfOfObjects([
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${kids}] /Count ${fanOut + 1} >>`,
    PAGES[1]!,
  ]);
}

/** A one-page PDF whose form is `form` (object 4) with `extra` objects from 5 on. */
function withForm(form: string, extra: string[] = []): Buffer {
  return pdfOfObjects(['<< /Type /Catalog /Pages 2 0 R /AcroForm 4 0 R >>', ...PAGES, form, ...extra]);
}

/** A form field that lists itself as its kids, `fanOut` times: a walk without a visited set never ends. */
export function cyclicFormKids(fanOut = 24): Buffer {
  const kids = Array.from({ length: fanOut }, () => '5 0 R').join(' ');
  return withForm('<< /Fields [5 0 R] >>', [`<< /T (loop) /FT /Tx /Kids [${kids}] >>`]);
}

/** A form whose /Fields names one field `count` times (six bytes each). */
export function hugeFormFields(count = 200_000): Buffer {
  return withForm(`<< /Fields [${'5 0 R '.repeat(count)}] >>`, [
    '<< /T (f) /FT /Tx /Subtype /Widget /Rect [10 10 100 30] /P 3 0 R >>',
  ]);
}
