import { hasVisibleContent } from '../../text/visible-text.js';
import type { TField, TPacket } from '../bundles/bundle';
import { isCalculated } from '../bundles/calculated-fields';
import { hasSigned } from '../bundles/lifecycle/status';
import { fillsFields } from '../bundles/packet-roles';
import type { TSigningRecord } from './signing-record';
import { valueKey } from './signing-record';

/** Choices of a dropdown or checkbox group: the field's `format`, split on `|` (docs/signer-api.md). */
export function optionsOf(field: Pick<TField, 'kind' | 'format'>): string[] {
  if (field.kind !== 'sel' && field.kind !== 'cbg') return [];
  return field.format
    .split('|')
    .map((o) => o.trim())
    .filter((o) => o !== '');
}

/** Whether the packet is named among the field's editors (a field without editors is everyone's). */
export function isEditor(field: Pick<TField, 'editors'>, packetKey: string): boolean {
  if (field.editors.length === 0) return true;
  return field.editors.some((e) => e === packetKey || e === `-${packetKey}`);
}

/**
 * Whether a value shows anything at all: "   ", a zero-width space or a Hangul filler fills
 * nothing. One module with the signing page, which runs the same file (shared/text).
 */
export { hasVisibleContent };

/**
 * Whether a value fills a field the signer must fill: a checkbox or approval only when ticked, a
 * typed mark only with visible text after `typed:`, anything else only with visible content.
 */
export function isFilled(field: Pick<TField, 'kind'>, value: string): boolean {
  if (field.kind === 'chk' || field.kind === 'apr') return value === 'true';
  if ((field.kind === 'sig' || field.kind === 'ini') && value.startsWith('typed:'))
    return hasVisibleContent(value.slice(6));
  return hasVisibleContent(value);
}

/** Filled by the service when the signer finishes, never by the signer. */
export const SERVICE_FILLED = new Set(['snm', 'sdt']);

/**
 * Given by the sender and locked (`read_only`): the signer sees its value and never fills it.
 * Its value is the field's initial value, which a read-only field always has (prefill.ts).
 */
export function isSenderLocked(field: Pick<TField, 'readOnly'>): boolean {
  return field.readOnly === true;
}

/** Filled for the signer, who never fills it: by the sender (read-only) or by the service (a formula). */
function isFilledForTheSigner(field: Pick<TField, 'readOnly' | 'formula'>): boolean {
  return isSenderLocked(field) || isCalculated(field);
}

/** The signer must fill it to finish: a required field whose editors name them without `-`. */
export function isRequiredFor(
  field: Pick<TField, 'editors' | 'required' | 'kind' | 'readOnly' | 'formula'>,
  packetKey: string,
): boolean {
  if (!field.required || SERVICE_FILLED.has(field.kind) || isFilledForTheSigner(field)) return false;
  if (field.editors.length === 0) return true;
  return field.editors.includes(packetKey);
}

/**
 * Who filled a field, and with what: the latest value among the signers' records, where a value
 * of a signer who finished wins (it is part of what they signed and nobody may change it).
 */
export function currentValue(
  docKey: string,
  field: Pick<TField, 'key'>,
  records: TSigningRecord[],
  packets: TPacket[],
): { value: string; packetId: string; hasImage: boolean } | undefined {
  const key = valueKey(docKey, field.key);
  const done = new Set(packets.filter((p) => hasSigned(p.status)).map((p) => p.id));
  const candidates = records
    .map((r) => ({ r, v: r.values[key] }))
    .filter((c) => c.v !== undefined && c.v.value !== '')
    .sort(
      (a, b) =>
        Number(done.has(b.r.packetId)) - Number(done.has(a.r.packetId)) ||
        b.v!.filledAt.localeCompare(a.v!.filledAt),
    );
  const best = candidates[0];
  return best
    ? { value: best.v!.value, packetId: best.r.packetId, hasImage: Boolean(best.v!.blobKey) }
    : undefined;
}

/**
 * The records whose values a signer sees and may rely on: their own, and those of signers who
 * finished. Another signer's values in progress are theirs alone until they finish (they may
 * still change them), so they are neither shown nor counted as filling a field.
 */
export function visibleRecords(
  records: TSigningRecord[],
  packetId: string,
  packets: TPacket[],
): TSigningRecord[] {
  const done = new Set(packets.filter((p) => hasSigned(p.status)).map((p) => p.id));
  return records.filter((r) => r.packetId === packetId || done.has(r.packetId));
}

/** The signer may change it now: theirs, not the service's, and not filled by someone who finished. */
export function isEditableBy(
  docKey: string,
  field: Pick<TField, 'key' | 'kind' | 'editors' | 'readOnly' | 'formula'>,
  packet: TPacket,
  records: TSigningRecord[],
  packets: TPacket[],
): boolean {
  if (
    !fillsFields(packet) ||
    SERVICE_FILLED.has(field.kind) ||
    isFilledForTheSigner(field) ||
    !isEditor(field, packet.key)
  )
    return false;
  const current = currentValue(docKey, field, records, packets);
  if (!current || current.packetId === packet.id) return true;
  const filler = packets.find((p) => p.id === current.packetId);
  return !filler || !hasSigned(filler.status);
}
