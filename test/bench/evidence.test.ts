import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import {
  bundleFields,
  bundleValues,
  docsReadySample,
  EVIDENCE_FIELD_MIX,
  evidencePdf,
  evidenceStampFields,
  noise,
  p50Max,
  pngImage,
  signaturePng,
  spread,
  spreadPage,
  type TEvidenceArrival,
  vmHwmMb,
} from '../../bench/evidence';

describe('spreadPage', () => {
  it('spreads n items evenly from the first page, never past the last', () => {
    const pages = Array.from({ length: 40 }, (_, i) => spreadPage(i, 40, 50));
    expect(pages[0]).toBe(1);
    expect(Math.max(...pages)).toBeLessThanOrEqual(50);
    expect(new Set(pages).size).toBe(40);
    expect(Array.from({ length: 20 }, (_, i) => spreadPage(i, 20, 10))).toEqual(
      Array.from({ length: 20 }, (_, i) => Math.floor(i / 2) + 1),
    );
  });
});

describe('evidenceStampFields', () => {
  it('makes the 40-field mix over the pages, sig drawn with their own image copy, ini typed', () => {
    const png = signaturePng();
    const fields = evidenceStampFields(50, png);
    expect(fields).toHaveLength(40);
    const count = (kind: string) => fields.filter((f) => f.kind === kind).length;
    expect(Object.fromEntries(Object.keys(EVIDENCE_FIELD_MIX).map((k) => [k, count(k)]))).toEqual(
      EVIDENCE_FIELD_MIX,
    );
    expect(new Set(fields.map((f) => f.page)).size).toBe(40);
    for (const f of fields) {
      expect(f.page).toBeGreaterThanOrEqual(1);
      expect(f.page).toBeLessThanOrEqual(50);
      expect(f.x + f.w).toBeLessThanOrEqual(100);
      expect(f.y + f.h).toBeLessThanOrEqual(100);
    }
    const sigs = fields.filter((f) => f.kind === 'sig');
    expect(sigs.every((f) => f.value === 'drawn' && f.image !== undefined && f.image !== png)).toBe(true);
    expect(Buffer.from(sigs[0]!.image!).equals(png)).toBe(true);
    expect(fields.filter((f) => f.kind === 'ini').every((f) => f.value.startsWith('typed:'))).toBe(true);
    expect(fields.find((f) => f.kind === 'sel')).toMatchObject({ value: 'B', options: ['A', 'B', 'C'] });
  });
});

describe('bundleFields and bundleValues', () => {
  it('gives each signer ten required fields and a value for each', () => {
    const fields = bundleFields(['ann', 'bob'], 10);
    expect(fields).toHaveLength(20);
    expect(new Set(fields.map((f) => f.key)).size).toBe(20);
    expect(Math.max(...fields.map((f) => f.page))).toBe(10);
    for (const signer of ['ann', 'bob']) {
      const own = fields.filter((f) => f.editors[0] === signer);
      expect(own).toHaveLength(10);
      expect(own.filter((f) => f.kind === 'sig')).toHaveLength(1);
    }
    const ann = bundleValues('doc', fields, 'ann', 'data:image/png;base64,AAAA');
    expect(ann).toHaveLength(10);
    expect(ann.find((v) => v.field_key.includes('_sig_'))).toEqual({
      doc_key: 'doc',
      field_key: 'ann_sig_16',
      image: 'data:image/png;base64,AAAA',
    });
    const bob = bundleValues('doc', fields, 'bob');
    expect(bob.find((v) => v.field_key.includes('_sig_'))).toMatchObject({ value: 'typed:bob signs' });
    expect(bob.every((v) => v.field_key.startsWith('bob_'))).toBe(true);
  });
});

