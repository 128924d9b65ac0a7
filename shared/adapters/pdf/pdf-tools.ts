import type { TPdfTools } from '#shared/domain/ports/files';
import { PdfRejectedError } from '#shared/pdf/pdf-rejected-error';
import { runBudgeted } from '../untrusted/run-budgeted';

/**
 * PDF work behind the port, on files senders gave us: each call runs in the untrusted-files
 * worker with its time and memory budget (untrusted/run-budgeted.ts), so a document that is slow
 * to read holds up no other request; pdf-lib and the text library load there, not at the
 * Lambda's start. Past the budget a call throws PdfRejectedError ('too_complex'), which the
 * use cases report on the document's field.
 */
export function createPdfTools(limits: { maxPages: number }): TPdfTools {
  const within = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (err) {
      if ((err as Error).name !== 'TooComplexError') throw err;
      throw new PdfRejectedError('too_complex', (err as Error).message);
    }
  };
  return {
    inspect: (bytes) => within(() => runBudgeted('inspectPdf', [bytes, limits], 'read')),
    findText: (bytes, searches) => within(() => runBudgeted('findText', [bytes, searches], 'search')),
    findTextTags: (bytes) => within(() => runBudgeted('findTextTags', [bytes], 'search')),
    hideTextTags: (bytes, tags) => within(() => runBudgeted('hideTextTags', [bytes, tags], 'rewrite')),
    readFormFields: (bytes) => within(() => runBudgeted('readFormFields', [bytes, limits.maxPages], 'read')),
    removeFormFields: (bytes, names) =>
      within(() => runBudgeted('removeFormFields', [bytes, names, limits.maxPages], 'rewrite')),
    imageToPdf: (bytes, kind, paper) =>
      within(() => runBudgeted('imageToPdf', [bytes, kind, paper], 'convert')),
  };
}
