import { readSeal } from '../../pdf/read-seal';
import type { TSealReader } from '../../ports';

/** Reads seals from the file alone: no identity, no renderer (the API and the public check use it). */
export function createSealReader(): TSealReader {
  return { read: async (pdf) => readSeal(pdf) };
}
