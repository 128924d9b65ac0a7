import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream, readFileSync, type Stats, statSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DecryptCommand, GenerateDataKeyCommand, type KMSClient } from '@aws-sdk/client-kms';
import S3rver, { type TS3rverContext } from 's3rver';
import S3Bucket from 's3rver/lib/models/bucket.js';
import { getConfigModel } from 's3rver/lib/models/config.js';
import S3Object from 's3rver/lib/models/object.js';

/** The SSE headers a PUT carried, as AWS would store them with the object. */
export interface TStoredEncryption {
  algorithm?: string;
  keyId?: string;
  /** The decoded encryption context. */
  context?: Record<string, string>;
  bucketKey?: string;
  /** The data key KMS sealed for the object (the stand-in keeps no other secret of it). */
  dataKey?: Uint8Array;
}

/** The context's koa parts the KMS check answers with. */
type TAnswerable = TS3rverContext & { status: number; body: unknown; type: string };

/** s3rver with its files under `dir`; the bucket is created if missing. */
export async function startS3rver(opts: { port: number; host: string; dir: string; bucket: string }) {
  const server = new S3rver({
    port: opts.port,
    address: opts.host,
    directory: opts.dir,
    silent: true,
    configureBuckets: [{ name: opts.bucket }],
  });
  atomicPuts(server.store as unknown as TFilesystemStore);
  quickReads(server.store as unknown as TFilesystemStore);
  // After its own path-style rewrite of virtual-host requests, ahead of its routes (the last
  // middleware), which refuse `?versions`.
  server.middleware.splice(server.middleware.length - 1, 0, listVersions(server, opts.bucket) as never);
  // s3rver drops SSE headers; kept here (first in the chain) so a test can read which key and
  // account context each object was written under, as S3's HeadObject would say on AWS. With
  // KMS's stand-in attached (useKms), S3's calls to KMS are made as on AWS: a data key for each
  // write, its decryption for each read, so a key pending deletion refuses both.
  const encryption = new Map<string, TStoredEncryption>();
  // A multipart upload's SSE headers come with CreateMultipartUpload and hold for the object
  // CompleteMultipartUpload makes; its parts carry none.
  const uploading = new Map<string, TStoredEncryption>();
  let kms: KMSClient | undefined;
  // The bucket's default encryption (the stack's documents key), for a write without SSE headers.
  let defaultKeyId: string | undefined;
  server.middleware.unshift((async (
    ctx: TAnswerable & { query: Record<string, unknown> },
    next: () => Promise<unknown>,
  ) => {
    const key = decodeURIComponent(ctx.path.replace(/^\/[^/]+\//, ''));
    const header = (name: string) => ctx.get(`x-amz-server-side-encryption${name}`) || undefined;
    const context = header('-context');
    const part = 'uploadId' in ctx.query;
    // A bucket's own requests (CreateBucket is a PUT too) encrypt nothing.
    const onObject = /^\/[^/]+\/./.test(ctx.path);
    const initiate = ctx.method === 'POST' && 'uploads' in ctx.query;
    const written: TStoredEncryption =
      header('') === undefined && defaultKeyId && onObject && ((ctx.method === 'PUT' && !part) || initiate)
        ? // As S3 does for a bucket with SSE-KMS by default (Bucket Key off): the bucket's key,
          // with the object's ARN as the context, which the documents key's policy refuses.
          {
            algorithm: 'aws:kms',
            keyId: defaultKeyId,
            context: { 'aws:s3:arn': `arn:aws:s3:::${opts.bucket}/${key}` },
          }
        : {
            algorithm: header(''),
            keyId: header('-aws-kms-key-id'),
            ...(context ? { context: JSON.parse(Buffer.from(context, 'base64').toString('utf8')) } : {}),
            bucketKey: header('-bucket-key-enabled'),
          };
    if (ctx.method === 'DELETE' && part) return abortUpload(server, ctx, String(ctx.query.uploadId));
    const stored = encryption.get(key);
    // S3's answer when KMS refuses: 400 with KMS's error under a "KMS." prefix.
    const refused = (err: unknown) => {
      ctx.status = 400;
      ctx.type = 'application/xml';
      ctx.body =
        '<?xml version="1.0" encoding="UTF-8"?>\n' +
        `<Error><Code>KMS.${xml((err as Error).name)}</Code><Message>${xml((err as Error).message)}</Message></Error>`;
    };
    const writes = (ctx.method === 'PUT' && !part) || initiate;
    if (writes && kms && written.algorithm === 'aws:kms' && written.keyId) {
      try {
        const made = await kms.send(
          new GenerateDataKeyCommand({
            KeyId: written.keyId,
            EncryptionContext: written.context,
            KeySpec: 'AES_256',
          }),
        );
        written.dataKey = made.CiphertextBlob;
      } catch (err) {
        return refused(err);
      }
    }
    // A read asks KMS beside reading the object, which has no effect of its own: nothing is sent
    // before KMS has answered, and a refusal replaces the object with KMS's error.
    const unsealing =
      (ctx.method === 'GET' || ctx.method === 'HEAD') && kms && stored?.dataKey
        ? kms.send(new DecryptCommand({ CiphertextBlob: stored.dataKey, EncryptionContext: stored.context }))
        : undefined;
    unsealing?.catch(() => undefined);
    try {
      await next();
    } finally {
      if (unsealing) {
        try {
          await unsealing;
        } catch (err) {
          (ctx.body as { destroy?: () => void } | null)?.destroy?.();
          refused(err);
        }
      }
    }
    if (ctx.method === 'DELETE' && ctx.status < 300) encryption.delete(key);
    if (ctx.status !== 200) return;
    if (initiate) uploading.set(key, written);
    else if (ctx.method === 'POST' && part) {
      encryption.set(key, uploading.get(key) ?? {});
      uploading.delete(key);
    } else if (ctx.method === 'PUT' && !part) encryption.set(key, written);
  }) as never);
  const bound = await server.run();
  return {
    endpoint: `http://${opts.host}:${bound.port}`,
    port: bound.port,
    /** Where it listens, as the OS reports it. */
    bound,
    /** How the object at `key` was encrypted when last written (this process's writes only). */
    encryptionOf: (key: string): TStoredEncryption | undefined => {
      const { dataKey: _sealed, ...seen } = encryption.get(key) ?? {};
      return encryption.has(key) ? seen : undefined;
    },
    /**
     * S3's KMS from now on: writes under SSE-KMS get a data key from it, reads decrypt it. With
     * `bucketKeyId`, the bucket is encrypted by default under that key, as the stack's is.
     */
    useKms(client: KMSClient, bucketKeyId?: string) {
      kms = client;
      defaultKeyId = bucketKeyId;
    },
    stop: () => server.close(),
  };
}

/** The parts of s3rver's filesystem store its PUT uses. */
interface TFilesystemStore {
  getResourcePath(bucket: string, key: string | undefined, resource: string): string;
  putObject(object: {
    bucket: string;
    key: string;
    content: Buffer | Readable;
    metadata: Record<string, string>;
  }): Promise<{ size: number; md5: string }>;
  putMetadata(bucket: string, key: string, metadata: Record<string, string>, md5?: string): Promise<void>;
  getObject(bucket: string, key: string, options?: { start?: number; end?: number }): Promise<unknown>;
  getBucketPath(bucket: string): string;
  getBucket(bucket: string): Promise<unknown>;
  getSubresource(bucket: string, key: string | undefined, type: string): Promise<unknown>;
}

/** Objects up to this size are read in one go (quickReads); larger ones are streamed, as s3rver does. */
const QUICK_READ_MAX_BYTES = 1024 * 1024;

/**
 * A GET of a small whole object answered in one turn of the event loop. s3rver reads the bucket's
 * website and CORS settings, the bucket, then the object in some ten steps on the thread pool,
 * one after another (stat, its metadata, its MD5, then the file); when the machine's cores are
 * busy each step waits for one, and a document's read took 40–180 ms during a page load while
 * the table's reads beside it took 10–100. From the page cache these small files take
 * microseconds to read, so the stand-in reads them at once, as s3rver would; ranges, objects
 * whose MD5 file is still to be made and large objects take s3rver's own way.
 */
function quickReads(store: TFilesystemStore): void {
  const missing = (err: unknown) => (err as NodeJS.ErrnoException).code === 'ENOENT';
  store.getBucket = async (bucket) => {
    try {
      const stat = statSync(store.getBucketPath(bucket));
      return stat.isDirectory() ? new S3Bucket(bucket, stat.birthtime) : null;
    } catch (err) {
      if (missing(err)) return null;
      throw err;
    }
  };
  store.getSubresource = async (bucket, key, type) => {
    const Model = getConfigModel(type);
    try {
      return new Model(readFileSync(store.getResourcePath(bucket, key ?? '', `${type}.xml`), 'utf8'));
    } catch (err) {
      if (missing(err)) return null;
      throw err;
    }
  };
  const getObject = store.getObject.bind(store);
  store.getObject = async (bucket, key, options) => {
    if (options && (options.start !== undefined || options.end !== undefined))
      return getObject(bucket, key, options);
    const at = (resource: string) => store.getResourcePath(bucket, key, resource);
    let read: { stat: Stats; md5: string; meta?: string; content: Buffer };
    try {
      const stat = statSync(at('object'));
      if (stat.size > QUICK_READ_MAX_BYTES) return getObject(bucket, key, options);
      const md5 = readFileSync(`${at('object')}.md5`, 'utf8');
      let meta: string | undefined;
      try {
        meta = readFileSync(at('metadata.json'), 'utf8');
      } catch (err) {
        if (!missing(err)) throw err;
      }
      read = { stat, md5, ...(meta === undefined ? {} : { meta }), content: readFileSync(at('object')) };
    } catch {
      // Missing or removed meanwhile (s3rver answers null), or an MD5 s3rver makes on first read.
      return getObject(bucket, key, options);
    }
    return new S3Object(bucket, key, Readable.from([read.content]), {
      ...(read.meta === undefined ? {} : (JSON.parse(read.meta) as Record<string, string>)),
      etag: JSON.stringify(read.md5),
      'last-modified': read.stat.mtime.toUTCString(),
      'content-length': String(read.content.length),
    });
  };
}

/**
 * A PUT that readers see whole, as S3 promises: s3rver truncates the object's file and then
 * writes it (and its metadata) in place, so a GET at the same moment can read an empty or half
 * file. Two runs of one job that write and read the same small JSON note met exactly that.
 * Here the bytes, their MD5 and the metadata go to files beside them that listings ignore (no
 * `._S3rver_object` ending) and each is renamed into place, which the file system does at once.
 * Between the renames an overwrite with other bytes has the new bytes under the old metadata
 * for a moment; no reader here reads an object while it is rewritten with different content.
 */
function atomicPuts(store: TFilesystemStore): void {
  const putMetadata = store.putMetadata;
  store.putObject = async (object) => {
    const at = (resource: string) => store.getResourcePath(object.bucket, object.key, resource);
    const objectPath = at('object');
    await mkdir(dirname(objectPath), { recursive: true });
    const tmp = `${objectPath}.${randomUUID()}.tmp`;
    const md5 = createHash('md5');
    let size = 0;
    const content = Buffer.isBuffer(object.content) ? Readable.from([object.content]) : object.content;
    try {
      const count = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          md5.update(chunk);
          size += chunk.length;
          done(null, chunk);
        },
      });
      await pipeline(content, count, createWriteStream(tmp));
      const digest = md5.digest('hex');
      // s3rver's own code writes the metadata files (what it keeps of the headers), staged.
      const staged = `${tmp}.meta`;
      await mkdir(staged);
      const inStaging = {
        getResourcePath: (_b: string, _k: string, resource: string) => join(staged, resource),
      };
      await putMetadata.call(inStaging, object.bucket, object.key, object.metadata, digest);
      await rename(tmp, objectPath);
      await rename(`${staged}/object.md5`, at('object.md5'));
      await rename(`${staged}/metadata.json`, at('metadata.json'));
      return { size, md5: digest };
    } finally {
      await rm(tmp, { force: true });
      await rm(`${tmp}.meta`, { recursive: true, force: true });
    }
  };
}

