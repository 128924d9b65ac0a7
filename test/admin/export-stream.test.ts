// An account's export streamed: its files go from the bucket through tar and gzip into a
// multipart upload a part at a time. The export runs as the document worker would, in its
// invocation (so each S3 call is checked against that function's role), on an S3 client whose
// calls are counted: bytes read from documents less bytes sent in parts is how far reading runs
// ahead of the upload, and it stays within one part although the account's files are more than
// two. A failure half-way aborts the upload. The archive then goes into a second deployment by the
// operator's import-account --archive s3://…, which refuses another account's id first; imported
// again on a counted client, its reading runs at most one part ahead of its writes.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  PutObjectCommand,
  type S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoke } from '#infra/local/invocation';
import type { TRuntime } from '#infra/local/runtime';
import { createS3Client } from '#shared/adapters/aws/clients';
import { createAccountStore } from '#shared/adapters/dynamodb/account-store';
import { randomIds, systemClock } from '#shared/adapters/system';
import { exportDeps } from '#shared/composition/account-export';
import { buildExport } from '#shared/domain/exports/build-export';
import type { TExport } from '#shared/domain/exports/export';
import { importAccount } from '#shared/domain/exports/import-account';
import { claimExport } from '#shared/domain/exports/start-export';
import { admin } from '../helpers/admin-cli';
import { startTestRuntime } from '../helpers/runtime';

/** The part size here: S3's least (and Upload's), 5 MiB, so the files are few parts' worth. */
const PART = 5 * 1024 * 1024;
/**
 * The streams' own buffers between the bucket and the upload (a document's HTTP chunk, tar,
 * gzip, the one chunk Upload's stream reads ahead): measured at 128 KiB past the part. Upload
 * sends a part before it reads the next (queueSize 1), so reading runs one part ahead of sending;
 * a second part read while one is sent (queueSize 2) went past this bound. Upload's heap holds
 * more than the meter sees: it copies each part out of the chunks read, and the rest of a part
 * keeps that copy alive while the next fills, about three parts at most (blob-streams.ts).
 */
const STREAM_BUFFERS = 256 * 1024;

let dirA: string;
let dirB: string;
let from: TRuntime;
let to: TRuntime;
let account = '';
let archiveKey = '';
const hashes = new Map<string, string>();
const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

beforeAll(async () => {
  dirA = await mkdtemp(join(tmpdir(), 'stream-from-'));
  dirB = await mkdtemp(join(tmpdir(), 'stream-to-'));
  [from, to] = await Promise.all([
    startTestRuntime({ memory: false, dataDir: dirA }),
    startTestRuntime({ memory: false, dataDir: dirB }),
  ]);
}, 60_000);
afterAll(async () => {
  await Promise.all([from?.stop(), to?.stop()]);
  await Promise.all([dirA, dirB].map((d) => d && rm(d, { recursive: true, force: true })));
});

/** The runtime's S3 client with its calls counted: what the export read, and what it sent. */
function metered(runtime: TRuntime, failOn?: string) {
  const s3 = createS3Client(runtime.config);
  const meter = { read: 0, sent: 0, peak: 0, parts: 0, completed: false, aborted: 0 };
  const send = s3.send.bind(s3) as (command: unknown) => Promise<Record<string, unknown>>;
  async function* counted(body: AsyncIterable<Uint8Array>, fail: boolean) {
    for await (const chunk of body) {
      meter.read += chunk.byteLength;
      meter.peak = Math.max(meter.peak, meter.read - meter.sent);
      // A document that breaks off half-way, as a dropped connection would.
      if (fail && meter.read > 1.5 * PART) throw new Error('connection reset while reading a document');
      yield chunk;
    }
  }
  const client = Object.create(s3) as S3Client & { send: unknown };
  client.send = async (command: unknown) => {
    const out = await send(command);
    if (command instanceof GetObjectCommand) {
      out.Body = counted(out.Body as AsyncIterable<Uint8Array>, command.input.Key === failOn);
    }
    if (command instanceof UploadPartCommand || command instanceof PutObjectCommand) {
      meter.sent += (command.input.Body as Uint8Array).byteLength;
      if (command instanceof UploadPartCommand) meter.parts++;
    }
    if (command instanceof CompleteMultipartUploadCommand) meter.completed = true;
    if (command instanceof AbortMultipartUploadCommand) meter.aborted++;
    return out;
  };
  const deps = exportDeps({
    db: runtime.db,
    tableName: runtime.config.tableName,
    s3: client,
    bucketName: runtime.config.bucketName,
    ...(runtime.config.documentsKeyId ? { documentsKeyId: runtime.config.documentsKeyId } : {}),
    partBytes: PART,
  });
  return { deps, meter };
}

/** One export of the account, built in the document worker's invocation; each saved progress kept. */
async function exportAs(runtime: TRuntime, deps: ReturnType<typeof metered>['deps']) {
  const saved: TExport[] = [];
  const save = deps.exports.save;
  const exports = {
    ...deps.exports,
    save: async (r: TExport) => {
      saved.push(r);
      await save(r);
    },
  };
  const accounts = createAccountStore(runtime.db, runtime.config.tableName);
  const claimed = await claimExport(
    { accounts, exports, clock: systemClock, ids: randomIds },
    account,
    undefined,
  );
  const built = invoke('document-worker', () => buildExport({ ...deps, exports }, account, claimed.id));
  return { built, saved, claimed };
}

