// The final document as a reader sees it: text extracted by poppler's pdftotext (outside the
// project), positions from its word boxes, and marks drawn on pages from rendered pixels.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AFRelationship,
  PageSizes,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFNumber,
  StandardFonts,
} from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { renderFinalDocument } from '#shared/pdf/final-document';
import { readAttachments } from '#shared/pdf/read-attachment';
import { formatFieldDate } from '../../shared/text/field-dates.js';
import { aContractPdf, aField, anAuditPage, CONTRACT_SPOTS, contractFields } from '../helpers/evidence';
import { aPdf, aPdfWithInheritedPageAttributes } from '../helpers/pdfs';
import { pageGrey, pageTexts, textOf, wordBoxes } from '../helpers/poppler';

const render = async (overrides: Partial<Parameters<typeof renderFinalDocument>[0]> = {}) =>
  renderFinalDocument({
    original: await aContractPdf(),
    fields: contractFields(),
    audit: anAuditPage(),
    isTest: false,
    interim: false,
    ...overrides,
  });

describe('stamped values', () => {
  it('draws every text value where a reader finds it: inputs, wrapped text, choices, names', async () => {
    const text = textOf(await render());
    expect(text).toContain('Zoë Ørsted — Ĳssel');
    expect(text).toContain('Ørsted & Søn Consulting ApS');
    expect(text).toContain('Quarterly review of the internal controls over financial reporting');
    expect(text).toContain('two training days a year for the finance team.');
    expect(text).toContain('Audit, Training');
    expect(text).toContain('Quarterly');
  });

  it("prints dates in the field format, and in full in the documents' language by default", async () => {
    const text = textOf(await render());
    expect(text).toContain('04/01/2025'); // start: MM/DD/YYYY
    expect(text).toContain('March 7, 2025'); // date signed: no format
  });

  it('draws what a date format adds in another script with a face that has it', async () => {
    const fields = contractFields().map((f) => (f.kind === 'dat' ? { ...f, format: 'YYYY年M月D日' } : f));
    const text = textOf(await render({ fields }));
    expect(text).toContain('2025年4月1日');
  });

  it("writes month names in the documents' language, as the signing page previews them", async () => {
    const fields = contractFields().map((f) => (f.kind === 'dat' ? { ...f, format: 'D MMMM YYYY' } : f));
    const text = textOf(await render({ fields, audit: { ...anAuditPage(), language: 'de' } }));
    expect(text).toContain('1 April 2025'); // start, in the field's format
    expect(text).toContain('7. März 2025'); // date signed, German in full
    expect(formatFieldDate('2025-03-07', '', 'de')).toBe('7. März 2025');
  });

  it.each([
    ['MM/DD/YYYY', '03/07/2025'],
    ['DD/MM/YYYY', '07/03/2025'],
    ['YYYY-MM-DD', '2025-03-07'],
    ['D MMMM YYYY', '7 March 2025'],
    ['dd/mm/yyyy', '07/03/2025'],
    ['', 'March 7, 2025'],
    ['MMM D', 'Mar 7'],
    ['[Signed] D.M.YY', 'Signed 7.3.25'],
  ])('formats 2025-03-07 with %j as %s', (format, printed) => {
    expect(formatFieldDate('2025-03-07', format)).toBe(printed);
  });

  it('takes an ISO time at its date, and leaves what is no date as it is', () => {
    expect(formatFieldDate('2025-12-31T23:59:59Z', '')).toBe('December 31, 2025');
    expect(formatFieldDate('not a date', 'MM/DD/YYYY')).toBe('not a date');
  });

  it('draws a typed signature and typed initials as their text, on every page they are placed', async () => {
    const pages = pageTexts(
      await render({
        fields: contractFields({ signature: { value: 'typed:Zoë Ørsted', image: undefined } }),
      }),
    );
    expect(pages[0]!.replace(/\s+/g, ' ')).toMatch(/Zoë Ørsted.*Zoë Ørsted/s);
    expect(pages[0]).toContain('ZØ');
    expect(pages[1]).toContain('ZØ');
  });

  it('keeps a value where the field is, from the top-left corner in percent', async () => {
    const boxes = wordBoxes(await render());
    const word = boxes.find((b) => b.page === 1 && b.word === 'Søn')!;
    const spot = CONTRACT_SPOTS.company!.field;
    expect(word.yMin / word.pageHeight).toBeGreaterThan(spot.y / 100);
    expect(word.yMax / word.pageHeight).toBeLessThan((spot.y + spot.h) / 100);
    expect(word.xMin / word.pageWidth).toBeGreaterThan(spot.x / 100);
  });

  it('places values as displayed on rotated and cropped pages', async () => {
    const original = await aPdf({
      pages: [
        { size: 'A4', rotate: 90 },
        { size: 'A4', rotate: 270 },
        { size: 'Letter', cropBox: [50, 100, 400, 500] },
        { size: 'A4', rotate: 180 },
      ],
    });
    const fields = [1, 2, 3, 4].map((page) =>
      aField({ page, x: 60, y: 70, w: 30, h: 5, kind: 'inp', value: `Mark${page}` }),
    );
    const boxes = wordBoxes(
      await renderFinalDocument({ original, fields, audit: anAuditPage(), isTest: false, interim: false }),
    );
    const [a4w, a4h] = PageSizes.A4;
    const displayed = [
      [a4h, a4w],
      [a4h, a4w],
      [400, 500],
      [a4w, a4h],
    ] as const;
    for (const page of [1, 2, 3, 4]) {
      const word = boxes.find((b) => b.word === `Mark${page}`)!;
      const [width, height] = displayed[page - 1]!;
      expect(word.page).toBe(page);
      expect(word.xMin / width).toBeGreaterThan(0.6);
      expect(word.xMin / width).toBeLessThan(0.63);
      expect(word.yMin / height).toBeGreaterThan(0.7);
      expect(word.yMax / height).toBeLessThan(0.75);
      // Upright as displayed: wider than tall.
      expect(word.xMax - word.xMin).toBeGreaterThan(word.yMax - word.yMin);
    }
  });

  it('shrinks a long single-line value to fit its box instead of cutting it', async () => {
    const long = 'Ørsted & Søn Consulting ApS, a company registered in Denmark under CVR number 12345678';
    const pdf = await render({ fields: contractFields({ company: { value: long } }) });
    expect(textOf(pdf)).toContain(long);
    const spot = CONTRACT_SPOTS.company!.field;
    const right = Math.max(
      ...wordBoxes(pdf)
        .filter((b) => b.page === 1 && b.word === '12345678')
        .map((b) => b.xMax / b.pageWidth),
    );
    expect(right).toBeLessThanOrEqual((spot.x + spot.w) / 100);
  });

  it('draws a check mark for a checked box and nothing for an unchecked one', async () => {
    const darkest = async (value: string) => {
      const grey = pageGrey(await render({ fields: contractFields({ agree: { value } }) }), 1);
      const spot = CONTRACT_SPOTS.agree!.field;
      let min = 255;
      // Inside the box's frame, clear of its border.
      const [x0, x1] = [
        ((spot.x + spot.w * 0.3) / 100) * grey.width,
        ((spot.x + spot.w * 0.7) / 100) * grey.width,
      ];
      const [y0, y1] = [
        ((spot.y + spot.h * 0.3) / 100) * grey.height,
        ((spot.y + spot.h * 0.7) / 100) * grey.height,
      ];
      for (let y = Math.floor(y0); y <= y1; y++)
        for (let x = Math.floor(x0); x <= x1; x++) min = Math.min(min, grey.at(x, y));
      return min;
    };
    expect(await darkest('true')).toBeLessThan(160);
    expect(await darkest('false')).toBeGreaterThan(230);
  });

  it('draws the drawn signature image inside its box', async () => {
    const inkIn = async (fields: ReturnType<typeof contractFields>) => {
      const grey = pageGrey(await render({ fields }), 1);
      const spot = CONTRACT_SPOTS.signature!.field;
      let dark = 0;
      for (
        let y = Math.ceil((spot.y / 100) * grey.height);
        y < ((spot.y + spot.h * 0.85) / 100) * grey.height;
        y++
      )
        for (let x = Math.ceil((spot.x / 100) * grey.width); x < ((spot.x + spot.w) / 100) * grey.width; x++)
          if (grey.at(x, y) < 128) dark++;
      return dark;
    };
    expect(await inkIn(contractFields())).toBeGreaterThan(20);
    expect(await inkIn(contractFields({ signature: { value: '', image: undefined } }))).toBe(0);
  });

  it('draws text in scripts no font has as "?" and says so on the audit page, without failing', async () => {
    // Thai: neither DejaVu nor the Noto faces of the service have it.
    const text = textOf(await render({ fields: contractFields({ company: { value: 'Siam สยาม Ltd' } }) }));
    expect(text).toContain('Siam ???? Ltd');
    expect(text).toContain('shown as "?"');
  });

  it('says a drawn signature is unavailable when its image cannot be read, and goes on', async () => {
    const broken = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4]);
    const text = textOf(
      await render({ fields: contractFields({ signature: { value: 'drawn', image: broken } }) }),
    );
    expect(text).toContain('[signature image unavailable]');
    expect(text).toContain('Ørsted & Søn Consulting ApS');
  });

  it('ignores attachment fields, fields on pages the document lacks, and empty values', async () => {
    const pdf = await render({
      fields: [
        aField({ kind: 'att', value: 'contract.docx' }),
        aField({ page: 9, value: 'Nowhere' }),
        aField({ page: 0, value: 'Nowhere' }),
        aField({ kind: 'txt', value: '' }),
        aField({ kind: 'sig', value: '' }),
        aField({ kind: 'chk', value: 'false' }),
      ],
    });
    const text = textOf(pdf);
    expect(text).not.toContain('contract.docx');
    expect(text).not.toContain('Nowhere');
  });
});

