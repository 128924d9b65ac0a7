import { GetObjectCommand, NoSuchKey, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { BlobNotFoundError } from '#shared/domain/errors';
import type { TBlobStore } from '#shared/domain/ports/files';
import { encryptionFor, type TDocumentKeys } from './object-encryption';

/** Documents and evidence in one bucket; links handed to clients are presigned and expire. */
export function createBlobStore(s3: S3Client, bucket: string, keys: TDocumentKeys = {}): TBlobStore {
  return {
    async put(key, bytes, contentType) {
      await s3.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: key,
          Body: bytes,
          ContentType: contentType,
          // One place decides each object's key and context (object-encryption.ts).
          ...encryptionFor(key, keys),
        }),
      );
    },
    async get(key) {
      try {
        const out = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        return Buffer.from(await out.Body!.transformToByteArray());
      } catch (err) {
        // S3's word for a missing object becomes the domain's, so use cases never read S3 errors.
        if (err instanceof NoSuchKey || (err as Error).name === 'NoSuchKey')
          throw new BlobNotFoundError(key, { cause: err });
        throw err;
      }
    },
    presignGet: (key, expiresIn) =>
      getSignedUrl(s3, new GetObjectCommand({ Bucket: bucket, Key: key }), { expiresIn }),
  };
}
