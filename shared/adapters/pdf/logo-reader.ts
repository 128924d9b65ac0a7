import type { TLogoReader } from '#shared/domain/ports/brands';
import { imageKindOf } from '#shared/pdf/image-kind';
import { runBudgeted } from '../untrusted/run-budgeted';

/**
 * A brand's logo is read as an image document is (image-to-pdf.ts: its caps on pixels and on a
 * PNG's decoded bytes), in the untrusted-files worker with its time and memory budget: an image
 * that converts there is one every browser can show, and a hostile one costs only the worker.
 */
export function createLogoReader(): TLogoReader {
  return {
    async read(bytes) {
      const kind = imageKindOf(bytes);
      if (!kind) return { ok: false, problem: 'The logo must be a PNG or JPEG image.' };
      try {
        await runBudgeted('imageToPdf', [bytes, kind, 'letter'], 'read');
      } catch (err) {
        const name = (err as Error).name;
        if (name !== 'PdfRejectedError' && name !== 'TooComplexError') throw err;
        return { ok: false, problem: (err as Error).message };
      }
      return { ok: true, mediaType: kind === 'png' ? 'image/png' : 'image/jpeg' };
    },
  };
}
