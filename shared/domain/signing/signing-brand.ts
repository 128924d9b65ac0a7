import type { TBrand } from '../accounts/account';
import type { TBundle } from '../bundles/bundle';
import type { TAccountStore } from '../ports/accounts';

/** The signing brand a bundle names, if it still exists in its account. */
export async function signingBrandOf(
  accounts: TAccountStore,
  bundle: Pick<TBundle, 'accountId' | 'signingBrand'>,
): Promise<TBrand | undefined> {
  if (!bundle.signingBrand) return undefined;
  return (await accounts.listBrands(bundle.accountId)).find((b) => b.id === bundle.signingBrand);
}
