import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bulkBundleId } from '#shared/domain/bulk/bulk-batch';
import { parseRowsCsv } from '#shared/domain/bulk/parse-rows-csv';
import { rowRequest } from '#shared/domain/bulk/row-request';
import { ValidationError } from '#shared/domain/errors';

const csvFault = (text: string) => {
  try {
    parseRowsCsv(text);
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationError);
    return (err as ValidationError).fieldErrors;
  }
  throw new Error('no fault');
};

describe('CSV rows', () => {
  it('maps <key>.<attribute> columns to signers and other columns to field values', () => {
    const rows = parseRowsCsv(
      '\uFEFFemp.name,emp.email,hr.phone,title\r\n"Lee, Ann",ann@x.test,+1 555 0100,"Lead ""A"""\r\nBo,,,\r\n\r\n',
    );
    expect(rows).toEqual([
      {
        signers: { emp: { name: 'Lee, Ann', email: 'ann@x.test' }, hr: { phone: '+1 555 0100' } },
        fields: { title: 'Lead "A"' },
      },
      { signers: { emp: { name: 'Bo' } }, fields: {} },
    ]);
  });

  it('keeps line breaks inside quotes and counts lines across them', () => {
    expect(parseRowsCsv('note\n"two\nlines"\nthird')).toEqual([
      { signers: {}, fields: { note: 'two\nlines' } },
      { signers: {}, fields: { note: 'third' } },
    ]);
    expect(csvFault('a,b\n"x\ny",1\n2\n')[0]!.message).toBe('Line 4: 1 columns where the header has 2.');
  });

  it.each([
    ['', 'The CSV needs a header row naming its columns.'],
    ['a,,b\n1,2,3', 'Line 1, column 2: the column has no name.'],
    ['a,a\n1,2', 'Line 1, column 2: the column "a" appears twice.'],
    ['emp.name.first\nx', 'Line 1, column 1: "emp.name.first" is not <signer key>.<attribute>.'],
    ['a,b\n1,"2', 'Line 2, column 2: a quoted value is never closed.'],
    ['a,b\n1,"2"x', 'Line 2, column 2: text after a closing quote.'],
    ['a,b\n1,2"', 'Line 2, column 2: a quote inside an unquoted value.'],
    ['a,b\n1,2,3', 'Line 2: 3 columns where the header has 2.'],
  ])('%j is refused: %s', (text, message) => {
    expect(csvFault(text)).toEqual([{ field: 'rows', message }]);
  });
});

describe("a row's create body", () => {
  const base = {
    label: 'Offer',
    packets: [{ key: 'emp' }, { key: 'hr', name: 'Hana', email: 'hr@x.test' }],
    documents: [
      { key: 'offer', fields: [{ kind: 'inp', key: 'title' }] },
      { key: 'policy', template_id: 'tpl', assignments: [] },
    ],
  };

  it('merges signers by key, adds new keys, and sets field values on fields and template documents', () => {
    const { body, errors } = rowRequest(
      base,
      {
        signers: { emp: { name: 'Ann' }, cc: { name: 'Cy', email: 'cy@x.test' } },
        fields: { title: 'Lead' },
      },
      0,
    );
    expect(errors).toEqual([]);
    expect(body.packets).toEqual([
      { key: 'emp', name: 'Ann' },
      { key: 'hr', name: 'Hana', email: 'hr@x.test' },
      { key: 'cc', name: 'Cy', email: 'cy@x.test' },
    ]);
    expect(body.documents).toEqual([
      { key: 'offer', fields: [{ kind: 'inp', key: 'title', initial_value: 'Lead' }] },
      {
        key: 'policy',
        template_id: 'tpl',
        assignments: [],
        field_values: [{ key: 'title', initial_value: 'Lead' }],
      },
    ]);
    // The batch's body is the same for every row.
    expect(base.packets[0]).toEqual({ key: 'emp' });
  });

  it('puts values into the envelope template, replacing one of the same key', () => {
    const { body } = rowRequest(
      {
        envelope_template: { template_id: 'T-1', field_values: [{ key: 'a', initial_value: '1' }] },
        packets: [],
      },
      { signers: { emp: { name: 'Ann' } }, fields: { a: '2', b: '3' } },
      4,
    );
    expect(body).toEqual({
      envelope_template: {
        template_id: 'T-1',
        field_values: [
          { key: 'a', initial_value: '2' },
          { key: 'b', initial_value: '3' },
        ],
      },
      packets: [{ key: 'emp', name: 'Ann' }],
    });
  });

  it('names the row and key of a value no field can take', () => {
    const { errors } = rowRequest({ ...base, documents: [base.documents[0]!] }, { fields: { pay: '1' } }, 7);
    expect(errors).toEqual([
      { field: 'rows[7].fields.pay', message: 'No field of the bundle has the key "pay".' },
    ]);
  });
});

describe("a row's bundle id", () => {
  it('is a bundle-shaped id, the same for the same batch and row, and different otherwise', () => {
    const id = bulkBundleId('batch-1', 0);
    expect(id).toMatch(/^[A-Za-z0-9]{10}$/);
    expect(bulkBundleId('batch-1', 0)).toBe(id);
    expect(bulkBundleId('batch-1', 1)).not.toBe(id);
    expect(bulkBundleId('batch-2', 0)).not.toBe(id);
  });
});

describe('any CSV text', () => {
  // Made of what CSV is made of, so that quoting, line ends and odd column counts all come up.
  const cell = fc.oneof(
    fc.constantFrom('emp.name', 'emp.email', 'title', '__proto__', 'constructor', 'a.b.c', '.x', 'emp.'),
    fc.string({ unit: fc.constantFrom('a', ',', '"', '\n', '\r', ' ', '.', '\uFEFF', 'é'), maxLength: 12 }),
  );
  const csvArb = fc
    .tuple(fc.array(fc.array(cell, { maxLength: 5 }), { maxLength: 6 }), fc.constantFrom('\n', '\r\n'))
    .map(([lines, end]) => lines.map((l) => l.join(',')).join(end));

  it('is rows, or a refusal that names what is wrong; never another error', () => {
    fc.assert(
      fc.property(fc.oneof(csvArb, fc.string({ maxLength: 80 })), (text) => {
        try {
          const rows = parseRowsCsv(text);
          expect(Array.isArray(rows)).toBe(true);
          for (const r of rows) expect(Object.getPrototypeOf(r.fields ?? {})).toBe(Object.prototype);
        } catch (err) {
          expect(err, `${JSON.stringify(text)}: ${(err as Error).stack}`).toBeInstanceOf(ValidationError);
        }
      }),
      { numRuns: 500 },
    );
  });
});
