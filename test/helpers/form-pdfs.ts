// PDFs with their own form fields (AcroForm), made with pdf-lib as forms are filled in the wild:
// a text field, a multi-line one with a maximum length, a check box, a radio group, a drop-down
// and a signature field (which pdf-lib cannot make: written by hand), with current values.
import { degrees, PDFArray, PDFDocument, PDFName, PDFString, StandardFonts } from 'pdf-lib';

/**
 * One Letter page, turned a quarter when `rotate` is given. Names start with the packet keys of
 * the tests: `employee.*` and `employer_*`, and one, `notes`, with no prefix.
 */
export async function aFormPdf({ rotate }: { rotate?: 90 } = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  if (rotate) page.setRotation(degrees(rotate));
  const font = await doc.embedFont(StandardFonts.Helvetica);
  page.drawText('Employee form', { x: 50, y: 740, size: 16, font });
  const form = doc.getForm();
  const name = form.createTextField('employee.name');
  name.addToPage(page, { x: 50, y: 692, width: 244.8, height: 20 });
  name.setText('Jane Roe');
  name.enableRequired();
  const notes = form.createTextField('notes');
  notes.enableMultiline();
  notes.setMaxLength(200);
  notes.addToPage(page, { x: 50, y: 600, width: 300, height: 60 });
  const agree = form.createCheckBox('employee.agree');
  agree.addToPage(page, { x: 50, y: 560, width: 14, height: 14 });
  agree.check();
  const status = form.createRadioGroup('employee.status');
  status.addOptionToPage('Single', page, { x: 50, y: 520, width: 14, height: 14 });
  status.addOptionToPage('Married', page, { x: 120, y: 520, width: 14, height: 14 });
  status.select('Married');
  const state = form.createDropdown('employer_state');
  state.addOptions(['CA', 'NY', 'TX']);
  state.select('NY');
  state.addToPage(page, { x: 50, y: 470, width: 100, height: 20 });
  const button = form.createButton('print');
  button.addToPage('Print', page, { x: 400, y: 470, width: 60, height: 20 });
  // A signature field, as forms carry them: a field of type /Sig merged with its widget.
  const sig = doc.context.register(
    doc.context.obj({
      Type: 'Annot',
      Subtype: 'Widget',
      FT: 'Sig',
      T: PDFString.of('employer_signature'),
      Rect: [300, 100, 500, 140],
      F: 4,
      P: page.ref,
    }),
  );
  page.node.addAnnot(sig);
  form.acroForm.dict.lookup(PDFName.of('Fields'), PDFArray).push(sig);
  return doc.save();
}
