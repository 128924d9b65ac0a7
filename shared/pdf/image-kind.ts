// What an uploaded image is, known without pdf-lib: buildDocuments asks this of every document,
// while the conversion itself (image-to-pdf.ts, which bundles pdf-lib) is loaded only for an
// image, so a function that takes documents in does not load pdf-lib when it starts.

/** The paper an image document is put on: an account setting (TAccount.imagePageSize). */
export type TImagePageSize = 'letter' | 'a4';
export type TImageKind = 'png' | 'jpeg';

/** The kind of image these bytes are, by their first bytes; undefined for anything else. */
export function imageKindOf(bytes: Uint8Array): TImageKind | undefined {
  const starts = (sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (starts([0xff, 0xd8, 0xff])) return 'jpeg';
  return undefined;
}
