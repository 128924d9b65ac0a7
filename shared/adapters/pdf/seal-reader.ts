import type { TSealReader } from '../../ports/evidence';

/**
 * Loaded on first use: the seal's parser, and pkijs, pdf-lib and the verifier for a check, stay
 * out of the functions' cold start (only a verification reads a seal).
 */
const parser = () => import('../../pdf/read-seal');
const verifier = () => import('../../verify/verify-pdf');

/**
 * Reads seals from the file alone: no identity, no renderer (the API and the public check use it).
 * `check` is the offline verifier esign-verify runs, so the service and the CLI answer alike; it
 * is given no trust list (the file's roots are shown, not judged) and never goes online.
 */
export function createSealReader(): TSealReader {
  return {
    read: async (pdf) => (await parser()).readSeal(pdf),
    check: async (pdf) => {
      const { UnreadablePdfError, verifyPdf } = await verifier();
      try {
        return await verifyPdf(pdf);
      } catch (err) {
        if (err instanceof UnreadablePdfError) return null;
        throw err;
      }
    },
  };
}
