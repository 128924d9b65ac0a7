import type { TFoundTag } from '#shared/pdf/find-text';
import { BUNDLE_LIMITS } from '#shared/schemas/bundle-request';
import type { TFieldRequest } from '#shared/schemas/field';
import { type TFieldError, ValidationError } from '../errors';
import type { TPdfTools } from '../ports/files';
import { checkField } from './check-field';
import { parseTextTag } from './text-tag';

// A tag longer than this is quoted cut short in an error: the sender recognises it by its start.
const QUOTED_CHARS = 80;

export interface TTextTagContext {
  /** `documents[0]` */
  path: string;
  /** How the sender knows the document: its key. */
  documentKey: string;
  /** Displayed page sizes in points, to turn a tag's w and h into percent. */
  pages: readonly { width: number; height: number }[];
  /** Signer keys (bundle packets, or a template's roles). */
  packetKeys: ReadonlySet<string>;
}

export interface TTaggedFields {
  /** The fields the tags ask for, checked, in the order the tags stand in the document. */
  fields: TFieldRequest[];
  /** The tags as found, for hiding them in the stored document. */
  found: TFoundTag[];
}

/**
 * Reads a document's text tags (text-tag.ts has the grammar) into fields placed over them.
 * Every bad tag is reported on `<path>.text_tags`, naming the document, the page and the tag.
 */
export async function placeTextTags(
  pdf: TPdfTools,
  bytes: Uint8Array,
  ctx: TTextTagContext,
): Promise<TTaggedFields> {
  const field = `${ctx.path}.text_tags`;
  let found: TFoundTag[];
  try {
    found = await pdf.findTextTags(bytes);
  } catch (err) {
    if ((err as Error).name !== 'PdfRejectedError') throw err;
    throw new ValidationError('Invalid input.', [{ field, message: (err as Error).message }]);
  }
  // Checked before reading any tag: a document of thousands of tags costs one error, not thousands.
  if (found.length > BUNDLE_LIMITS.fieldsPerDocument) {
    throw new ValidationError('Invalid input.', [
      {
        field,
        message: `Document "${ctx.documentKey}" has ${found.length} tags; at most ${BUNDLE_LIMITS.fieldsPerDocument} fields a document.`,
      },
    ]);
  }
  const errors: TFieldError[] = [];
  const fields: TFieldRequest[] = [];
  for (const tag of found) {
    const bad = (problem: string) =>
      errors.push({
        field,
        message: `Document "${ctx.documentKey}", page ${tag.page}, tag "${quoted(tag.text)}": ${problem}`,
      });
    if (!tag.closed) {
      bad('the tag is not closed with "}}".');
      continue;
    }
    const parsed = parseTextTag(tag.text);
    if ('error' in parsed) {
      bad(parsed.error);
      continue;
    }
    const t = parsed.tag;
    if (t.signer !== undefined && !ctx.packetKeys.has(t.signer)) {
      bad(`no signer has the key "${t.signer}".`);
      continue;
    }
    const size = ctx.pages[tag.page - 1] ?? { width: 612, height: 792 };
    const request: TFieldRequest = {
      kind: t.kind,
      page: tag.page,
      x: tag.box.x,
      y: tag.box.y,
      w: t.w !== undefined ? percent(t.w, size.width) : tag.box.w,
      h: t.h !== undefined ? percent(t.h, size.height) : tag.box.h,
      required: t.required,
      ...(t.signer !== undefined ? { editors: [t.signer] } : {}),
      ...(t.label !== undefined ? { label: t.label } : {}),
      ...(t.key !== undefined ? { key: t.key } : {}),
      ...(t.format !== undefined ? { format: t.format } : {}),
      ...(t.options ? { format: t.options.join('|') } : {}),
      ...(t.pattern !== undefined ? { v_pattern: t.pattern } : {}),
    };
    const problems = checkField(request, {
      pageCount: ctx.pages.length,
      packetKeys: ctx.packetKeys,
      path: field,
    });
    for (const p of problems) bad(lowerFirst(p.message));
    if (problems.length === 0) fields.push(request);
  }
  if (errors.length > 0) throw new ValidationError('Invalid input.', errors);
  return { fields, found };
}

const percent = (points: number, of: number) => Math.round((points / of) * 100 * 100) / 100;
const quoted = (text: string) => (text.length > QUOTED_CHARS ? `${text.slice(0, QUOTED_CHARS)}…` : text);
const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);
