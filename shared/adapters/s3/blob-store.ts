import { GetObjectCommand, NoSuchKey, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { BlobNotFoundError, DocumentsKeyDestroyedError, newDocumentsRefusal } from '#shared/domain/errors';
import type { TBlobStore } from '#shared/domain/ports/files';
import { accountOfObject, encryptionFor, type TDocumentKeys } from './object-encryption';

/** S3's answers when KMS refuses the object's key for its state: disabled, pending deletion, gone. */
const KEY_UNUSABLE = new Set([
  'KMS.KMSInvalidStateException',
  'KMS.DisabledException',
  'KMS.NotFoundException',
]);
const isKeyUnusable = (err: unknown) =>
  KEY_UNUSABLE.has((err as Error).name) || KEY_UNUSABLE.has(String((err as { Code?: string }).Code));

/**
 * The keys in force for an object's account: its own key when it has one. An own key the
 * operator destroyed answers 410 here for reads, links and writes alike (before S3 is asked,
 * except by a read, which asks beside the check and drops what S3 answered). A
 * write also reads the account consistently and is refused (409) while the key is being
 * destroyed: a write that saw no mark read the account before it, so it belongs to a request
 * that started before the mark and ends within the wait the destruction keeps after it
 * (account-documents-key.ts).
 */
export const documentKeysFor =
  (keys: TDocumentKeys) =>
  async (key: string, use: 'read' | 'write' = 'read', owner?: string): Promise<TDocumentKeys> => {
    const accountId = accountOfObject(key) ?? owner;
    const own = accountId ? await keys.accountKeyOf?.(accountId, { consistent: use === 'write' }) : undefined;
    if (!accountId || !own) return keys;
    if (own.destroyed) throw new DocumentsKeyDestroyedError(own.destroyed);
    const refused = use === 'write' ? newDocumentsRefusal(own) : undefined;
    if (refused) throw refused;
    return { ...keys, accountKeys: { ...keys.accountKeys, [accountId]: own.keyArn } };
  };

/** A key destroyed (or disabled) between the check and S3's call to KMS is the same 410. */
export const keyRefused = (err: unknown) =>
  isKeyUnusable(err) ? new DocumentsKeyDestroyedError(undefined, { cause: err }) : err;

/** S3's word for a missing object becomes the domain's, so use cases never read S3 errors. */
export const isNoSuchKey = (err: unknown) => err instanceof NoSuchKey || (err as Error).name === 'NoSuchKey';

/** Documents and evidence in one bucket; links handed to clients are presigned and expire. */
export function createBlobStore(s3: S3Client, bucket: string, keys: TDocumentKeys = {}): TBlobStore {
  const keysFor = documentKeysFor(keys);
  return {
    async put(key, bytes, contentType) {
      const encryption = encryptionFor(key, await keysFor(key, 'write'));
      try {
        await s3.send(
          new PutObjectCommand({
            Bucket: bucket,
            Key: key,
            Body: bytes,
            ContentType: contentType,
            // One place decides each object's key and context (object-encryption.ts).
            ...encryption,
          }),
        );
      } catch (err) {
        throw keyRefused(err);
      }
    },
    async get(key) {
      // The key's check runs beside S3's read rather than before it, and still decides: a read
      // waits for one request less (the account's, when the request has not read it yet), and a
      // destroyed key answers its 410 whatever S3 answered, the bytes dropped unanswered.
      const read = s3
        .send(new GetObjectCommand({ Bucket: bucket, Key: key }))
        .then(async (out) => Buffer.from(await out.Body!.transformToByteArray()));
      read.catch(() => undefined); // awaited below, once the check has passed
      await keysFor(key);
      try {
        return await read;
      } catch (err) {
        if (isNoSuchKey(err)) throw new BlobNotFoundError(key, { cause: err });
        throw keyRefused(err);
      }
    },
    async presignGet(key, expiresIn) {
      await keysFor(key);
      return getSignedUrl(s3, new GetObjectCommand({ Bucket: bucket, Key: key }), { expiresIn });
    },
  };
}
