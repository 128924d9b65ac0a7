import type { TAccountStore, TBundleStore } from '../../ports';
import { ConflictError } from '../errors';
import type { TBundle } from './bundle';

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
  if (b.status === 'co') return true;
  return Boolean((await deps.accounts.getAccount(b.accountId))?.features.early_data_access);
}

/**
 * Every field of every document with its value. Until signers fill fields (the signing work),
 * a value is the field's initial value, filled by nobody.
 */
export async function bundleData(
  deps: { bundles: TBundleStore; accounts: TAccountStore },
  b: TBundle,
): Promise<TDataItem[]> {
  if (!(await dataAvailable(deps, b))) {
    throw new ConflictError('Field data is available once the bundle is complete.');
  }
  const documents = await deps.bundles.documents(b);
  return documents.flatMap((d) =>
    d.fields.map((f) => ({
      doc_key: d.key,
      field_key: f.key,
      label: f.label,
      kind: f.kind,
      value: f.initialValue ?? '',
      filled_by: '',
      packet_id: null,
      attachments: [],
    })),
  );
}
