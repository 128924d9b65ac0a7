// The worker's half of an export (the document worker's `export` job, or the operator's
// export-account in its own process): reads every stored item and file of the account, writes
// the archive with its manifest to the documents bucket and records the outcome. Each state
// change is one conditional write on the export record; a second copy of the job (SQS delivers
// at least once) loses that write and stops, so one archive is made.
//
// The archive is a stream: each file is read from the bucket as the archive's upload asks for
// more, hashed on its way through, and the upload sends a part at a time, so the worker holds
// a few parts (and stream buffers) whatever the account's size. The hashes are known only
// once every file went through, so manifest.json is the archive's last entry.
import { createHash, type Hash } from 'node:crypto';
import type { TBundle } from '../bundles/bundle';
import { deletedAt, RETENTION_PARTS, retentionPrefixes } from '../bundles/retention';
import { ConcurrentUpdateError } from '../errors';
import type { TBundleFilesRecord } from '../evidence/evidence-files';
import type { TBundleStore } from '../ports/bundles';
import type { TEvidenceStore } from '../ports/evidence';
import type {
  TAccountRecords,
  TArchiveEntry,
  TArchiver,
  TBlobLister,
  TBlobStreams,
  TExportStore,
  TStoredRecord,
} from '../ports/exports';
import type { TClock } from '../ports/system';
import {
  ARCHIVE_FORMAT,
  ARCHIVE_FORMAT_VERSION,
  archiveKeyOf,
  EXPORT_LEASE_MS,
  FILES_DIR,
  MANIFEST_PATH,
  NOT_EXPORTED,
  RECORDS_PATH,
  type TDeletedFile,
  type TExport,
  type TManifest,
  type TManifestFile,
} from './export';
import { recordsToJsonl } from './records-json';

export interface TBuildExportDeps {
  exports: TExportStore;
  records: TAccountRecords;
  streams: TBlobStreams;
  lister: TBlobLister;
  bundles: Pick<TBundleStore, 'get' | 'documents'>;
  evidence: Pick<TEvidenceStore, 'get'>;
  archiver: TArchiver;
  clock: TClock;
}

/** Progress is written after this many files: each write is one conditional write of the record. */
const PROGRESS_EVERY = 25;

export const sha256Of = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** The bytes passed on as they come, each into `hash`; `seen` counts them. */
export async function* hashing(body: AsyncIterable<Uint8Array>, hash: Hash, seen: { bytes: number }) {
  for await (const chunk of body) {
    hash.update(chunk);
    seen.bytes += chunk.byteLength;
    yield chunk;
  }
}

async function* once(bytes: Uint8Array) {
  yield bytes;
}

/** Another run took the export over: the archive being made is dropped (its upload aborted). */
class TakenOver extends Error {}

/** Writes the record's next state; undefined when another run changed it first (that run goes on). */
async function advance(deps: TBuildExportDeps, current: TExport, change: Partial<TExport>) {
  const next = { ...current, ...change, version: current.version + 1 };
  try {
    await deps.exports.save(next);
    return next;
  } catch (err) {
    if (err instanceof ConcurrentUpdateError) return undefined;
    throw err;
  }
}

/** The files of a bundle the retention policy deleted, with the hashes the service keeps. */
async function deletedFiles(deps: TBuildExportDeps, bundle: TBundle): Promise<TDeletedFile[]> {
  const out: TDeletedFile[] = [];
  let files: TBundleFilesRecord | undefined;
  for (const part of RETENTION_PARTS) {
    const at = deletedAt(bundle, part);
    if (!at) continue;
    const base = { bundleId: bundle.id, part, deletedAt: at };
    if (part === 'originals') {
      for (const d of await deps.bundles.documents(bundle))
        out.push({ ...base, name: d.name, sha256: d.sha256 });
    } else if (part === 'finals') {
      files ??= await deps.evidence.get(bundle.accountId, bundle.id);
      for (const f of files?.finals ?? []) out.push({ ...base, name: f.name, sha256: f.sha256 });
      for (const c of files?.certificates ?? [])
        out.push({ ...base, name: `certificate ${c.packetKey}`, sha256: c.sha256 });
    } else {
      // Signers' images were never hashed: their deletion is listed with the date alone.
      out.push({ ...base, name: "signers' images and attachments" });
    }
  }
  return out;
}

/**
 * Every object of the account: those under its own folder, and the evidence and signers' images
 * of bundles made before those moved there, keyed by the bundle alone (retention.ts).
 */
