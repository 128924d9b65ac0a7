import type { TStampField } from '#shared/pdf/evidence-types';
import type { TDocument, TPacket } from '../bundles/bundle';
import type { TBlobStore } from '../ports/files';
import { calculatedOf } from '../signing/calculated-values';
import { currentValue, optionsOf } from '../signing/field-access';
import { isHiddenByCondition, type TFieldConditionStates } from '../signing/field-visibility';
import { type TSigningRecord, valueKey } from '../signing/signing-record';

/** A typed signature or initials: `typed:<text>` (docs/signer-api.md). */
export const TYPED = 'typed:';

/**
 * What to draw on a document: every field on a page with a value, as the signers left it (the
 * value of a signer who finished wins, see currentValue), else its initial value. Drawn marks
 * come as their PNG from the documents bucket; typed ones as their text. Attachment fields have
 * no place on a page: their files are listed with the bundle's files instead. A calculated field
 * is computed here from those very values (the service's own result, whatever a page showed),
 * so the total on the page always agrees with the numbers beside it. A field its
 * conditions hide (`states`, from the same records) is not drawn, whatever it holds.
 */
export async function valuesToStamp(
  deps: { blobs: Pick<TBlobStore, 'get'> },
  doc: TDocument,
  records: TSigningRecord[],
  packets: TPacket[],
  states: TFieldConditionStates,
): Promise<TStampField[]> {
  const out: TStampField[] = [];
  const calculated = calculatedOf(doc, records, packets, states);
  for (const f of doc.fields) {
    if (f.page === undefined || f.kind === 'att' || isHiddenByCondition(states, doc.key, f)) continue;
    const result = calculated.get(f.key);
    if (result !== undefined) {
      if (result !== '')
        out.push({
          page: f.page,
          x: f.x,
          y: f.y,
          w: f.w,
          h: f.h,
          kind: f.kind,
          format: f.format,
          value: result,
          calculated: true,
        });
      continue;
    }
    const current = currentValue(doc.key, f, records, packets);
    const value = current?.value ?? f.initialValue ?? '';
    if (value === '') continue;
    const stored = current
      ? records.find((r) => r.packetId === current.packetId)?.values[valueKey(doc.key, f.key)]
      : undefined;
    const options = optionsOf(f);
    const base = { page: f.page, x: f.x, y: f.y, w: f.w, h: f.h, kind: f.kind, format: f.format };
    if ((f.kind === 'sig' || f.kind === 'ini') && stored?.blobKey) {
      out.push({ ...base, value: 'drawn', image: await deps.blobs.get(stored.blobKey) });
      continue;
    }
    out.push({ ...base, value, ...(options.length > 0 ? { options } : {}) });
  }
  return out;
}
