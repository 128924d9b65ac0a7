import type { TBulkRow } from '#shared/schemas/bulk';
import { asLabel } from '../bundles/prefill';
import type { TFieldError } from '../errors';

type TBody = Record<string, unknown>;
type TFieldValue = { key: string; initial_value: string };

/**
 * One row's create body: the batch's body with the row's signers merged into the packets of the
 * same key (a key the body has no packet for adds one) and its field values set where a field
 * of that key is: `initial_value` of a document's field, `field_values` of a document template
 * or of the envelope template. A value no field can take is the row's error (a create of an
 * envelope template or document template names unknown keys itself, as a single create does).
 */
export function rowRequest(
  base: TBody,
  row: TBulkRow,
  index: number,
): { body: TBody; errors: TFieldError[] } {
  const body = structuredClone(base);
  const errors: TFieldError[] = [];
  const packets = Array.isArray(body.packets) ? (body.packets as TBody[]) : [];
  for (const [key, signer] of Object.entries(row.signers ?? {})) {
    const i = packets.findIndex((p) => p && typeof p === 'object' && p.key === key);
    if (i >= 0) packets[i] = { ...packets[i], ...signer, key };
    else packets.push({ ...signer, key });
  }
  if (packets.length > 0) body.packets = packets;
  // The row's data over the bundle's: the create applies it by key or label (prefill.ts).
  if (row.data && Object.keys(row.data).length > 0) {
    const base = body.data && typeof body.data === 'object' ? (body.data as TBody) : {};
    body.data = { ...base, ...row.data };
  }

  const values = Object.entries(row.fields ?? {}).map(([key, v]) => ({ key, initial_value: v }));
  if (values.length === 0) return { body, errors };
  const envelope = body.envelope_template;
  if (envelope && typeof envelope === 'object') {
    const e = envelope as TBody;
    e.field_values = withValues(e.field_values, values);
    return { body, errors };
  }
  const documents = Array.isArray(body.documents) ? (body.documents as TBody[]) : [];
  const fromTemplates = documents.some((d) => d && typeof d === 'object' && 'template_id' in d);
  for (const v of values) {
    let placed = false;
    for (const d of documents) {
      if (!d || typeof d !== 'object') continue;
      if ('template_id' in d) {
        d.field_values = withValues(d.field_values, [v]);
        continue;
      }
      for (const f of Array.isArray(d.fields) ? (d.fields as TBody[]) : []) {
        if (f && typeof f === 'object' && f.key === v.key) {
          f.initial_value = v.initial_value;
          placed = true;
        }
      }
    }
    // No field has it as its key: a label of a field (a CSV column named as the form shows
    // it) is the bundle's data, which fills every field of that label.
    if (!placed && !fromTemplates && hasLabel(documents, v.key)) {
      const base = body.data && typeof body.data === 'object' ? (body.data as TBody) : {};
      body.data = { ...base, [v.key]: v.initial_value };
      placed = true;
    }
    if (!placed && !fromTemplates)
      errors.push({
        field: `rows[${index}].fields.${v.key}`,
        message: `No field of the bundle has the key "${v.key}".`,
      });
  }
  return { body, errors };
}

/** Whether a field of the uploaded documents has this label (as prefill.ts matches labels). */
function hasLabel(documents: TBody[], name: string): boolean {
  const label = asLabel(name);
  if (label === '') return false;
  return documents.some(
    (d) =>
      d &&
      typeof d === 'object' &&
      Array.isArray(d.fields) &&
      (d.fields as TBody[]).some((f) => f && typeof f.label === 'string' && asLabel(f.label) === label),
  );
}

/** The list with each value replacing the one of its key, or added. */
function withValues(list: unknown, values: TFieldValue[]): TFieldValue[] {
  const current = Array.isArray(list) ? (list as TFieldValue[]) : [];
  const keys = new Set(values.map((v) => v.key));
  return [...current.filter((v) => !keys.has(v?.key)), ...values];
}
