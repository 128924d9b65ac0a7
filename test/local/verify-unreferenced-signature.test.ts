// The offline verifier finds signatures as PDF readers do, through the form's fields. A signature
// dictionary no field refers to (an original's usage rights left in a file, its /ByteRange framing
// bytes of another file) signs nothing a reader shows: the report mentions it as information and
// the file's verdict stands on its real signatures. pdfsig, which also reads the fields, agrees.
import { PDFDocument, PDFHexString, PDFString } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { newSealIdentity, sealPdf } from '#shared/pdf/seal';
import { verifyPdf } from '#shared/verify/verify-pdf';
import { aPdf } from '../helpers/pdfs';
import { pdfsig } from '../helpers/poppler';

/** A PDF holding a usage-rights signature dictionary that nothing refers to, then sealed. */
async function sealedWithLeftover(): Promise<Uint8Array> {
  const doc = await PDFDocument.load(await aPdf());
  doc.context.register(
    doc.context.obj({
      Type: 'Sig',
      Filter: 'Adobe.PPKLite',
      SubFilter: 'adbe.pkcs7.detached',
      M: PDFString.of('D:20240101120000Z'),
      ByteRange: [0, 1001, 5001, 200],
      Contents: PDFHexString.of(`3082${'00'.repeat(256)}`),
    }),
  );
  const original = await doc.save({ useObjectStreams: false });
  return sealPdf(original, newSealIdentity('Leftover test seal'), { reason: 'Final document', name: 'Test' });
}

describe('a signature dictionary no form field refers to', () => {
  it('is reported as information, not checked: the file passes on its seal', async () => {
    const pdf = await sealedWithLeftover();
    const report = await verifyPdf(pdf);
    expect(report.checks.filter((c) => c.status === 'fail')).toEqual([]);
    expect(report.result).toBe('pass');
    expect(report.signatures.map((s) => [s.index, s.field])).toEqual([[1, expect.any(String)]]);
    expect(report.checks.find((c) => c.id === 'unreferenced-signatures')).toMatchObject({
      status: 'info',
      title:
        'Signature dictionaries no form field refers to: 1. PDF readers do not show them as signatures, so they were not checked.',
    });
    // poppler finds the one signature too.
    expect(pdfsig(pdf).match(/Signature #\d+:/g)).toHaveLength(1);
  });
});