describe('pngImage', () => {
  it('writes a PNG pdf-lib can embed, of the size asked', async () => {
    const png = pngImage(3, 2, (x, y) => [x * 80, y * 120, 0, 255]);
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    const doc = await PDFDocument.create();
    const image = await doc.embedPng(png);
    expect([image.width, image.height]).toEqual([3, 2]);
    const sig = await doc.embedPng(signaturePng());
    expect([sig.width, sig.height]).toEqual([600, 180]);
    expect(signaturePng().length).toBeLessThan(200 * 1024);
  });
});

describe('noise', () => {
  it('is deterministic by seed and of the length asked', () => {
    expect(noise(10, 1)).toHaveLength(10);
    expect(Buffer.from(noise(64, 7)).equals(Buffer.from(noise(64, 7)))).toBe(true);
    expect(Buffer.from(noise(64, 7)).equals(Buffer.from(noise(64, 8)))).toBe(false);
  });
});

describe('evidencePdf', () => {
  it('makes a real PDF of the pages asked, within 2 % of the size asked', async () => {
    const pdf = await evidencePdf(4, 400_000, 'Test');
    expect(Math.abs(pdf.length - 400_000)).toBeLessThan(8_000);
    expect((await PDFDocument.load(pdf)).getPageCount()).toBe(4);
  });
});

describe('spread and p50Max', () => {
  it('summarizes, and answers NaN for an empty sample', () => {
    expect(spread([3, 1, 2, 10])).toEqual({ runs: 4, medianMs: 2.5, minMs: 1, maxMs: 10 });
    expect(p50Max([5, 1, 3])).toEqual({ runs: 3, p50Ms: 3, maxMs: 5 });
    expect(p50Max([]).p50Ms).toBeNaN();
    expect(spread([]).medianMs).toBeNaN();
  });
});

describe('docsReadySample', () => {
  const at = (
    eventType: string,
    eventDate: number,
    arrivedAt: number,
    extra: Partial<TEvidenceArrival> = {},
  ) => ({
    eventId: `${eventType}-${eventDate}`,
    eventType,
    eventDate,
    bundleId: 'b1',
    arrivedAt,
    ...extra,
  });

  it('measures from the last signer’s packet_complete and the complete answer to the first docs_ready', () => {
    const arrivals = [
      at('packet_complete', 1000, 1010, { packetId: 'ann' }),
      at('packet_complete', 2000, 2015, { packetId: 'bob' }),
      at('bundle_docs_ready', 2600, 2620),
      // A duplicate delivery of the same event, later: the first arrival counts.
      at('bundle_docs_ready', 2600, 2900),
      at('bundle_docs_ready', 100, 200, { bundleId: 'other' }),
    ];
    expect(docsReadySample(arrivals, 'b1', 'bob', 2050)).toEqual({
      completeToArrivalMs: 570,
      eventToEventMs: 600,
      eventToArrivalMs: 620,
    });
  });

  it('says what is missing, or that there were two docs-ready events', () => {
    const pc = at('packet_complete', 2000, 2015, { packetId: 'bob' });
    expect(docsReadySample([], 'b1', 'bob', 0)).toMatch(/packet_complete/);
    expect(docsReadySample([pc], 'b1', 'bob', 0)).toMatch(/no bundle_docs_ready/);
    expect(
      docsReadySample(
        [pc, at('bundle_docs_ready', 2600, 2620), at('bundle_docs_ready', 2700, 2720)],
        'b1',
        'bob',
        0,
      ),
    ).toMatch(/two different/);
    // Only the last signer's packet_complete counts.
    expect(docsReadySample([{ ...pc, packetId: 'ann' }], 'b1', 'bob', 0)).toMatch(/packet_complete/);
  });
});

describe('vmHwmMb', () => {
  it('reads the peak resident set of a /proc status text, in MiB', () => {
    const status = 'Name:\tnode\nVmPeak:\t 1200000 kB\nVmHWM:\t  286720 kB\nVmRSS:\t  200000 kB\n';
    expect(vmHwmMb(status)).toBe(280);
    expect(vmHwmMb('Name:\tnode\n')).toBeUndefined();
  });
});
