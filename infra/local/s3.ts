import S3rver from 's3rver';

/** s3rver with its files under `dir`; the bucket is created if missing. */
export async function startS3rver(opts: { port: number; host: string; dir: string; bucket: string }) {
  const server = new S3rver({
    port: opts.port,
    address: opts.host,
    directory: opts.dir,
    silent: true,
    configureBuckets: [{ name: opts.bucket }],
  });
  const bound = await server.run();
  return {
    endpoint: `http://${opts.host}:${bound.port}`,
    port: bound.port,
    /** Where it listens, as the OS reports it. */
    bound,
    stop: () => server.close(),
  };
}
