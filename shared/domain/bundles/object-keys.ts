// Where a bundle's objects live in the documents bucket: all under its account's folder, so each
// is encrypted with the account's context (and own key, when it has one) and crypto-shredding
// the account's key reaches every one (adapters/s3/object-encryption.ts, README "Encryption keys").

/** Everything the service writes for one bundle: `accounts/<account>/bundles/<bundle>/`. */
export const bundleObjectsPrefix = (accountId: string, bundleId: string) =>
  `accounts/${accountId}/bundles/${bundleId}/`;

/** Where a bundle's documents as uploaded live (create-bundle.ts `originalBlobKey`). */
export const originalsPrefix = (accountId: string, bundleId: string) =>
  `${bundleObjectsPrefix(accountId, bundleId)}originals/`;
