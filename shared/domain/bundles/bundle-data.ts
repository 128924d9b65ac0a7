import { ConflictError } from '../errors';
import type { TAccountStore } from '../ports/accounts';
import type { TBundleStore } from '../ports/bundles';
import type { TBlobStore } from '../ports/files';
import type { TSigningRecordStore } from '../ports/signing';
import { calculatedOf } from '../signing/calculated-values';
import { currentValue } from '../signing/field-access';
import { conditionStates, isHiddenByCondition } from '../signing/field-visibility';
import { currentRecords, valueKey } from '../signing/signing-record';
import type { TBundle } from './bundle';
import { isBundleComplete } from './lifecycle/status';
import { deletedAt } from './retention';

export interface TDataItem {
  doc_key: string;
  field_key: string;
  label: string;
  kind: string;
  value: string;
  filled_by: string;
  packet_id: string | null;
  attachments: { url: string; name: string; size: number; num: number; ext: string; is_image: boolean }[];
}

/** Rule 4 of the spec: field data only for complete bundles, unless the account has early access. */
export async function dataAvailable(deps: { accounts: TAccountStore }, b: TBundle): Promise<boolean> {
  if (isBundleComplete(b.status)) return true;
  return Boolean((await deps.accounts.getAccount(b.accountId))?.features.early_data_access);
}

/** How long the attachment links in a data answer work. */
const ATTACHMENT_LINK_SECONDS = 60 * 60;

/**
 * Every field of every document with its value and who filled it: the packet key of the signer
 * who entered it, `initial` for an initial value nobody changed (as the reference API says),
 * empty for a field still blank. Attachments come with time-limited links.
 */
export async function bundleData(
  deps: { bundles: TBundleStore; accounts: TAccountStore; records: TSigningRecordStore; blobs: TBlobStore },
  b: TBundle,
): Promise<TDataItem[]> {
  if (!(await dataAvailable(deps, b))) {
    throw new ConflictError('Field data is available once the bundle is complete.');
  }
  const [documents, records] = await Promise.all([
    deps.bundles.documents(b),
    // Records an earlier signer left before handing a packet on count as empty.
    deps.records.all(b.accountId, b.id).then((all) => currentRecords(all, b)),
  ]);
  const byId = new Map(b.packets.map((p) => [p.id, p]));
  const imagesDeleted = Boolean(deletedAt(b, 'images'));
  const items: TDataItem[] = [];
  // A field its conditions hide holds nothing, as on the final documents.
  const states = conditionStates(documents, records, b.packets);
  for (const d of documents) {
    // As stamped: computed from the final values (values-to-stamp.ts).
    const calculated = calculatedOf(d, records, b.packets, states);
    for (const f of d.fields) {
      const hidden = isHiddenByCondition(states, d.key, f);
      const current = hidden ? undefined : currentValue(d.key, f, records, b.packets);
      const initial = hidden ? undefined : f.initialValue;
      const stored = current
        ? records.find((r) => r.packetId === current.packetId)?.values[valueKey(d.key, f.key)]
        : undefined;
      // An attachment the retention policy deleted has no file to link: the value (its name) stays.
      const attachments =
        f.kind === 'att' && stored?.blobKey && !imagesDeleted
          ? [
              {
                url: await deps.blobs.presignGet(stored.blobKey, ATTACHMENT_LINK_SECONDS),
                name: stored.value,
                size: stored.size ?? 0,
                num: 1,
                ext: (/\.([A-Za-z0-9]{1,5})$/.exec(stored.value)?.[1] ?? '').toLowerCase(),
                is_image: (stored.contentType ?? '').startsWith('image/'),
              },
            ]
          : [];
      items.push({
        doc_key: d.key,
        field_key: f.key,
        label: f.label,
        kind: f.kind,
        value: (hidden ? undefined : calculated.get(f.key)) ?? current?.value ?? initial ?? '',
        filled_by: current ? (byId.get(current.packetId)?.key ?? '') : initial ? 'initial' : '',
        packet_id: current?.packetId ?? null,
        attachments,
      });
    }
  }
  return items;
}
