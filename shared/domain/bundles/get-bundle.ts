import { NotFoundError } from '../errors';
import type { TBundleStore } from '../ports/bundles';
import type { TBundle } from './bundle';

const SLUG = /^[0-9A-Za-z]{10}$/;

/** Another account's bundle and a malformed id answer the same: not found. */
export async function getBundle(
  deps: { bundles: TBundleStore },
  accountId: string,
  id: string,
): Promise<TBundle> {
  const bundle = SLUG.test(id) ? await deps.bundles.get(accountId, id) : undefined;
  if (!bundle) throw new NotFoundError('Bundle not found.');
  return bundle;
}