describe('the original form', () => {
  async function aPdfWithForm(): Promise<Uint8Array> {
    const doc = await PDFDocument.create();
    const page = doc.addPage(PageSizes.A4);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    page.drawText('Application', { x: 72, y: 780, size: 14, font });
    const form = doc.getForm();
    const name = form.createTextField('applicant.name');
    name.setText('Prefilled Applicant');
    name.addToPage(page, { x: 72, y: 700, width: 250, height: 20 });
    const agree = form.createCheckBox('applicant.agree');
    agree.check();
    agree.addToPage(page, { x: 72, y: 660, width: 14, height: 14 });
    return doc.save();
  }

  it('is flattened: its values stay visible and no field is left to edit', async () => {
    const pdf = await renderFinalDocument({
      original: await aPdfWithForm(),
      fields: [aField({ x: 12, y: 30, value: 'Stamped value' })],
      audit: anAuditPage(),
      isTest: false,
      interim: false,
    });
    expect(textOf(pdf)).toContain('Prefilled Applicant');
    expect(textOf(pdf)).toContain('Stamped value');
    const doc = await PDFDocument.load(pdf);
    expect(doc.catalog.has(PDFName.of('AcroForm'))).toBe(false);
    const annots = doc.getPage(0).node.Annots();
    expect(annots?.size() ?? 0).toBe(0);
  });

  it('draws a field value that has no appearance stream, in a font that covers it', async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage(PageSizes.A4);
    const field = doc.getForm().createTextField('city');
    field.addToPage(page, { x: 72, y: 700, width: 250, height: 20 });
    // Set as a viewer would leave it with NeedAppearances: a value and no appearance to show it.
    field.acroField.dict.set(PDFName.of('V'), PDFHexString.fromText('Ĳsselstein'));
    for (const widget of field.acroField.getWidgets()) widget.dict.delete(PDFName.of('AP'));
    const original = await doc.save({ updateFieldAppearances: false });
    const pdf = await renderFinalDocument({
      original,
      fields: [],
      audit: anAuditPage(),
      isTest: false,
      interim: false,
    });
    expect(textOf(pdf)).toContain('Ĳsselstein');
    expect((await PDFDocument.load(pdf)).catalog.has(PDFName.of('AcroForm'))).toBe(false);
  });

  it('is no problem when the document has none', async () => {
    const pdf = await render();
    const doc = await PDFDocument.load(pdf);
    expect(doc.catalog.has(PDFName.of('AcroForm'))).toBe(false);
  });
});

