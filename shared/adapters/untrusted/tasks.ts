// What the untrusted-files worker can be asked to do (run-budgeted.ts): each task a function of
// plain data (structured-cloneable in and out), loading its module when first asked, as the
// adapters on the request's thread did before.

import type { TFoundTag } from '#shared/pdf/find-text';
import type { TImageKind, TImagePageSize } from '#shared/pdf/image-kind';

export const TASKS = {
  /** The seal (read-seal.ts) and the offline verifier's report (null for no readable PDF) of a file. */
  async sealAndChecks(pdf: Uint8Array) {
    await import('reflect-metadata');
    const [{ readSeal }, { UnreadablePdfError, verifyPdf }] = await Promise.all([
      import('#shared/pdf/read-seal'),
      import('#shared/verify/verify-pdf'),
    ]);
    const seal = readSeal(pdf);
    try {
      return { seal, checks: await verifyPdf(pdf) };
    } catch (err) {
      if (err instanceof UnreadablePdfError) return { seal, checks: null };
      throw err;
    }
  },
  async inspectPdf(bytes: Uint8Array, limits: { maxPages: number }) {
    const { inspectPdf } = await import('#shared/pdf/inspect-pdf');
    return inspectPdf(bytes, limits);
  },
  async findText(bytes: Uint8Array, searches: string[]) {
    const { findText } = await import('#shared/pdf/find-text');
    return findText(bytes, searches);
  },
  async findTextTags(bytes: Uint8Array) {
    const [{ findTextTags }, { tagEnd }] = await Promise.all([
      import('#shared/pdf/find-text'),
      import('#shared/domain/bundles/text-tag'),
    ]);
    return findTextTags(bytes, tagEnd);
  },
  async hideTextTags(bytes: Uint8Array, tags: TFoundTag[]) {
    const { hideTextTags } = await import('#shared/pdf/hide-text-tags');
    return hideTextTags(bytes, tags);
  },
  async readFormFields(bytes: Uint8Array, maxPages: number) {
    const { readFormFields } = await import('#shared/pdf/read-form-fields');
    return readFormFields(bytes, maxPages);
  },
  async removeFormFields(bytes: Uint8Array, names: string[], maxPages: number) {
    const { removeFormFields } = await import('#shared/pdf/remove-form-fields');
    return removeFormFields(bytes, names, maxPages);
  },
  async imageToPdf(bytes: Uint8Array, kind: TImageKind, paper: TImagePageSize) {
    const { imageToPdf } = await import('#shared/pdf/image-to-pdf');
    return imageToPdf(bytes, kind, paper);
  },
  async parseRowsCsv(text: string) {
    const { parseRowsCsv } = await import('#shared/domain/bulk/parse-rows-csv');
    return parseRowsCsv(text);
  },
};

export type TTasks = typeof TASKS;
export type TTaskName = keyof TTasks;
