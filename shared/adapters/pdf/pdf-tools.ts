import { tagEnd } from '../../domain/bundles/text-tag';
import type { TPdfTools } from '../../ports/files';

/**
 * PDF work behind the port. pdf-lib and the text library are loaded on first use, not when the
 * Lambda starts: most requests to the bundles function (lists, retrieves, changes) never read a
 * PDF, and the text library is needed only for auto placements (and image conversion only for image documents).
 */
export function createPdfTools(limits: { maxPages: number }): TPdfTools {
  return {
    async inspect(bytes) {
      const { inspectPdf } = await import('../../pdf/inspect-pdf');
      return inspectPdf(bytes, limits);
    },
    async findText(bytes, searches) {
      const { findText } = await import('../../pdf/find-text');
      return findText(bytes, searches);
    },
    async findTextTags(bytes) {
      const { findTextTags } = await import('../../pdf/find-text');
      return findTextTags(bytes, tagEnd);
    },
    async hideTextTags(bytes, tags) {
      const { hideTextTags } = await import('../../pdf/hide-text-tags');
      return hideTextTags(bytes, tags);
    },
    async imageToPdf(bytes, kind, paper) {
      const { imageToPdf } = await import('../../pdf/image-to-pdf');
      return imageToPdf(bytes, kind, paper);
    },
  };
}
