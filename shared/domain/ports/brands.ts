// An account's signing brands as its admins change them (adding and listing: TAccountStore).
import type { TBrand } from '../accounts/account';

export interface TBrandStore {
  getBrand(accountId: string, brandId: string): Promise<TBrand | undefined>;
  /** Writes the brand over the stored one, only if it still exists (else NotFoundError). */
  replaceBrand(brand: TBrand): Promise<void>;
  /** Deletes it, only if it exists (else NotFoundError): of two deletes one wins, the other is 404. */
  deleteBrand(accountId: string, brandId: string): Promise<void>;
}