async function storedKeys(deps: TBuildExportDeps, accountId: string, bundleIds: string[]): Promise<string[]> {
  const prefixes = new Set([`accounts/${accountId}/`]);
  for (const id of bundleIds) {
    for (const part of RETENTION_PARTS) {
      for (const p of retentionPrefixes({ accountId, id }, part)) {
        if (!p.startsWith(`accounts/${accountId}/`)) prefixes.add(p);
      }
    }
  }
  const keys = new Set<string>();
  for (const p of prefixes) for (const k of await deps.lister.list(p)) keys.add(k);
  return [...keys].sort();
}

/**
 * The archive's entries, pulled by its upload: each file is opened when the archive reaches it
 * and hashed on its way through into `files`; `progress` is told every PROGRESS_EVERY files.
 * The manifest, made of those hashes, comes last.
 */
async function* archiveEntries(
  deps: TBuildExportDeps,
  of: Pick<TManifest, 'accountId' | 'exportId' | 'created' | 'bundles' | 'deleted'> & {
    records: TStoredRecord[];
    keys: string[];
  },
  files: TManifestFile[],
  progress: (done: number) => Promise<void>,
): AsyncGenerator<TArchiveEntry> {
  const jsonl = Buffer.from(recordsToJsonl(of.records));
  yield { path: RECORDS_PATH, size: jsonl.length, body: once(jsonl) };
  for (const [i, key] of of.keys.entries()) {
    const { size, body } = await deps.streams.read(key);
    const hash = createHash('sha256');
    const seen = { bytes: 0 };
    const path = `${FILES_DIR}${key}`;
    yield { path, size, body: hashing(body, hash, seen) };
    files.push({ path, key, sha256: hash.digest('hex'), size: seen.bytes });
    if ((i + 1) % PROGRESS_EVERY === 0) await progress(i + 1);
  }
  const manifest: TManifest = {
    format: ARCHIVE_FORMAT,
    formatVersion: ARCHIVE_FORMAT_VERSION,
    accountId: of.accountId,
    exportId: of.exportId,
    created: of.created,
    records: { path: RECORDS_PATH, count: of.records.length, sha256: sha256Of(jsonl), size: jsonl.length },
    bundles: of.bundles,
    files,
    deleted: of.deleted,
    notExported: NOT_EXPORTED,
  };
  const bytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
  yield { path: MANIFEST_PATH, size: bytes.length, body: once(bytes) };
}

/** Builds the export `exportId` of the account, unless it is finished or another run holds it. */
export async function buildExport(
  deps: TBuildExportDeps,
  accountId: string,
  exportId: string,
): Promise<TExport | undefined> {
  const found = await deps.exports.get(accountId);
  // A job for an export that a later one replaced, or one already finished: nothing to do.
  if (!found || found.id !== exportId || found.status === 'done' || found.status === 'failed') return found;
  const now = () => deps.clock.now();
  let record = await advance(deps, found, {
    status: 'running',
    leaseUntil: new Date(now().getTime() + EXPORT_LEASE_MS).toISOString(),
  });
  if (!record) return undefined;
  try {
    const { records, bundleIds } = await deps.records.read(accountId);
    const keys = await storedKeys(deps, accountId, bundleIds);
    record = await advance(deps, record, { progress: { done: 0, total: keys.length } });
    if (!record) return undefined;
    const deleted: TDeletedFile[] = [];
    for (const id of bundleIds) {
      const bundle = await deps.bundles.get(accountId, id);
      if (bundle?.retention?.deleted) deleted.push(...(await deletedFiles(deps, bundle)));
    }
    let current: TExport = record;
    const files: TManifestFile[] = [];
    const entries = archiveEntries(
      deps,
      { accountId, exportId, created: now().toISOString(), records, bundles: bundleIds, keys, deleted },
      files,
      async (done) => {
        const next = await advance(deps, current, { progress: { done, total: keys.length } });
        if (!next) throw new TakenOver();
        current = next;
      },
    );

    const key = archiveKeyOf(accountId, exportId);
    const archiveHash = createHash('sha256');
    const archived = { bytes: 0 };
    try {
      await deps.streams.write(
        key,
        hashing(deps.archiver.pack(entries, now()), archiveHash, archived),
        'application/gzip',
      );
    } catch (err) {
      record = current;
      if (err instanceof TakenOver) return undefined;
      throw err;
    }
    record = current;
    return await advance(deps, record, {
      status: 'done',
      progress: { done: keys.length, total: keys.length },
      archive: {
        key,
        size: archived.bytes,
        sha256: archiveHash.digest('hex'),
        files: files.length,
        records: records.length,
      },
      finished: now().toISOString(),
    });
  } catch (err) {
    // Recorded, so the account may start again at once; the job is not run again.
    if (record)
      await advance(deps, record, {
        status: 'failed',
        error: 'The export could not be built. Start it again; if it fails again, ask the operator.',
        finished: now().toISOString(),
      });
    throw err;
  }
}