describe('the audit page', () => {
  it('is appended with the bundle, the document fingerprint, the signers, the events and the chain head', async () => {
    const audit = anAuditPage();
    const pages = pageTexts(await render({ audit }));
    expect(pages).toHaveLength(3);
    const last = pages[2]!.replace(/\s+/g, ' ');
    expect(last).toContain('Audit Trail');
    expect(last).toContain(audit.bundleId);
    expect(last).toContain(audit.label);
    expect(last).toContain(audit.documentName);
    expect(last).toContain(audit.originalSha256);
    expect(last).toContain(audit.chainHead);
    expect(last).toContain('daniel.okafor@example.org');
    expect(last).toContain('Mar 7, 2025, 16:22:41');
    expect(last).toContain('Signing request sent to Zoë Ørsted by email');
    expect(last).toContain('203.0.113.24');
    expect(last).toContain(
      'sealed with a PAdES digital signature (ETSI.CAdES.detached) by Open eSignature service seal',
    );
  });

  it('runs onto more pages when the trail is long, every page numbered', async () => {
    const events = Array.from({ length: 150 }, (_, i) => ({
      timestamp: new Date(Date.UTC(2025, 2, 7, 9, 0, i)).toISOString(),
      description: `Event number ${i + 1} of the bundle`,
      actor: 'service',
    }));
    const pages = pageTexts(await render({ audit: anAuditPage({ events }) }));
    expect(pages.length).toBeGreaterThan(4);
    const trail = pages.slice(2);
    expect(trail.join(' ')).toContain('Event number 150 of the bundle');
    trail.forEach((text, i) => {
      expect(text).toContain(`Page ${i + 1} of ${trail.length}`);
    });
    expect(trail.at(-1)).toContain(anAuditPage().chainHead);
  });

  it('is Letter after a Letter document and A4 otherwise', async () => {
    const sizes = async (size: 'A4' | 'Letter') => {
      const original = await aPdf({ pages: [{ size }] });
      const doc = await PDFDocument.load(
        await renderFinalDocument({
          original,
          fields: [],
          audit: anAuditPage(),
          isTest: false,
          interim: false,
        }),
      );
      return doc.getPage(1).getSize();
    };
    expect(await sizes('Letter')).toEqual({ width: 612, height: 792 });
    expect((await sizes('A4')).width).toBeCloseTo(PageSizes.A4[0], 1);
  });
});

