import { PDFArray, PDFDict, PDFDocument, PDFName } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { keyOf, mapFormFields, type TFormFieldContext } from '#shared/domain/bundles/place-form-fields';
import { boxOf, frameOf } from '#shared/pdf/page-frame';
import { pagesOf, type TRect } from '#shared/pdf/page-tree';
import { PdfRejectedError } from '#shared/pdf/pdf-rejected-error';
import { percentBox, readFormFields, type TFormField } from '#shared/pdf/read-form-fields';
import { removeFormFields } from '#shared/pdf/remove-form-fields';
import { PdfTooComplexError } from '#shared/pdf/untrusted-limits';
import { aW4LikePdf } from '../helpers/active-originals';
import { aFormPdf } from '../helpers/form-pdfs';
import { cyclicFormKids, hugeFormFields } from '../helpers/hostile-pdfs';
import { aPdf } from '../helpers/pdfs';

describe("reading a PDF's own form fields", () => {
  it('reads each kind with its box, name, flags, length, choices and value', async () => {
    const fields = await readFormFields(await aFormPdf(), 500);
    const byName = Object.fromEntries(fields.map((f) => [f.name, f]));
    // The push button is no field to fill.
    expect(Object.keys(byName).sort()).toEqual([
      'employee.agree',
      'employee.name',
      'employee.status',
      'employer_signature',
      'employer_state',
      'notes',
    ]);
    expect(byName['employee.name']).toMatchObject({
      kind: 'inp',
      required: true,
      value: 'Jane Roe',
      page: 1,
    });
    // 50 pt from the left of 612, its top (712.5 with pdf-lib's border) 79.5 pt from the top of 792.
    expect(byName['employee.name']).toMatchObject({ x: 8.09, y: 10.04, w: 40.16, h: 2.65 });
    expect(byName.notes).toMatchObject({ kind: 'txt', maxLength: 200, required: false });
    expect(byName.notes).not.toHaveProperty('value');
    expect(byName['employee.agree']).toMatchObject({ kind: 'chk', value: 'true' });
    expect(byName['employee.status']).toMatchObject({
      kind: 'sel',
      options: ['Single', 'Married'],
      value: 'Married',
    });
    // The radio group's box spans both of its buttons.
    expect(byName['employee.status']!.w).toBeGreaterThan(13);
    expect(byName.employer_state).toMatchObject({ kind: 'sel', options: ['CA', 'NY', 'TX'], value: 'NY' });
    expect(byName.employer_signature).toMatchObject({ kind: 'sig', x: 49.02, y: 82.32, w: 32.68, h: 5.05 });
  });

  it('measures boxes on the page as displayed, as fields are drawn, whatever the turn and crop', async () => {
    const doc = await PDFDocument.load(
      await aPdf({
        pages: ([0, 90, 180, 270] as const).map((rotate) => ({
          size: 'Letter' as const,
          rotate,
          cropBox: [20, 30, 500, 700] as [number, number, number, number],
        })),
      }),
    );
    const nodes = pagesOf(doc.catalog.lookup(PDFName.of('Pages'), PDFDict), 10);
    const rect: TRect = [100, 200, 250, 230];
    doc.getPages().forEach((page, i) => {
      const box = percentBox(nodes[i]!, rect)!;
      // Drawn where the service draws a field of that box, it covers the widget's rectangle.
      const frame = frameOf(page);
      const drawn = boxOf(frame, box);
      const [a, b, c, d, e, f] = frame.matrix;
      const corners = [
        [drawn.x, drawn.y],
        [drawn.x + drawn.width, drawn.y + drawn.height],
      ].map(([x, y]) => [a * x! + c * y! + e, b * x! + d * y! + f]);
      const xs = corners.map((p) => p[0]!);
      const ys = corners.map((p) => p[1]!);
      expect(
        [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)].map((v) => Math.round(v)),
      ).toEqual(rect);
    });
    const turned = await readFormFields(await aFormPdf({ rotate: 90 }), 500);
    // Turned a quarter clockwise, the page's left edge is on top: the field runs down the page.
    expect(turned.find((f) => f.name === 'employee.name')).toMatchObject({
      x: 87.31,
      y: 8.09,
      w: 2.65,
      h: 40.16,
    });
  });

  it('reads a W-4 like form, and takes its XFA out with the form', async () => {
    const w4 = await aW4LikePdf();
    const fields = await readFormFields(w4, 500);
    expect(fields).toEqual([
      expect.objectContaining({
        name: 'topmostSubform[0].Page1[0].f1_01[0]',
        kind: 'inp',
        value: 'Jane Roe',
      }),
    ]);
    const without = await PDFDocument.load(await removeFormFields(w4, [fields[0]!.name], 500));
    expect(without.catalog.has(PDFName.of('AcroForm'))).toBe(false);
    expect(Buffer.from(await without.save()).toString('latin1')).not.toContain('xdp:xdp');
  });

  it('reads a field listed twice once, and refuses a form whose fields list themselves or are too many', async () => {
    const doc = await PDFDocument.load(await aFormPdf());
    const list = doc.getForm().acroForm.dict.lookup(PDFName.of('Fields'), PDFArray);
    list.push(list.get(0));
    expect(await readFormFields(await doc.save(), 500)).toHaveLength(6);
    await expect(readFormFields(cyclicFormKids(), 500)).rejects.toThrow(/lists a field under itself/);
    await expect(readFormFields(cyclicFormKids(), 500)).rejects.toThrow(PdfRejectedError);
    await expect(readFormFields(hugeFormFields(), 500)).rejects.toThrow(PdfTooComplexError);
  });

  it('takes the replaced fields and their widgets out, and the form with its last field', async () => {
    const pdf = await aFormPdf();
    const all = (await readFormFields(pdf, 500)).map((f) => f.name);
    const some = await removeFormFields(pdf, ['employee.name', 'notes'], 500);
    expect((await readFormFields(some, 500)).map((f) => f.name)).toEqual(
      all.filter((n) => n !== 'employee.name' && n !== 'notes'),
    );
    const none = await PDFDocument.load(await removeFormFields(pdf, all, 500));
    // The push button was not replaced: the form keeps it alone, and its page keeps its widget.
    expect(
      none
        .getForm()
        .getFields()
        .map((f) => f.getName()),
    ).toEqual(['print']);
    expect(none.getPage(0).node.Annots()?.size()).toBe(1);
  });
});

