// Objects of the documents bucket read and written as streams (an account's export and its
// import). A write is the SDK's multipart Upload (lib-storage) sending one part at a time, so
// memory holds a few parts whatever the object's size; a body that fits in one part is one
// PutObject. A failed body or part aborts the multipart upload, so S3 keeps neither the object
// nor its parts (the bucket's lifecycle rule also removes uploads left incomplete by a process
// that died).
import { Readable } from 'node:stream';
import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { BlobNotFoundError } from '#shared/domain/errors';
import type { TBlobStreams } from '#shared/domain/ports/exports';
import { documentKeysFor, isNoSuchKey, keyRefused } from './blob-store';
import { encryptionFor, type TDocumentKeys } from './object-encryption';

/**
 * S3's parts are at least 5 MiB (but the last) and at most 10,000 an upload: 16 MiB parts carry
 * an archive of up to 160 GB. A write holds up to three in memory: Upload copies each part out
 * of the chunks read, and the rest of a part keeps that copy alive while the next one fills.
 */
export const PART_BYTES = 16 * 1024 * 1024;

export interface TBlobStreamsOptions {
  /** The part size; at least 5 MiB (Upload refuses less), smaller than the default in tests. */
  partBytes?: number;
}

/** The body as it is read; a body longer than the `size` it stated fails there. */
async function* bounded(body: AsyncIterable<Uint8Array>, key: string, size?: number) {
  let read = 0;
  for await (const chunk of body) {
    read += chunk.byteLength;
    if (size !== undefined && read > size)
      throw new Error(`The body of ${key} is longer than its ${size} bytes.`);
    yield chunk;
  }
}

export function createBlobStreams(
  s3: S3Client,
  bucket: string,
  keys: TDocumentKeys = {},
  options: TBlobStreamsOptions = {},
): TBlobStreams {
  const keysFor = documentKeysFor(keys);
  const partBytes = options.partBytes ?? PART_BYTES;
  return {
    async read(key) {
      await keysFor(key);
      try {
        const out = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        return { size: out.ContentLength ?? 0, body: out.Body as AsyncIterable<Uint8Array> };
      } catch (err) {
        if (isNoSuchKey(err)) throw new BlobNotFoundError(key, { cause: err });
        throw keyRefused(err);
      }
    },

    async write(key, body, contentType, size, owner) {
      // One place decides each object's key and context (object-encryption.ts).
      const encryption = encryptionFor(key, await keysFor(key, 'write', owner), owner);
      // Upload takes a Node stream; one chunk of read-ahead, not the 16 an object stream keeps.
      const source = Readable.from(bounded(body, key, size), { highWaterMark: 1 });
      const upload = new Upload({
        client: s3,
        params: { Bucket: bucket, Key: key, Body: source, ContentType: contentType, ...encryption },
        partSize: partBytes,
        // The next part is read once this one is sent: more would read a part ahead for each.
        queueSize: 1,
        leavePartsOnError: false,
      });
      try {
        await upload.done();
      } catch (err) {
        // The body's reader is closed however Upload failed (an archive being made stops
        // reading documents); Upload has already aborted the multipart upload.
        source.destroy();
        throw keyRefused(err);
      }
    },
  };
}
