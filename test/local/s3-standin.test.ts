import { execFileSync } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { type FileHandle, mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startS3rver } from '#infra/local/s3';

const BUCKET = 'race';
let dir: string;
let s3: Awaited<ReturnType<typeof startS3rver>>;
let client: S3Client;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 's3-standin-'));
  s3 = await startS3rver({ port: 0, host: '127.0.0.1', dir, bucket: BUCKET });
  client = new S3Client({
    endpoint: s3.endpoint,
    region: 'eu-west-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
});
afterAll(async () => {
  client.destroy();
  await s3.stop();
  await rm(dir, { recursive: true, force: true });
});

// Two runs of one job write the same note and read it back at once; S3 answers every read with
// a whole object, never the file half-written.
it('answers a read during a PUT of the same key with the whole object', async () => {
  const note = Buffer.from(JSON.stringify({ sha256: 'a'.repeat(64), filler: 'x'.repeat(200_000) }));
  const put = () => client.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'bulk/note.json', Body: note }));
  const read = async () => {
    try {
      const got = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'bulk/note.json' }));
      return Buffer.from(await got.Body!.transformToByteArray());
    } catch (err) {
      if ((err as Error).name === 'NoSuchKey') return undefined;
      throw err;
    }
  };
  await put();
  const reads = await Promise.all(
    Array.from({ length: 30 }, (_, i) => (i % 3 === 0 ? put().then(() => undefined) : read())),
  );
  const seen = reads.filter((r) => r !== undefined);
  expect(seen.length).toBeGreaterThan(0);
  for (const body of seen) expect(body.equals(note)).toBe(true);
  // The staging files are not objects: a listing names the one key.
  const listed = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'bulk/' }));
  expect(listed.Contents?.map((o) => o.Key)).toEqual(['bulk/note.json']);
});

// A document's read sits beside the table's reads when a signer opens a packet. s3rver reads an
// object in some ten steps on the thread pool, one after another, and on a busy machine each
// waits for a core: the stand-in reads a small whole object at once instead.
it('answers a small whole object even while every thread of the pool is held', async () => {
  const small = Buffer.from(`%PDF-1.7\n${'x'.repeat(20_000)}\n%%EOF\n`);
  await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'docs/small.pdf', Body: small }));
  const fifo = join(dir, 'held.fifo');
  execFileSync('mkfifo', [fifo]);
  // Opening a FIFO to read waits, on a thread of the pool, until a writer opens it.
  const threads = Number(process.env.UV_THREADPOOL_SIZE ?? 4);
  const held: Promise<FileHandle>[] = Array.from({ length: threads }, () => open(fifo, 'r'));
  try {
    const got = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'docs/small.pdf' }), {
      abortSignal: AbortSignal.timeout(5_000),
    });
    expect(Buffer.from(await got.Body!.transformToByteArray()).equals(small)).toBe(true);
    expect(got.ContentLength).toBe(small.length);
  } finally {
    // The readers are waiting, so the writer's open returns at once and lets them all go.
    closeSync(openSync(fifo, 'w'));
    for (const handle of await Promise.all(held)) await handle.close();
  }
});