const ctx = (over: Partial<TFormFieldContext> = {}): TFormFieldContext => ({
  path: 'documents[0]',
  documentKey: 'w4',
  pageCount: 1,
  packetKeys: new Set(['employee', 'employer']),
  takenKeys: new Set(),
  ...over,
});
const field = (name: string, over: Partial<TFormField> = {}): TFormField => ({
  name,
  kind: 'inp',
  page: 1,
  x: 10,
  y: 10,
  w: 20,
  h: 3,
  required: false,
  ...over,
});

describe('giving form fields to signers', () => {
  it('goes by the map, then by a name that starts with a key, then "*", and null leaves a field', () => {
    const { fields, replaced, errors } = mapFormFields(
      [
        field('employee.name'),
        field('employer_ein', { maxLength: 9, value: '12-3456789012' }),
        field('line5', { kind: 'chk', value: 'true' }),
        field('print_date'),
        field('other'),
      ],
      ctx({ editors: { line5: 'employer', print_date: null, '*': 'employee' } }),
    );
    expect(errors).toEqual([]);
    expect(replaced).toEqual(['employee.name', 'employer_ein', 'line5', 'other']);
    expect(fields.map((f) => [f.key, f.editors])).toEqual([
      ['employee_name', ['employee']],
      ['employer_ein', ['employer']],
      ['line5', ['employer']],
      ['other', ['employee']],
    ]);
    // The maximum length bounds the value too.
    expect(fields[1]).toMatchObject({ v_max: 9, initial_value: '12-345678' });
  });

  it('gives everything to the only signer, and reports fields that go to no one', () => {
    const one = mapFormFields([field('a1'), field('b1')], ctx({ packetKeys: new Set(['emp']) }));
    expect(one.fields.map((f) => f.editors)).toEqual([['emp'], ['emp']]);
    const names = Array.from({ length: 12 }, (_, i) => field(`f${i}`));
    const { errors } = mapFormFields(names, ctx({ editors: { missing: 'employee', f0: 'nobody' } }));
    expect(errors.map((e) => e.message)).toEqual([
      'Document "w4" has no form field named "missing".',
      'No signer has the key "nobody" (form field "f0").',
      expect.stringMatching(
        /no signer is given the form fields "f1", .*"f10" and 1 more\. Name each in form_field_editors/,
      ),
    ]);
    expect(errors.every((e) => e.field === 'documents[0].form_field_editors')).toBe(true);
  });

  it('makes keys of names: the index parts left out, unique, and the end of a long name', () => {
    expect(keyOf('topmostSubform[0].Page1[0].Step1a[0].f1_01[0]')).toBe('Page1_Step1a_f1_01');
    expect(keyOf('a very long name of a field. with spaces and more')).toBe(
      'of_a_field_with_spaces_and_more',
    );
    expect(keyOf('x')).toBe('form-x');
    const { fields } = mapFormFields(
      [field('name'), field('name[1]'), field('Name?')],
      ctx({ packetKeys: new Set(['employee']), takenKeys: new Set(['name-2']) }),
    );
    expect(fields.map((f) => f.key)).toEqual(['name', 'name-3', 'Name']);
  });
});
