// Images as documents, damaged the ways uploads are: bytes changed anywhere, the file cut short,
// junk after it. Whatever arrives, the converter makes a PDF or refuses the image
// (PdfRejectedError, `bad_image`, which the API answers as a 400 on the document's field), and
// never throws anything else (a 500).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exifOrientation } from '#shared/pdf/exif-orientation';
import { imageToPdf } from '#shared/pdf/image-to-pdf';
import { PdfRejectedError } from '#shared/pdf/inspect-pdf';
import { aJpeg, aPng, darkLeftQuarter, exifSegment } from '../helpers/images';

const png = aPng(32, 32, darkLeftQuarter(32));
// With an EXIF segment, so its orientation tag is read (and can be damaged) too.
const plainJpeg = aJpeg(32, 32, darkLeftQuarter(32));
const jpeg = Buffer.concat([plainJpeg.subarray(0, 2), exifSegment(6), plainJpeg.subarray(2)]);

type TDamage =
  | { kind: 'bytes'; at: number[]; value: number }
  | { kind: 'cut'; keep: number }
  | { kind: 'grow'; extra: Uint8Array };

const damageArb: fc.Arbitrary<TDamage> = fc.oneof(
  fc.record({
    kind: fc.constant('bytes' as const),
    at: fc.array(fc.nat(), { minLength: 1, maxLength: 4 }),
    value: fc.integer({ min: 0, max: 255 }),
  }),
  fc.record({ kind: fc.constant('cut' as const), keep: fc.nat() }),
  fc.record({ kind: fc.constant('grow' as const), extra: fc.uint8Array({ minLength: 1, maxLength: 64 }) }),
);

function damaged(image: Buffer, d: TDamage): Buffer {
  if (d.kind === 'cut') return image.subarray(0, d.keep % image.length);
  if (d.kind === 'grow') return Buffer.concat([image, d.extra]);
  const out = Buffer.from(image);
  for (const at of d.at) out[at % out.length] = d.value;
  return out;
}

describe('a damaged image', () => {
  it.each([
    ['PNG', png, 'png'],
    ['JPEG', jpeg, 'jpeg'],
  ] as const)(
    '%s: becomes a PDF or is refused as a bad image, never anything else',
    async (_name, image, kind) => {
      await fc.assert(
        fc.asyncProperty(damageArb, async (d) => {
          const bytes = damaged(image, d);
          if (kind === 'jpeg') exifOrientation(bytes);
          try {
            const pdf = await imageToPdf(bytes, kind, 'letter');
            expect(Buffer.from(pdf.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
          } catch (err) {
            expect(err, `${JSON.stringify(d)}: ${(err as Error).stack}`).toBeInstanceOf(PdfRejectedError);
            expect((err as PdfRejectedError).reason).toBe('bad_image');
          }
        }),
        { numRuns: 150 },
      );
    },
    120_000,
  );
});
