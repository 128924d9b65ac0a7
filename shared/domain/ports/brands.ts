// An account's signing brands as its admins change them (adding and listing: TAccountStore).
import type { TBrand } from '../accounts/account';

export interface TBrandStore {
  getBrand(accountId: string, brandId: string): Promise<TBrand | undefined>;
  /**
   * Writes the brand over the stored one, only if it is still the one read (its `version`): else
   * NotFoundError when it is gone, ConcurrentUpdateError when another change came first. Answers
   * the brand as written, its version counted up.
   */
  replaceBrand(brand: TBrand): Promise<TBrand>;
  /** Deletes it, only if it exists (else NotFoundError): of two deletes one wins, the other is 404. */
  deleteBrand(accountId: string, brandId: string): Promise<void>;
}

/** A logo someone uploaded, read as image documents are: what it is, or why it cannot be shown. */
export type TLogoReading =
  | { ok: true; mediaType: 'image/png' | 'image/jpeg' }
  | { ok: false; problem: string };

export interface TLogoReader {
  /** Reads the whole image within the untrusted-file budgets, off the request's thread. */
  read(bytes: Uint8Array): Promise<TLogoReading>;
}