describe('marks', () => {
  it('marks every page of a test document "TEST — not legally binding", the audit page too', async () => {
    const pages = pageTexts(await render({ isTest: true }));
    expect(pages).toHaveLength(3);
    for (const text of pages) expect(text).toContain('TEST — not legally binding');
  });

  it('marks every page of an interim file "INTERIM — not final", and says it is not sealed', async () => {
    const pages = pageTexts(await render({ interim: true }));
    for (const text of pages) expect(text).toContain('INTERIM — not final');
    expect(pages.at(-1)).toContain('Audit Trail (interim)');
    expect(pages.at(-1)!.replace(/\s+/g, ' ')).toContain('This interim copy is not sealed.');
    expect(pages.join(' ')).not.toContain('TEST — not legally binding');
  });

  it('puts both marks on an interim test file, upright on rotated pages', async () => {
    const original = await aPdf({ pages: [{ size: 'A4', rotate: 90 }] });
    const pdf = await renderFinalDocument({
      original,
      fields: [],
      audit: anAuditPage(),
      isTest: true,
      interim: true,
    });
    for (const text of pageTexts(pdf)) {
      expect(text).toContain('TEST — not legally binding');
      expect(text).toContain('INTERIM — not final');
    }
    const banner = wordBoxes(pdf).find((b) => b.page === 1 && b.word === 'legally')!;
    expect(banner.yMin / PageSizes.A4[0]).toBeLessThan(0.05); // the displayed height is A4's width
    expect(banner.xMax - banner.xMin).toBeGreaterThan(banner.yMax - banner.yMin);
  });

  it('leaves final documents unmarked', async () => {
    const text = textOf(await render());
    expect(text).not.toContain('not legally binding');
    expect(text).not.toContain('INTERIM');
  });
});

