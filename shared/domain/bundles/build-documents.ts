import { createHash } from 'node:crypto';
import type { TFoundTag } from '#shared/pdf/find-text';
import { imageKindOf, type TImagePageSize } from '#shared/pdf/image-kind';
import { PdfRejectedError } from '#shared/pdf/pdf-rejected-error';
import {
  BUNDLE_LIMITS,
  type TDocumentRequest,
  type TTemplateRequest,
  ZDocumentRequestSchema,
  ZTemplateRequestSchema,
} from '#shared/schemas/bundle-request';
import type { TFieldRequest } from '#shared/schemas/field';
import { type TFieldError, ValidationError } from '../errors';
import { parseInputAt } from '../parse-input';
import type { TPdfTools, TUrlFetcher } from '../ports/files';
import type { TDocument, TField } from './bundle';
import { formulaErrors } from './calculated-fields';
import { conditionErrors } from './check-conditions';
import { checkField, toField } from './check-field';
import { documentBytes } from './document-bytes';
import type { TCheckedPdf, TDocumentSharing } from './document-sharing';
import { placeFormFields } from './place-form-fields';
import { placeTextTags } from './place-text-tags';

/**
 * A checked document: uploaded ones carry their bytes (stored under the bundle), documents from
 * a template carry the template's blob key instead (reused, never copied).
 */
export interface TDocumentDraft {
  document: Omit<TDocument, 'blobKey'>;
  bytes?: Buffer;
  blobKey?: string;
}

/** Turns a TemplateRequest (at `path`, `documents[2]`) into a document, or says what is wrong. */
export type TTemplateResolver = (
  request: TTemplateRequest,
  path: string,
) => Promise<{ draft: TDocumentDraft } | { errors: TFieldError[] }>;

const MAX_FIELDS_BYTES = 300 * 1024;

const invalid = (errors: TFieldError[]) => new ValidationError('Invalid input.', errors);

/**
 * The document as a PDF, checked: a JPEG or PNG (known by its first bytes, whatever type it was
 * sent with) becomes a one-page PDF first, so that everything after sees only PDFs. A file the
 * tools refuse is reported on the field the document came from.
 */
async function asCheckedPdf(pdf: TPdfTools, uploaded: Buffer, field: string, paper: TImagePageSize) {
  try {
    const kind = imageKindOf(uploaded);
    const bytes = kind ? Buffer.from(await pdf.imageToPdf(uploaded, kind, paper)) : uploaded;
    return { bytes, info: await pdf.inspect(bytes) };
  } catch (err) {
    if ((err as Error).name !== 'PdfRejectedError') throw err;
    const message =
      (err as PdfRejectedError).reason === 'not_pdf'
        ? 'The file is not a PDF, a JPEG or a PNG image.'
        : (err as Error).message;
    throw invalid([{ field, message }]);
  }
}

/**
 * Turns the request's documents into checked documents with their fields: the bytes fetched or
 * decoded, images made PDFs, the PDF inspected, every field checked against the document's pages and the signers,
 * and auto placements resolved into fields where their text occurs.
 */
