import type { TFormField } from '#shared/pdf/read-form-fields';
import { BUNDLE_LIMITS } from '#shared/schemas/bundle-request';
import type { TFieldRequest } from '#shared/schemas/field';
import { type TFieldError, ValidationError } from '../errors';
import type { TPdfTools } from '../ports/files';
import { checkField } from './check-field';

/** The key of `form_field_editors` that names the signer of every field not otherwise given. */
export const ANY_FORM_FIELD = '*';
// Names quoted in one error before "and N more": enough to recognise the form's naming.
const NAMED_AT_MOST = 10;
const KEY_MAX = 32;
const LABEL_MAX = 255;
const FORMAT_MAX = 100;
const VALUE_MAX = 10_000;

export interface TFormFieldContext {
  /** `documents[0]` */
  path: string;
  /** How the sender knows the document: its key. */
  documentKey: string;
  pageCount: number;
  /** Signer keys (bundle packets, or a template's roles). */
  packetKeys: ReadonlySet<string>;
  /** The sender's `form_field_editors`. */
  editors?: Readonly<Record<string, string | null>>;
  /** Keys the document's other fields take: a key made from a name avoids them. */
  takenKeys: ReadonlySet<string>;
}

export interface TPlacedFormFields {
  /** The fields, checked, keyed, in the order the form lists them. */
  fields: TFieldRequest[];
  /** The names of the form fields they replace, to take out of the stored document. */
  replaced: string[];
}

/**
 * A document's own form fields as fields (`form_fields`): read in the untrusted-files worker,
 * each given to its signer (mapFormFields), then checked as any field is. Every problem is
 * reported on `<path>.form_fields` or `<path>.form_field_editors`.
 */
export async function placeFormFields(
  pdf: TPdfTools,
  bytes: Uint8Array,
  ctx: TFormFieldContext,
): Promise<TPlacedFormFields> {
  let found: TFormField[];
  try {
    found = await pdf.readFormFields(bytes);
  } catch (err) {
    if ((err as Error).name !== 'PdfRejectedError') throw err;
    throw new ValidationError('Invalid input.', [
      {
        field: `${ctx.path}.form_fields`,
        message: `The form of this document could not be read: ${(err as Error).message}`,
      },
    ]);
  }
  const { fields, replaced, errors } = mapFormFields(found, ctx);
  if (errors.length > 0) throw new ValidationError('Invalid input.', errors);
  return { fields, replaced };
}

/**
 * The rules that give form fields to signers and make them fields, without the file: the
 * sender's map first (a name, or "*" for the rest; null leaves the field in the form), then a
 * name that starts with a signer's key and "." or "_" (the longest such key), then the only
 * signer when there is one. Fields no rule gives to a signer are one error naming them.
 */
