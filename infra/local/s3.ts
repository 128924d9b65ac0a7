import S3rver, { type TS3rverContext } from 's3rver';

/** The SSE headers a PUT carried, as AWS would store them with the object. */
export interface TStoredEncryption {
  algorithm?: string;
  keyId?: string;
  /** The decoded encryption context. */
  context?: Record<string, string>;
  bucketKey?: string;
}

/** s3rver with its files under `dir`; the bucket is created if missing. */
export async function startS3rver(opts: { port: number; host: string; dir: string; bucket: string }) {
  const server = new S3rver({
    port: opts.port,
    address: opts.host,
    directory: opts.dir,
    silent: true,
    configureBuckets: [{ name: opts.bucket }],
  });
  // After its own path-style rewrite of virtual-host requests, ahead of its routes (the last
  // middleware), which refuse `?versions`.
  server.middleware.splice(server.middleware.length - 1, 0, listVersions(server, opts.bucket) as never);
  // s3rver drops SSE headers; kept here (first in the chain) so a test can read which key and
  // account context each object was written under, as S3's HeadObject would say on AWS.
  const encryption = new Map<string, TStoredEncryption>();
  server.middleware.unshift((async (ctx: TS3rverContext, next: () => Promise<unknown>) => {
    await next();
    if (ctx.method !== 'PUT' || ctx.status !== 200) return;
    const header = (name: string) => ctx.get(`x-amz-server-side-encryption${name}`) || undefined;
    const context = header('-context');
    const key = decodeURIComponent(ctx.path.replace(/^\/[^/]+\//, ''));
    encryption.set(key, {
      algorithm: header(''),
      keyId: header('-aws-kms-key-id'),
      ...(context ? { context: JSON.parse(Buffer.from(context, 'base64').toString('utf8')) } : {}),
      bucketKey: header('-bucket-key-enabled'),
    });
  }) as never);
  const bound = await server.run();
  return {
    endpoint: `http://${opts.host}:${bound.port}`,
    port: bound.port,
    /** Where it listens, as the OS reports it. */
    bound,
    /** How the object at `key` was encrypted when last written (this process's writes only). */
    encryptionOf: (key: string) => encryption.get(key),
    stop: () => server.close(),
  };
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
