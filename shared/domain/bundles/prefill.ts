// Prefill: the bundle's `data` (values by field key or label) put into its fields as initial
// values, each checked by the field's own rules as a signer's value is, and the rule that a
// read-only field has a value. Run once the documents are built (uploaded or from templates,
// envelope templates included), so one set of rules serves every way a bundle is made.

import type { TFieldError } from '../errors';
import { valueProblem } from '../signing/check-value';
import type { TDocumentDraft } from './build-documents';
import type { TField } from './bundle';
import { NO_INITIAL_VALUE } from './check-field';

/** How a label is matched: case and surrounding spaces aside, as a sender types it in a sheet. */
export const asLabel = (s: string) => s.normalize('NFC').trim().toLocaleLowerCase('en');

interface TTarget {
  doc: number;
  index: number;
  field: TField;
}

/**
 * The fields a name of `data` fills: those whose key it is (one per document at most, keys being
 * unique in a document), else every field whose label it is. A key wins over a label, so a name
 * that is a key never also fills a field labelled the same. Two names reaching one field (a key
 * and a label of it) are refused rather than one silently winning.
 */
function targetsOf(documents: TDocumentDraft[], name: string): TTarget[] {
  const all = documents.flatMap((d, doc) => d.document.fields.map((field, index) => ({ doc, index, field })));
  const byKey = all.filter((t) => t.field.key === name);
  if (byKey.length > 0) return byKey;
  const label = asLabel(name);
  return label === '' ? [] : all.filter((t) => t.field.label !== '' && asLabel(t.field.label) === label);
}

/**
 * Applies `data` to the documents' fields (their initial values) and checks every read-only
 * field has a value. Returns the errors (nothing is applied when there are any: the caller
 * refuses the whole request) and, for the audit trail, the detail naming the fields whose value
 * the sender gave this way or locked.
 */
export function prefill(
  documents: TDocumentDraft[],
  data: Readonly<Record<string, string>> | undefined,
): { documents: TDocumentDraft[]; errors: TFieldError[]; detail: string | undefined } {
  const errors: TFieldError[] = [];
  const values = new Map<string, string>();
  const givenBy = new Map<string, string>();
  const at = (doc: number, index: number) => `${doc}:${index}`;
  for (const [name, raw] of Object.entries(data ?? {})) {
    const targets = targetsOf(documents, name);
    if (targets.length === 0) {
      errors.push({ field: `data.${name}`, message: `No field has the key or the label "${name}".` });
      continue;
    }
    for (const t of targets) {
      const f = t.field;
      const which = `"${f.label || f.key}" of the document "${documents[t.doc]!.document.key}"`;
      if (NO_INITIAL_VALUE.includes(f.kind)) {
        errors.push({
          field: `data.${name}`,
          message: `The field ${which} is a "${f.kind}" field, which its signer fills: it takes no value from data.`,
        });
        continue;
      }
      const other = givenBy.get(at(t.doc, t.index));
      if (other !== undefined) {
        errors.push({ field: `data.${name}`, message: `The field ${which} is also given by "${other}".` });
        continue;
      }
      givenBy.set(at(t.doc, t.index), name);
      const value = f.kind === 'chk' ? raw.toLowerCase() : raw;
      const problem = valueProblem(f, value);
      if (problem) errors.push({ field: `data.${name}`, message: `The field ${which}: ${problem.message}` });
      else values.set(at(t.doc, t.index), value);
    }
  }
  const given: string[] = [];
  const locked: string[] = [];
  const filled = documents.map((d, doc) => {
    const fields = d.document.fields.map((f, index): TField => {
      const value = values.get(at(doc, index));
      if (value === undefined) return f;
      const { initialValue: _before, ...rest } = f;
      return value === '' ? rest : { ...rest, initialValue: value };
    });
    fields.forEach((f, index) => {
      const fromData = values.has(at(doc, index));
      if (f.readOnly && (f.initialValue ?? '') === '')
        errors.push({
          field: `documents[${doc}].fields`,
          message: `The read-only field "${f.key}" has no value: give it an initial_value, or a value in data.`,
        });
      if (fromData || f.readOnly) given.push(`${d.document.key}.${f.key}`);
      if (f.readOnly) locked.push(`${d.document.key}.${f.key}`);
    });
    return { ...d, document: { ...d.document, fields } };
  });
  return { documents: filled, errors, detail: givenDetail(given, locked) };
}

/**
 * The `created` event's detail when the sender gave values this way, or locked them:
 * `values given by the sender: doc.a, doc.b; read-only: doc.b` (stored-words.ts reads it back).
 */
function givenDetail(given: string[], locked: string[]): string | undefined {
  if (given.length === 0) return undefined;
  return `${GIVEN_DETAIL}${given.join(', ')}${locked.length > 0 ? `${LOCKED_DETAIL}${locked.join(', ')}` : ''}`;
}

export const GIVEN_DETAIL = 'values given by the sender: ';
export const LOCKED_DETAIL = '; read-only: ';