/**
 * AbortMultipartUpload, which s3rver lacks: its parts are removed and S3's 204 answered. An
 * export that fails half-way aborts its upload, so the bucket keeps nothing of it.
 */
async function abortUpload(server: S3rver, ctx: TAnswerable, uploadId: string): Promise<void> {
  const bucket = ctx.path.split('/')[1] ?? '';
  const store = server.store as unknown as TFilesystemStore;
  if (/^[0-9a-f]+$/.test(uploadId)) {
    await rm(join(store.getResourcePath(bucket, undefined, 'uploads'), uploadId), {
      recursive: true,
      force: true,
    });
  }
  ctx.status = 204;
  ctx.body = '';
}

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * ListObjectVersions, which s3rver lacks: the bucket on AWS is versioned, and deleting for good
 * (the retention policies) lists every version to delete each by its VersionId. s3rver keeps one
 * version an object, so it answers each object as S3 does an object stored before versioning:
 * one version, `VersionId` "null"; s3rver's DeleteObject then removes it (it ignores the id).
 */
function listVersions(server: S3rver, bucket: string) {
  type TCtx = {
    method: string;
    path: string;
    query: Record<string, string | string[] | undefined>;
    type: string;
    body: unknown;
  };
  type TStore = {
    listObjects(
      bucket: string,
      o: { prefix?: string; maxKeys?: number },
    ): Promise<{ objects: { key: string; metadata: Record<string, string> }[]; isTruncated: boolean }>;
  };
  return async (ctx: TCtx, next: () => Promise<unknown>) => {
    const onBucket = ctx.path === `/${bucket}` || ctx.path === `/${bucket}/`;
    if (ctx.method !== 'GET' || !onBucket || !('versions' in ctx.query)) return next();
    const prefix = typeof ctx.query.prefix === 'string' ? ctx.query.prefix : '';
    const maxKeys = Number(ctx.query['max-keys'] ?? 1000);
    const store = server.store as TStore;
    const { objects, isTruncated } = await store.listObjects(bucket, { prefix, maxKeys });
    const versions = objects.map(
      (o) =>
        `<Version><Key>${xml(o.key)}</Key><VersionId>null</VersionId><IsLatest>true</IsLatest>` +
        `<LastModified>${new Date(o.metadata['last-modified'] ?? 0).toISOString()}</LastModified>` +
        `<ETag>${xml(o.metadata.etag ?? '')}</ETag><Size>${o.metadata['content-length'] ?? 0}</Size>` +
        '<StorageClass>STANDARD</StorageClass></Version>',
    );
    ctx.type = 'application/xml';
    ctx.body =
      '<?xml version="1.0" encoding="UTF-8"?>\n' +
      '<ListVersionsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">' +
      `<Name>${xml(bucket)}</Name><Prefix>${xml(prefix)}</Prefix><MaxKeys>${maxKeys}</MaxKeys>` +
      `<IsTruncated>${isTruncated}</IsTruncated>${versions.join('')}</ListVersionsResult>`;
  };
}