export async function buildDocuments(
  deps: { pdf: TPdfTools; fetcher: TUrlFetcher },
  items: Record<string, unknown>[],
  packetKeys: ReadonlySet<string>,
  files: ReadonlyMap<number, Buffer>,
  fromTemplate?: TTemplateResolver,
  /** The paper image documents are put on: the account's setting. */
  imagePaper: TImagePageSize = 'letter',
  /** Given, documents are prepared and stored once for every create that shares them (bulk send). */
  sharing?: TDocumentSharing,
): Promise<TDocumentDraft[]> {
  const parsed: ({ doc: TDocumentRequest; path: string } | { template: TTemplateRequest; path: string })[] =
    [];
  const errors: TFieldError[] = [];
  items.forEach((item, i) => {
    const path = ['documents', i];
    if ('template_id' in item) {
      const t = parseInputAt(ZTemplateRequestSchema, item, path);
      if ('errors' in t) errors.push(...t.errors);
      else if (!fromTemplate)
        errors.push({ field: `documents[${i}].template_id`, message: 'No document template has this id.' });
      else parsed.push({ template: t.data, path: `documents[${i}]` });
      return;
    }
    const d = parseInputAt(ZDocumentRequestSchema, item, path);
    if ('errors' in d) errors.push(...d.errors);
    else parsed.push({ doc: d.data, path: `documents[${i}]` });
  });
  const keyOf = (p: (typeof parsed)[number], i: number) =>
    ('doc' in p ? p.doc.key : p.template.key) ?? `doc-${i + 1}`;
  const keys = new Set<string>();
  parsed.forEach((p, i) => {
    const key = keyOf(p, i);
    if (keys.has(key))
      errors.push({ field: `${p.path}.key`, message: `Another document already has the key "${key}".` });
    keys.add(key);
  });
  // Templates are resolved before any file is fetched: a wrong assignment costs no download.
  const fromTemplates = new Map<number, TDocumentDraft>();
  for (const [i, p] of parsed.entries()) {
    if (!('template' in p) || !fromTemplate) continue;
    const resolved = await fromTemplate(p.template, p.path);
    if ('errors' in resolved) errors.push(...resolved.errors);
    else
      fromTemplates.set(i, {
        ...resolved.draft,
        document: { ...resolved.draft.document, key: keyOf(p, i) },
      });
  }
  parsed.forEach((p) => {
    if (!('doc' in p)) return;
    const { doc, path } = p;
    if ((doc.fields?.length ?? 0) > BUNDLE_LIMITS.fieldsPerDocument) {
      errors.push({
        field: `${path}.fields`,
        message: `At most ${BUNDLE_LIMITS.fieldsPerDocument} fields a document.`,
      });
    }
    if ((doc.auto_placements?.length ?? 0) > BUNDLE_LIMITS.autoPlacementsPerDocument) {
      errors.push({
        field: `${path}.auto_placements`,
        message: `At most ${BUNDLE_LIMITS.autoPlacementsPerDocument} auto placements a document.`,
      });
    }
  });
  if (errors.length > 0) throw invalid(errors);

  const drafts: TDocumentDraft[] = [];
  let total = 0;
  for (const [i, p] of parsed.entries()) {
    const fromTemplateDraft = fromTemplates.get(i);
    if (fromTemplateDraft) {
      drafts.push(fromTemplateDraft);
      continue;
    }
    if (!('doc' in p)) continue;
    const { doc, path } = p;
    const source =
      doc.file_b64 !== undefined ? 'file_b64' : doc.file_index !== undefined ? 'file_index' : 'file_url';
    const check = async (): Promise<TCheckedPdf> => {
      const uploaded = await documentBytes(doc, path, files, deps.fetcher);
      const checked = await asCheckedPdf(deps.pdf, uploaded, `${path}.${source}`, imagePaper);
      return { ...checked, sentBytes: uploaded.length };
    };
    const sourceName = sharing && sharedSourceOf(doc, files, imagePaper);
    const { bytes, info, sentBytes } = sourceName ? await sharing.checked(sourceName, check) : await check();
    total += sentBytes;
    if (total > BUNDLE_LIMITS.bundleBytes) {
      throw invalid([
        {
          field: path,
          message: `All documents together may be at most ${BUNDLE_LIMITS.bundleBytes / 1024 / 1024} MB.`,
        },
      ]);
    }
    const key = doc.key ?? `doc-${i + 1}`;
    const tagged = doc.text_tags
      ? await placeTextTags(deps.pdf, bytes, { path, documentKey: key, pages: info.pages, packetKeys })
      : undefined;
    const formed = doc.form_fields
      ? await placeFormFields(deps.pdf, bytes, {
          path,
          documentKey: key,
          pageCount: info.pageCount,
          packetKeys,
          ...(doc.form_field_editors ? { editors: doc.form_field_editors } : {}),
          takenKeys: new Set(
            [...(doc.fields ?? []), ...(tagged?.fields ?? [])]
              .map((f) => f.key)
              .filter((k): k is string => !!k),
          ),
        })
      : undefined;
    const placed = [...(tagged?.fields ?? []), ...(formed?.fields ?? [])];
    const fields = await placeFields(deps.pdf, doc, bytes, path, info.pageCount, packetKeys, placed);
    // The document is stored with its tags hidden and without the form fields that became
    // fields: the signer sees the fields, not the tags or the form's own boxes.
    const unformed = formed?.replaced.length
      ? await removeForm(deps.pdf, bytes, formed.replaced, path)
      : bytes;
    const stored = tagged?.found.length ? await hideTags(deps.pdf, unformed, tagged.found, path) : unformed;
    const sha256 = stored === bytes ? info.sha256 : createHash('sha256').update(stored).digest('hex');
    const document = {
      key,
      name: doc.name ?? doc.key ?? `Document ${i + 1}`,
      sha256,
      size: stored.length,
      pages: info.pages,
      fields,
    };
    drafts.push(
      sharing ? { blobKey: await sharing.stored(stored, sha256), document } : { bytes: stored, document },
    );
  }
  // Conditions may name fields of other documents: checked once all are placed.
  const conditionProblems = conditionErrors(
    drafts.map((d) => d.document),
    (i) => `documents[${i}]`,
  );
  if (conditionProblems.length > 0) throw invalid(conditionProblems);
  return drafts;
}

