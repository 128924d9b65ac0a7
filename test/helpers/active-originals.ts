// Originals that carry what a final document must not keep, as real forms do. The IRS W-4, for
// one, is an Adobe form with usage rights: /Perms /UR3 naming a signature dictionary that no field
// refers to (the W-4 carries two) and whose /ByteRange frames bytes of Adobe's file, not of any
// file made from it; an XFA form beside its AcroForm; and, as forms often have, scripts run on
// opening and on events, and an embedded file. Built with pdf-lib, since the tests run offline.
import { PDFDict, PDFDocument, PDFHexString, PDFName, PDFString } from 'pdf-lib';
import { newSealIdentity, sealPdf } from '#shared/pdf/seal';
import { aPdf } from './pdfs';

/** A usage-rights signature as Adobe's are: its byte ranges are of another file. */
const staleSignature = (doc: PDFDocument, n: number) =>
  doc.context.register(
    doc.context.obj({
      Type: 'Sig',
      Filter: 'Adobe.PPKLite',
      SubFilter: 'adbe.pkcs7.detached',
      Name: PDFString.of('ARE Acrobat Product v8.0 P23 0002337'),
      M: PDFString.of('D:20240101120000Z'),
      ByteRange: [0, 1000 + n, 5000 + n, 200],
      Contents: PDFHexString.of(`3082${'00'.repeat(512)}`),
      Reference: [{ Type: 'SigRef', TransformMethod: 'UR3', TransformParams: { Type: 'TransformParams' } }],
    }),
  );

const js = (code: string) => ({ S: 'JavaScript', JS: PDFString.of(code) });

/** A one-page form like the W-4: AcroForm and XFA, usage rights, scripts, actions, an embedded file. */
export async function aW4LikePdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  const font = await doc.embedFont('Helvetica');
  page.drawText("Form W-4 (like): Employee's Withholding Certificate", {
    x: 50,
    y: 740,
    size: 14,
    font,
  });
  const form = doc.getForm();
  const name = form.createTextField('topmostSubform[0].Page1[0].f1_01[0]');
  name.addToPage(page, { x: 50, y: 680, width: 240, height: 20 });
  name.setText('Jane Roe');
  const { context, catalog } = doc;
  form.acroForm.dict.set(
    PDFName.of('XFA'),
    context.register(
      context.stream(
        '<xdp:xdp xmlns:xdp="http://ns.adobe.com/xdp/"><template><subform name="topmostSubform"/></template></xdp:xdp>',
      ),
    ),
  );
  catalog.set(PDFName.of('Perms'), context.obj({ UR3: staleSignature(doc, 1) }));
  staleSignature(doc, 2); // the second, referred to by nothing at all
  catalog.set(PDFName.of('OpenAction'), context.obj(js('app.alert("Opened")')));
  catalog.set(PDFName.of('AA'), context.obj({ WC: js('app.alert("Closing")') }));
  page.node.set(PDFName.of('AA'), context.obj({ O: js('this.getField("x")') }));
  const link = context.register(
    context.obj({
      Type: 'Annot',
      Subtype: 'Link',
      Rect: [50, 600, 200, 620],
      Border: [0, 0, 0],
      A: js('app.launchURL("https://example.com")'),
    }),
  );
  page.node.addAnnot(link);
  await doc.attach(new TextEncoder().encode('worksheet lines 1-4'), 'worksheet.txt', {
    mimeType: 'text/plain',
  });
  await doc.flush(); // pdf-lib embeds attachments on flush: the catalog's /Names exists after it
  catalog
    .lookup(PDFName.of('Names'), PDFDict)
    .set(
      PDFName.of('JavaScript'),
      context.obj({ Names: [PDFString.of('init'), context.register(context.obj(js('var x = 1;')))] }),
    );
  // Without updating field appearances: that goes through pdf-lib's getForm(), which drops XFA.
  return doc.save({ useObjectStreams: false, updateFieldAppearances: false });
}

/** A PDF signed before upload by someone else (a PAdES signature in a signature field). */
export async function aSignedPdf(): Promise<Uint8Array> {
  return sealPdf(await aPdf(), newSealIdentity('Someone who signed before upload'), {
    reason: 'Approved',
    name: 'Someone',
  });
}
