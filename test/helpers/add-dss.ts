// A DSS (ISO 32000-2 §12.8.4.3) appended to a signed PDF as an incremental update written by
// hand, as a PAdES B-LT writer does: the streams, the DSS dictionary, the catalog again with /DSS,
// a cross-reference section and a trailer pointing back to the previous one. Nothing before it is
// touched, so the signatures stay valid (pdf-lib's own save would rewrite the whole file).
import { PDFDocument, PDFName, PDFRef } from 'pdf-lib';

export interface TDssContents {
  certs?: Buffer[];
  ocsps?: Buffer[];
  crls?: Buffer[];
  /** Uppercase hex keys of VRI entries, each listing all the streams. */
  vriKeys?: string[];
}

export async function withDss(pdf: Uint8Array, contents: TDssContents): Promise<Buffer> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const root = doc.context.trailerInfo.Root as PDFRef;
  const prev = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(Buffer.from(pdf).toString('latin1'))?.[1];
  if (!prev) throw new Error('The PDF does not end with startxref and %%EOF');
  let next = doc.context.largestObjectNumber + 1;
  const parts: Buffer[] = [Buffer.from(pdf), Buffer.from('\n')];
  let at = pdf.length + 1;
  const offsets = new Map<number, number>();
  const write = (num: number, body: Buffer | string) => {
    offsets.set(num, at);
    const chunk = Buffer.concat([
      Buffer.from(`${num} 0 obj\n`),
      Buffer.from(body),
      Buffer.from('\nendobj\n'),
    ]);
    parts.push(chunk);
    at += chunk.length;
  };
  const streams = (list: Buffer[] = []) =>
    list.map((bytes) => {
      const num = next++;
      write(
        num,
        Buffer.concat([
          Buffer.from(`<< /Length ${bytes.length} >>\nstream\n`),
          bytes,
          Buffer.from('\nendstream'),
        ]),
      );
      return `${num} 0 R`;
    });
  const certs = streams(contents.certs);
  const ocsps = streams(contents.ocsps);
  const crls = streams(contents.crls);
  const vri = (contents.vriKeys ?? [])
    .map(
      (key) => `/${key} << /Cert [${certs.join(' ')}] /OCSP [${ocsps.join(' ')}] /CRL [${crls.join(' ')}] >>`,
    )
    .join(' ');
  const dssNum = next++;
  write(
    dssNum,
    `<< /Certs [${certs.join(' ')}] /OCSPs [${ocsps.join(' ')}] /CRLs [${crls.join(' ')}] /VRI << ${vri} >> >>`,
  );
  const catalog = doc.catalog.clone();
  catalog.set(PDFName.of('DSS'), PDFRef.of(dssNum));
  write(root.objectNumber, catalog.toString());

  const entry = (num: number) => `${String(offsets.get(num)).padStart(10, '0')} 00000 n \n`;
  const fresh = [...offsets.keys()].filter((n) => n !== root.objectNumber).sort((a, b) => a - b);
  const xref =
    `xref\n0 1\n0000000000 65535 f \n${root.objectNumber} 1\n${entry(root.objectNumber)}` +
    `${fresh[0]} ${fresh.length}\n${fresh.map(entry).join('')}`;
  const id = doc.context.trailerInfo.ID ? ` /ID ${doc.context.trailerInfo.ID.toString()}` : '';
  parts.push(
    Buffer.from(
      `${xref}trailer\n<< /Size ${next} /Root ${root.toString()} /Prev ${prev}${id} >>\nstartxref\n${at}\n%%EOF\n`,
    ),
  );
  return Buffer.concat(parts);
}
