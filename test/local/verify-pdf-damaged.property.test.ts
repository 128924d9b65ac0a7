// The offline verifier on sealed files damaged where a forger or a broken transfer would damage
// them: the signature dictionary's /ByteRange numbers, the signature's /Contents bytes, and the
// file cut short or grown. Whatever it is given, it answers a report or says the file is not a
// PDF it can read (UnreadablePdfError): the service turns anything else into a 500 on /verify.
// The seal reader the same check page uses first (readSeal) answers for any file too.
import 'reflect-metadata';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { readSeal } from '#shared/pdf/read-seal';
import { newSealIdentity, sealPdf } from '#shared/pdf/seal';
import { UnreadablePdfError, verifyPdf } from '#shared/verify/verify-pdf';
import { aPdf } from '../helpers/pdfs';

let sealed: Buffer;
let byteRange: { at: number; numbers: { from: number; length: number }[] };
let contents: { from: number; length: number };

beforeAll(async () => {
  sealed = Buffer.from(
    await sealPdf(await aPdf(), newSealIdentity('Damage test seal'), { reason: 'Final document', name: 'n' }),
  );
  const text = sealed.toString('latin1');
  const at = text.lastIndexOf('/ByteRange');
  const range = /\/ByteRange\s*\[(\s*)(\d+)(\s+)(\d+)(\s+)(\d+)(\s+)(\d+)/.exec(text.slice(at))!;
  // Where each of the four numbers sits, so a damage can rewrite it in place.
  const numbers: { from: number; length: number }[] = [];
  let cursor = at + range.index + range[0].indexOf('[') + 1;
  for (let i = 1; i <= 8; i++) {
    const piece = range[i]!;
    if (i % 2 === 0) numbers.push({ from: cursor, length: piece.length });
    cursor += piece.length;
  }
  byteRange = { at, numbers };
  const c = /\/Contents\s*<([0-9A-Fa-f]+)>/.exec(text.slice(text.lastIndexOf('/Contents')))!;
  contents = { from: text.lastIndexOf('/Contents') + c.index + c[0].indexOf('<') + 1, length: c[1]!.length };
});

type TDamage =
  | { kind: 'range'; which: number; value: number }
  | { kind: 'contents'; offset: number; byte: number }
  | { kind: 'cut'; keep: number }
  | { kind: 'grow'; extra: Uint8Array };

const damageArb: fc.Arbitrary<TDamage> = fc.oneof(
  fc.record({
    kind: fc.constant('range' as const),
    which: fc.integer({ min: 0, max: 3 }),
    value: fc.oneof(fc.nat(), fc.integer({ min: 0, max: 10_000_000 }), fc.constant(0)),
  }),
  fc.record({
    kind: fc.constant('contents' as const),
    offset: fc.nat(),
    byte: fc.constantFrom(...'0123456789abcdefZ> '.split('').map((ch) => ch.charCodeAt(0))),
  }),
  fc.record({ kind: fc.constant('cut' as const), keep: fc.nat() }),
  fc.record({ kind: fc.constant('grow' as const), extra: fc.uint8Array({ maxLength: 64 }) }),
);

function damaged(d: TDamage): Buffer {
  const out = Buffer.from(sealed);
  switch (d.kind) {
    case 'range': {
      const n = byteRange.numbers[d.which]!;
      // Rewritten in place, padded or cut to the digits there are, so nothing else moves.
      const digits = String(d.value).padStart(n.length, '0').slice(-n.length);
      out.write(digits, n.from, 'latin1');
      return out;
    }
    case 'contents':
      out[contents.from + (d.offset % contents.length)] = d.byte;
      return out;
    case 'cut':
      return out.subarray(0, d.keep % out.length);
    case 'grow':
      return Buffer.concat([out, d.extra]);
  }
}

describe('the verifier on a damaged sealed file', () => {
  it('answers a report, or that the file cannot be read, and never throws anything else', async () => {
    await fc.assert(
      fc.asyncProperty(damageArb, async (d) => {
        const seal = readSeal(damaged(d));
        if (seal) expect(typeof seal.valid).toBe('boolean');
        try {
          const report = await verifyPdf(damaged(d));
          expect(['pass', 'fail']).toContain(report.result);
        } catch (err) {
          expect(err, `${JSON.stringify(d)}: ${(err as Error).stack}`).toBeInstanceOf(UnreadablePdfError);
        }
      }),
      { numRuns: 150 },
    );
  }, 120_000);

  it('fails a file whose /ByteRange or /Contents was changed', async () => {
    const first = byteRange.numbers[1]!;
    const report = await verifyPdf(damaged({ kind: 'range', which: 1, value: 1 }));
    expect(first.length).toBeGreaterThan(0);
    expect(report.result).toBe('fail');
    expect((await verifyPdf(damaged({ kind: 'contents', offset: 40, byte: 'f'.charCodeAt(0) }))).result).toBe(
      'fail',
    );
  });
});
