import { inspectPdf } from '../../pdf/inspect-pdf';
import type { TPdfTools } from '../../ports';

/**
 * PDF work behind the port. Text search needs a PDF text library that most requests never use,
 * so it is loaded only when a document asks for auto placements.
 */
export function createPdfTools(limits: { maxPages: number }): TPdfTools {
  return {
    inspect: (bytes) => inspectPdf(bytes, limits),
    async findText(bytes, searches) {
      const { findText } = await import('../../pdf/find-text');
      return findText(bytes, searches);
    },
  };
}
