// Objects of the documents bucket read and written as streams (an account's export and its
// import). A write fills one part buffer at a time and sends it with UploadPart, so memory holds
// one part whatever the object's size; a body that fits in one part is one PutObject. A failed
// body or part aborts the multipart upload, so S3 keeps neither the object nor its parts (the
// bucket's lifecycle rule also removes uploads left incomplete by a process that died).
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  PutObjectCommand,
  type S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { BlobNotFoundError } from '#shared/domain/errors';
import type { TBlobStreams } from '#shared/domain/ports/exports';
import { documentKeysFor, isNoSuchKey, keyRefused } from './blob-store';
import { encryptionFor, type TDocumentKeys } from './object-encryption';

/**
 * S3's parts are at least 5 MiB (but the last) and at most 10,000 an upload: 16 MiB parts carry
 * an archive of up to 160 GB, and that is what a write holds in memory.
 */
export const PART_BYTES = 16 * 1024 * 1024;

export interface TBlobStreamsOptions {
  /** The part size; below S3's 5 MiB only against the local stand-in (the tests' small budgets). */
  partBytes?: number;
}

/** Collects a body into parts of `size` bytes, one buffer reused: memory is one part. */
async function* partsOf(body: AsyncIterable<Uint8Array>, size: number): AsyncGenerator<Buffer> {
  const part = Buffer.allocUnsafe(size);
  let filled = 0;
  for await (const chunk of body) {
    let at = 0;
    while (at < chunk.byteLength) {
      const n = Math.min(size - filled, chunk.byteLength - at);
      part.set(chunk.subarray(at, at + n), filled);
      filled += n;
      at += n;
      if (filled === size) {
        yield part;
        filled = 0;
      }
    }
  }
  if (filled > 0) yield part.subarray(0, filled);
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

    async write(key, body, contentType, size) {
      // One place decides each object's key and context (object-encryption.ts).
      const encryption = encryptionFor(key, await keysFor(key, 'write'));
      // A body of known size that fits one part is one PutObject; the buffer's extra byte tells
      // a body longer than it said. Otherwise a first part that is not full is the whole body.
      const fits = size !== undefined && size <= partBytes;
      const parts = partsOf(body, fits ? size + 1 : partBytes);
      let uploadId: string | undefined;
      try {
        const first = await parts.next();
        const bytes = first.done ? Buffer.alloc(0) : first.value;
        if (fits && bytes.length > size)
          throw new Error(`The body of ${key} is longer than its ${size} bytes.`);
        if (fits || bytes.length < partBytes) {
          await s3.send(
            new PutObjectCommand({
              Bucket: bucket,
              Key: key,
              Body: bytes,
              ContentType: contentType,
              ...encryption,
            }),
          );
          return;
        }
        const made = await s3.send(
          new CreateMultipartUploadCommand({
            Bucket: bucket,
            Key: key,
            ContentType: contentType,
            ...encryption,
          }),
        );
        uploadId = made.UploadId!;
        const done: { PartNumber: number; ETag: string }[] = [];
        const send = async (part: Buffer) => {
          const PartNumber = done.length + 1;
          const sent = await s3.send(
            new UploadPartCommand({ Bucket: bucket, Key: key, UploadId: uploadId, PartNumber, Body: part }),
          );
          done.push({ PartNumber, ETag: sent.ETag! });
        };
        await send(bytes);
        for await (const part of parts) await send(part);
        await s3.send(
          new CompleteMultipartUploadCommand({
            Bucket: bucket,
            Key: key,
            UploadId: uploadId,
            MultipartUpload: { Parts: done },
          }),
        );
      } catch (err) {
        // The body's reader is closed too (an archive being made stops reading documents).
        await parts.return(undefined).catch(() => {});
        if (uploadId) {
          await s3
            .send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId }))
            .catch(() => {});
        }
        throw keyRefused(err);
      }
    },
  };
}