/**
 * What names a document's file among creates that share documents: its URL (fetched once for
 * all), or the SHA-256 of its bytes; with the paper an image is put on, which changes the PDF.
 */
function sharedSourceOf(
  doc: TDocumentRequest,
  files: ReadonlyMap<number, Buffer>,
  paper: TImagePageSize,
): string | undefined {
  const hash = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
  if (doc.file_url !== undefined && doc.file_b64 === undefined && doc.file_index === undefined)
    return `url:${paper}:${doc.file_url}`;
  if (doc.file_b64 !== undefined && doc.file_url === undefined && doc.file_index === undefined)
    return `b64:${paper}:${hash(doc.file_b64)}`;
  const file = doc.file_index !== undefined ? files.get(doc.file_index) : undefined;
  if (file && doc.file_url === undefined && doc.file_b64 === undefined) return `file:${paper}:${hash(file)}`;
  // Not exactly one source: documentBytes says what is wrong.
  return undefined;
}

/**
 * Text search reads deeper into a file than inspection does; a file whose text cannot be read
 * is the sender's problem (400), whatever the text library says about it.
 */
async function findText(pdf: TPdfTools, bytes: Buffer, searches: string[], field: string) {
  try {
    return await pdf.findText(bytes, searches);
  } catch (err) {
    const message =
      err instanceof PdfRejectedError ? err.message : 'The text of this document could not be read.';
    throw invalid([{ field, message }]);
  }
}

/** Hiding rewrites the file with pdf-lib, which may refuse what pdf.js read: the sender's 400. */
async function hideTags(pdf: TPdfTools, bytes: Buffer, found: TFoundTag[], path: string): Promise<Buffer> {
  try {
    return Buffer.from(await pdf.hideTextTags(bytes, found));
  } catch {
    throw invalid([
      { field: `${path}.text_tags`, message: 'The tags of this document could not be taken out of it.' },
    ]);
  }
}

/** Taking the form out rewrites the file with pdf-lib: a file it cannot write is the sender's 400. */
async function removeForm(pdf: TPdfTools, bytes: Buffer, names: string[], path: string): Promise<Buffer> {
  try {
    return Buffer.from(await pdf.removeFormFields(bytes, names));
  } catch {
    throw invalid([
      {
        field: `${path}.form_fields`,
        message: 'The form fields of this document could not be taken out of it.',
      },
    ]);
  }
}

