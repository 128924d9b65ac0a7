import { DeleteObjectCommand, ListObjectVersionsCommand, type S3Client } from '@aws-sdk/client-s3';
import type { TBlobEraser } from '#shared/domain/ports/files';

/** Versions deleted side by side: S3 takes thousands a second per prefix, the function's sockets fewer. */
const PARALLEL = 16;

/**
 * Every version and delete marker under a prefix, deleted one by one with its VersionId (the
 * grant is s3:DeleteObjectVersion, nothing wider). Each page is listed afresh from the start,
 * since what was deleted is gone from the listing: a run that stopped half-way is finished by
 * the next, and a prefix already empty costs one list.
 */
export function createBlobEraser(s3: S3Client, bucket: string): TBlobEraser {
  return {
    async eraseAll(prefix) {
      const erased = new Set<string>();
      for (;;) {
        const page = await s3.send(
          new ListObjectVersionsCommand({ Bucket: bucket, Prefix: prefix, MaxKeys: 1000 }),
        );
        const versions = [...(page.Versions ?? []), ...(page.DeleteMarkers ?? [])].filter((v) => v.Key);
        if (versions.length === 0) return erased.size;
        // A version listed again after its delete succeeded would loop for ever: stop and say so.
        const ids = versions.map((v) => `${v.Key}#${v.VersionId ?? 'null'}`);
        if (ids.some((id) => erased.has(id)))
          throw new Error(`S3 still lists deleted versions under ${prefix}`);
        for (let at = 0; at < versions.length; at += PARALLEL) {
          await Promise.all(
            versions
              .slice(at, at + PARALLEL)
              .map((v) =>
                s3.send(
                  new DeleteObjectCommand({ Bucket: bucket, Key: v.Key!, VersionId: v.VersionId ?? 'null' }),
                ),
              ),
          );
        }
        for (const id of ids) erased.add(id);
      }
    },
  };
}