describe('originals as they come', () => {
  it('reads a document saved with object streams', async () => {
    const doc = await PDFDocument.create();
    doc.addPage(PageSizes.Letter);
    const original = await doc.save({ useObjectStreams: true });
    const pdf = await renderFinalDocument({
      original,
      fields: [aField({ value: 'Inside' })],
      audit: anAuditPage(),
      isTest: false,
      interim: false,
    });
    expect(textOf(pdf)).toContain('Inside');
  });

  it('reads a hand-written document whose pages inherit their size and rotation', async () => {
    const pdf = await renderFinalDocument({
      original: aPdfWithInheritedPageAttributes(),
      fields: [aField({ page: 1, value: 'First' }), aField({ page: 2, x: 5, w: 80, value: 'Second' })],
      audit: anAuditPage(),
      isTest: true,
      interim: false,
    });
    const pages = pageTexts(pdf);
    expect(pages[0]).toContain('First');
    expect(pages[1]).toContain('Second');
    expect(pages[0]).toContain('TEST — not legally binding');
  });
});

describe('the attachment the service adds', () => {
  const attachment = (bytes: string) => ({
    name: 'evidence-record.json',
    bytes: new TextEncoder().encode(bytes),
    mimeType: 'application/json',
    description: 'Evidence record',
    date: new Date('2026-11-24T10:00:00Z'),
  });

  it('is the only file it carries: a look-alike of the same name and the original’s others are gone', async () => {
    const original = await PDFDocument.load(await aContractPdf());
    await original.attach(new TextEncoder().encode('{"planted":true}'), 'evidence-record.json', {
      mimeType: 'application/json',
      afRelationship: AFRelationship.Data,
    });
    await original.attach(new TextEncoder().encode('<invoice/>'), 'invoice.xml', { mimeType: 'text/xml' });
    const pdf = await render({
      original: await original.save({ useObjectStreams: false }),
      attachment: attachment('{"ours":true}'),
    });
    const files = await readAttachments(pdf);
    expect(files.map((f) => [f.name, new TextDecoder().decode(f.bytes)])).toEqual([
      ['evidence-record.json', '{"ours":true}'],
    ]);
    expect(files.find((f) => f.name === 'evidence-record.json')).toMatchObject({
      associated: true,
      relationship: 'Data',
    });
    // pdfdetach finds it by its name too (a UTF-16 name would not match).
    const dir = mkdtempSync(join(tmpdir(), 'attach-'));
    try {
      writeFileSync(join(dir, 'final.pdf'), pdf);
      execFileSync('pdfdetach', [
        '-savefile',
        'evidence-record.json',
        '-o',
        join(dir, 'out.json'),
        join(dir, 'final.pdf'),
      ]);
      expect(readFileSync(join(dir, 'out.json'), 'utf8')).toBe('{"ours":true}');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is added to an original whose /AF and /Names are of the wrong type', async () => {
    const original = await PDFDocument.load(await aContractPdf());
    original.catalog.set(PDFName.of('AF'), PDFNumber.of(5));
    original.catalog.set(PDFName.of('Names'), PDFNumber.of(7));
    const pdf = await render({
      original: await original.save({ useObjectStreams: false }),
      attachment: attachment('{"ours":true}'),
    });
    expect((await readAttachments(pdf)).map((f) => f.name)).toEqual(['evidence-record.json']);
  });
});