/** Checks a document's fields (and resolves its auto placements) against its pages and signers. */
export async function placeFields(
  pdf: TPdfTools,
  doc: TDocumentRequest,
  bytes: Buffer,
  path: string,
  pageCount: number,
  packetKeys: ReadonlySet<string>,
  /** Fields from the document's text tags and form fields, already checked (place-text-tags.ts, place-form-fields.ts). */
  tagged: readonly TFieldRequest[] = [],
): Promise<TField[]> {
  const errors: TFieldError[] = [];
  const fields: TField[] = [];
  /** Where each field came from, for errors found across fields (formulas). */
  const paths: string[] = [];
  const usedKeys = new Set(
    [...(doc.fields ?? []), ...tagged].map((f) => f.key).filter((k): k is string => !!k),
  );
  let n = 0;
  const keyFor = (given: string | undefined, fieldPath: string) => {
    if (given) {
      if (fields.some((f) => f.key === given))
        errors.push({ field: `${fieldPath}.key`, message: `Another field already has the key "${given}".` });
      return given;
    }
    let key: string;
    do key = `field-${++n}`;
    while (usedKeys.has(key));
    return key;
  };

  (doc.fields ?? []).forEach((f, j) => {
    const fieldPath = `${path}.fields[${j}]`;
    errors.push(...checkField(f, { pageCount, packetKeys, path: fieldPath }));
    fields.push(toField(f, keyFor(f.key, fieldPath)));
    paths.push(fieldPath);
  });

  for (const f of tagged) {
    fields.push(toField(f, keyFor(f.key, `${path}.text_tags`)));
    paths.push(`${path}.text_tags`);
  }

  const placements = doc.auto_placements ?? [];
  if (placements.length > 0) {
    const hits = await findText(
      pdf,
      bytes,
      [...new Set(placements.map((p) => p.search))],
      `${path}.auto_placements`,
    );
    placements.forEach((p, j) => {
      const placementPath = `${path}.auto_placements[${j}]`;
      const found = hits.get(p.search) ?? [];
      if (found.length === 0) {
        errors.push({
          field: `${placementPath}.search`,
          message: `The text "${p.search}" does not occur in the document.`,
        });
        return;
      }
      for (const hit of found) {
        const placed = { ...p, page: hit.page, x: hit.x + (p.offset_x ?? 0), y: hit.y + (p.offset_y ?? 0) };
        const before = errors.length;
        errors.push(...checkField(placed, { pageCount, packetKeys, path: placementPath }));
        if (placed.x < 0 || placed.y < 0) {
          errors.push({
            field: `${placementPath}.offset_x`,
            message: 'The offsets move the field off the page.',
          });
        }
        if (errors.length === before) {
          fields.push(toField({ ...placed, key: undefined }, keyFor(undefined, placementPath)));
          paths.push(placementPath);
        }
      }
    });
  }
  errors.push(...fieldLimitErrors(fields, path, `${path}.auto_placements`));
  errors.push(...formulaErrors(fields, paths));
  if (errors.length > 0) throw invalid(errors);
  return fields;
}

/** How many fields a document may have, and how large they may be together. */
export function fieldLimitErrors(
  fields: TField[],
  path: string,
  countPath = `${path}.fields`,
): TFieldError[] {
  const errors: TFieldError[] = [];
  if (fields.length > BUNDLE_LIMITS.fieldsPerDocument) {
    errors.push({
      field: countPath,
      message: `At most ${BUNDLE_LIMITS.fieldsPerDocument} fields a document.`,
    });
  }
  // The fields are stored with their document in one item, which DynamoDB caps at 400 KB.
  if (Buffer.byteLength(JSON.stringify(fields)) > MAX_FIELDS_BYTES) {
    errors.push({
      field: `${path}.fields`,
      message: 'The fields of this document are too large together (300 KB at most).',
    });
  }
  return errors;
}