export function mapFormFields(
  found: readonly TFormField[],
  ctx: TFormFieldContext,
): TPlacedFormFields & { errors: TFieldError[] } {
  const errors: TFieldError[] = [];
  const mapPath = `${ctx.path}.form_field_editors`;
  const formPath = `${ctx.path}.form_fields`;
  const editors = ctx.editors ?? {};
  const names = new Set(found.map((f) => f.name));
  for (const [name, packet] of Object.entries(editors)) {
    if (name !== ANY_FORM_FIELD && !names.has(name))
      errors.push({
        field: mapPath,
        message: `Document "${ctx.documentKey}" has no form field named ${quoted(name)}.`,
      });
    if (packet !== null && !ctx.packetKeys.has(packet))
      errors.push({
        field: mapPath,
        message: `No signer has the key "${packet}" (form field ${quoted(name)}).`,
      });
  }
  if (found.length > BUNDLE_LIMITS.fieldsPerDocument) {
    errors.push({
      field: formPath,
      message: `Document "${ctx.documentKey}" has ${found.length} form fields; at most ${BUNDLE_LIMITS.fieldsPerDocument} fields a document.`,
    });
    return { fields: [], replaced: [], errors };
  }
  const byPrefix = [...ctx.packetKeys].sort((a, b) => b.length - a.length);
  const only = ctx.packetKeys.size === 1 ? [...ctx.packetKeys][0] : undefined;
  const editorOf = (name: string): string | null | undefined => {
    if (Object.hasOwn(editors, name)) return editors[name];
    const prefixed = byPrefix.find((k) => name.startsWith(`${k}.`) || name.startsWith(`${k}_`));
    if (prefixed) return prefixed;
    if (Object.hasOwn(editors, ANY_FORM_FIELD)) return editors[ANY_FORM_FIELD];
    return only;
  };

  const keys = new Set(ctx.takenKeys);
  const fields: TFieldRequest[] = [];
  const replaced: string[] = [];
  const unmapped: string[] = [];
  for (const f of found) {
    const editor = editorOf(f.name);
    // null: left in the form; a key no signer has: reported above.
    if (editor === null || (editor !== undefined && !ctx.packetKeys.has(editor))) continue;
    // A template without roles has fields that are everyone's.
    if (editor === undefined && ctx.packetKeys.size > 0) {
      unmapped.push(f.name);
      continue;
    }
    // Text from the file may hold lone surrogates, which no client can store or show.
    const options = f.options?.map((o) => o.replaceAll('|', '/').toWellFormed()).join('|');
    if (options !== undefined && options.length > FORMAT_MAX) {
      errors.push({
        field: formPath,
        message: `Form field ${quoted(f.name)} has more choices than a field holds (${FORMAT_MAX} characters of them); leave it in the form with the field's name and null in form_field_editors.`,
      });
      continue;
    }
    const key = uniqueKey(keyOf(f.name), keys);
    // A length past what any value may have bounds nothing.
    const maxLength = f.maxLength !== undefined && f.maxLength <= VALUE_MAX ? f.maxLength : undefined;
    const value = f.value?.slice(0, maxLength ?? VALUE_MAX).toWellFormed();
    const request: TFieldRequest = {
      kind: f.kind,
      key,
      label: (f.title ?? f.name).slice(0, LABEL_MAX).toWellFormed(),
      page: f.page,
      x: f.x,
      y: f.y,
      w: f.w,
      h: f.h,
      required: f.required,
      ...(editor !== undefined ? { editors: [editor] } : {}),
      ...(maxLength !== undefined ? { v_max: maxLength } : {}),
      ...(options !== undefined ? { format: options } : {}),
      ...(value ? { initial_value: value } : {}),
    };
    const problems = checkField(request, {
      pageCount: ctx.pageCount,
      packetKeys: ctx.packetKeys,
      path: formPath,
    });
    for (const p of problems)
      errors.push({ field: formPath, message: `Form field ${quoted(f.name)}: ${lowerFirst(p.message)}` });
    if (problems.length > 0) continue;
    fields.push(request);
    replaced.push(f.name);
  }
  if (unmapped.length > 0) {
    const named = unmapped.slice(0, NAMED_AT_MOST).map(quoted).join(', ');
    const more = unmapped.length > NAMED_AT_MOST ? ` and ${unmapped.length - NAMED_AT_MOST} more` : '';
    errors.push({
      field: mapPath,
      message: `Document "${ctx.documentKey}": no signer is given the form fields ${named}${more}. Name each in form_field_editors, or give "*" a signer for all the others.`,
    });
  }
  return { fields, replaced, errors };
}

/**
 * A field key made from a form field's name: the index parts of XFA-made names ("[0]") left out,
 * every other character but letters, digits, "-" and "_" made "_", and from a long name its end,
 * where the part that tells fields apart usually is.
 */
export function keyOf(name: string): string {
  const plain = name
    .replace(/\[\d+\]/g, '')
    .replace(/[^-\w]+/g, '_')
    .replace(/^[-_]+|[-_]+$/g, '');
  let tail = plain;
  if (plain.length > KEY_MAX) {
    tail = plain.slice(-KEY_MAX);
    // Cut inside a word: start at the next whole one, when there is one.
    const cutInWord = /[^-_]/.test(plain.charAt(plain.length - KEY_MAX - 1)) && /^[^-_]/.test(tail);
    if (cutInWord && /[-_]/.test(tail)) tail = tail.replace(/^[^-_]+/, '');
    tail = tail.replace(/^[-_]+/, '');
  }
  return tail.length >= 2 ? tail : `form-${tail || 'field'}`;
}

/** `key`, or with "-2", "-3"… when another field has it; remembered in `taken`. */
function uniqueKey(key: string, taken: Set<string>): string {
  let candidate = key;
  for (let n = 2; taken.has(candidate); n++) {
    const suffix = `-${n}`;
    candidate = `${key.slice(0, KEY_MAX - suffix.length)}${suffix}`;
  }
  taken.add(candidate);
  return candidate;
}

const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);
// A name longer than this is quoted cut short in an error: the sender recognises it by its start.
const QUOTED_CHARS = 80;
const quoted = (name: string) =>
  `"${name.length > QUOTED_CHARS ? `${name.slice(0, QUOTED_CHARS)}…` : name}"`.toWellFormed();