describe('a streamed export', () => {
  it('holds one part of the files at a time, reports progress on the way, and lists every SHA-256', async () => {
    account = (await from.seedAccount('Large', 'large@example.com')).accountId;
    const { deps, meter } = metered(from);
    // 6 files of 2 MiB (random: gzip cannot shrink them) and 24 small ones: 3 parts' worth.
    for (let i = 0; i < 30; i++) {
      const bytes = randomBytes(i < 6 ? 2 * 1024 * 1024 : 1024);
      const key = `accounts/${account}/bundles/B${String(i).padStart(2, '0')}/originals/doc.pdf`;
      await deps.streams.write(key, [bytes] as never, 'application/pdf', bytes.length);
      hashes.set(key, sha256(bytes));
    }
    meter.read = meter.sent = meter.peak = meter.parts = 0;

    const { built, saved } = await exportAs(from, deps);
    const done = await built;
    expect(done).toMatchObject({ status: 'done', progress: { done: 30, total: 30 } });
    archiveKey = done!.archive!.key;
    expect(meter.read).toBeGreaterThan(2 * (PART + STREAM_BUFFERS));
    expect(meter.peak).toBeLessThanOrEqual(PART + STREAM_BUFFERS);
    expect(meter.parts).toBeGreaterThanOrEqual(3);
    // Progress was written while the archive streamed, not after it.
    expect(saved.map((r) => r.progress.done)).toContain(25);
    // Sealed as the account's documents are, though it was sent in parts.
    expect(from.storedEncryption(archiveKey)).toMatchObject({
      algorithm: 'aws:kms',
      context: { accountId: account },
    });

    const { size, body } = await deps.streams.read(archiveKey);
    const chunks: Uint8Array[] = [];
    for await (const c of body) chunks.push(c);
    expect(size).toBe(done!.archive!.size);
    expect(sha256(Buffer.concat(chunks))).toBe(done!.archive!.sha256);
  }, 120_000);

  it('aborts its upload when a document breaks off half-way, and records the export failed', async () => {
    const { deps, meter } = metered(from, [...hashes.keys()][3]);
    const { built, claimed } = await exportAs(from, deps);
    await expect(built).rejects.toThrow(/connection reset/);
    expect(meter.parts).toBeGreaterThan(0);
    expect(meter.completed).toBe(false);
    expect(meter.aborted).toBe(1);
    expect(await deps.lister.exists(`exports/${account}/${claimed.id}.tar.gz`)).toBe(false);
    expect(await deps.exports.get(account)).toMatchObject({ id: claimed.id, status: 'failed' });
  }, 60_000);

  it('is imported from s3:// into another deployment with the same SHA-256s, its own account only', async () => {
    // The archive copied into the second deployment's bucket, as an operator would.
    const source = metered(from).deps;
    const target = metered(to).deps;
    await target.streams.write(archiveKey, (await source.streams.read(archiveKey)).body, 'application/gzip');

    const other = await admin(
      dirB,
      'import-account',
      '--archive',
      `s3://${archiveKey}`,
      '--account',
      to.demo.accountId,
    );
    expect(other.code).toBe(2);
    expect(other.stderr).toContain(`is an export of account ${account}, not ${to.demo.accountId}`);
    expect(await target.lister.exists([...hashes.keys()][0]!)).toBe(false);
    expect((await admin(dirB, 'show-account', '--account', account)).code).toBe(1);
    const missing = await admin(dirB, 'import-account', '--archive', `s3://exports/${account}/none.tar.gz`);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('give the key export-account printed');

    const bucketNamed = `s3://${to.config.bucketName}/${archiveKey}`;
    const run = await admin(dirB, 'import-account', '--archive', bucketNamed, '--account', account, '--json');
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ accountId: account, files: { written: 30 } });
    for (const [key, hash] of hashes) {
      const chunks: Uint8Array[] = [];
      for await (const c of (await target.streams.read(key)).body) chunks.push(c);
      expect(sha256(Buffer.concat(chunks)), key).toBe(hash);
    }
    expect((await admin(dirB, 'show-account', '--account', account)).code).toBe(0);
  }, 120_000);

  it('is imported again reading one part ahead of its writes, passing over what is there', async () => {
    // The files restored above removed, the items kept: a second import writes the files again.
    const { deps, meter } = metered(to);
    const plain = createS3Client(to.config);
    for (const key of hashes.keys())
      await plain.send(new DeleteObjectCommand({ Bucket: to.config.bucketName, Key: key }));
    plain.destroy();
    // The archive is read twice; only the second reading writes, so only it is measured.
    let opened = 0;
    const open = async () => {
      if (++opened === 2) meter.read = meter.sent = meter.peak = 0;
      return (await deps.streams.read(archiveKey)).body;
    };
    const report = await importAccount(deps, open, account);
    expect(opened).toBe(2);
    expect(report.files).toEqual({ written: 30, present: 0 });
    expect(report.records.written).toBe(0);
    expect(meter.read).toBeGreaterThan(2 * (PART + STREAM_BUFFERS));
    expect(meter.peak).toBeLessThanOrEqual(PART + STREAM_BUFFERS);
    for (const [key, hash] of hashes) {
      const chunks: Uint8Array[] = [];
      for await (const c of (await deps.streams.read(key)).body) chunks.push(c);
      expect(sha256(Buffer.concat(chunks)), key).toBe(hash);
    }
  }, 120_000);
});
