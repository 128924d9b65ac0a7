import type { ServerSideEncryption } from '@aws-sdk/client-s3';
import type { TAccountDocumentsKey } from '#shared/domain/accounts/account';

/**
 * Where an account's documents are kept, and its exports (archives of those documents): every
 * object the service writes for it starts so.
 */
const ACCOUNT_PATH = /^(?:accounts|exports)\/([^/]+)\//;

/** How documents are keyed: the stack's customer-managed key, or an account's own. */
export interface TDocumentKeys {
  /** The stack's documents key (id, ARN or alias); absent, the bucket's default applies. */
  defaultKeyId?: string;
  /** Accounts the operator gave a key of their own (`account-key create`), by account id. */
  accountKeys?: Readonly<Record<string, string>>;
  /**
   * An account's own key as its record says now (documents-key.ts), asked at each write and read
   * so a key made or destroyed takes effect at once in every function; `consistent` for writes,
   * which must see a destruction's mark the moment it is written.
   */
  accountKeyOf?: (
    accountId: string,
    options: { consistent: boolean },
  ) => Promise<TAccountDocumentsKey | undefined>;
}

/** The account an object belongs to, from its key path; undefined outside accounts/. */
export const accountOfObject = (key: string): string | undefined => ACCOUNT_PATH.exec(key)?.[1];

export interface TObjectEncryption {
  ServerSideEncryption: ServerSideEncryption;
  SSEKMSKeyId: string;
  /** Base64 of the JSON context, as S3 wants it. */
  SSEKMSEncryptionContext: string;
  BucketKeyEnabled: false;
}

/** The context an account's documents are encrypted under: decrypting needs the same. */
export const accountEncryptionContext = (accountId: string) => ({ accountId });

/**
 * The one decision of how an object is encrypted, from its key path. An account's objects are
 * sealed under KMS with the account in the encryption context, so a key grant conditioned on
 * kms:EncryptionContext:accountId (or an account's own key, destroyed when the account goes) binds
 * each data key to one account. Bucket Keys are off for them: with a Bucket Key S3 replaces the
 * context with the bucket's ARN, which would lose the account (the price is one KMS request per
 * write and read instead of one per bucket key's lifetime; README "Encryption keys").
 * An object outside accounts/ and exports/ is an account's only when its writer says so
 * (`owner`: an import restoring files of the earlier layout); others keep the bucket's default
 * encryption, which the documents key refuses (no account in its context).
 */
export function encryptionFor(
  key: string,
  keys: TDocumentKeys,
  owner?: string,
): TObjectEncryption | undefined {
  const accountId = accountOfObject(key) ?? owner;
  if (!accountId) return undefined;
  const keyId = keys.accountKeys?.[accountId] ?? keys.defaultKeyId;
  if (!keyId) return undefined;
  return {
    ServerSideEncryption: 'aws:kms',
    SSEKMSKeyId: keyId,
    SSEKMSEncryptionContext: Buffer.from(JSON.stringify(accountEncryptionContext(accountId))).toString(
      'base64',
    ),
    BucketKeyEnabled: false,
  };
}
