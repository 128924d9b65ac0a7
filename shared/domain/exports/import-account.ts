// An export restored into another deployment of this service (the operator's import-account):
// every stored item and file with its ids kept. The archive is read as a stream, twice: the
// first reading hashes every file and checks it against the manifest (which comes last) before
// anything is written; an id already taken by something else refuses the whole import before
// any write; the second reading streams each file into the bucket, hashing it again so an
// archive changed between the readings stores nothing of the changed file. Items and files
// already there as the archive has them are passed over, so an import that stopped half-way is
// finished by running it again. Memory holds the records and the manifest, and one upload part.
import { createHash } from 'node:crypto';
import { RETENTION_PARTS, retentionPrefixes } from '../bundles/retention';
import { ConflictError, ValidationError } from '../errors';
import type {
  TAccountRecords,
  TArchiveEntry,
  TArchiver,
  TBlobLister,
  TBlobStreams,
  TStoredRecord,
} from '../ports/exports';
import { hashing } from './build-export';
import {
  ARCHIVE_FORMAT,
  ARCHIVE_FORMAT_VERSION,
  MANIFEST_PATH,
  RECORDS_PATH,
  type TManifest,
  type TManifestFile,
} from './export';
import { recordsFromJsonl, sameRecord } from './records-json';

export interface TImportDeps {
  records: TAccountRecords;
  streams: TBlobStreams;
  lister: Pick<TBlobLister, 'exists'>;
  archiver: TArchiver;
}

/** Opens the archive from its start: it is read twice (a file, or an object of the bucket). */
export type TArchiveSource = () => Promise<AsyncIterable<Uint8Array>>;

export interface TImportReport {
  accountId: string;
  exportId: string;
  records: { written: number; present: number };
  files: { written: number; present: number };
  bundles: number;
  notExported: string[];
}

/** manifest.json and records.jsonl are read whole: they hold metadata (ids, hashes), no documents. */
const MAX_METADATA_BYTES = 512 * 1024 ** 2;

const refuse = (message: string) => new ValidationError(message, [{ field: 'archive', message }]);

async function digestOf(body: AsyncIterable<Uint8Array>) {
  const hash = createHash('sha256');
  const seen = { bytes: 0 };
  for await (const _ of hashing(body, hash, seen));
  return { sha256: hash.digest('hex'), size: seen.bytes };
}

async function bytesOf(e: TArchiveEntry): Promise<Buffer> {
  if (e.size > MAX_METADATA_BYTES) throw refuse(`${e.path} is larger than an import reads.`);
  const chunks: Uint8Array[] = [];
  for await (const chunk of e.body) chunks.push(chunk);
  return Buffer.concat(chunks);
}

function parseManifest(raw: Buffer | undefined): TManifest {
  if (!raw) throw refuse(`The archive has no ${MANIFEST_PATH}: it is not an export of this service.`);
  let m: TManifest;
  try {
    m = JSON.parse(raw.toString('utf8')) as TManifest;
  } catch {
    throw refuse(`${MANIFEST_PATH} is not JSON: the archive is damaged. Export the account again.`);
  }
  if (m.format !== ARCHIVE_FORMAT || m.formatVersion > ARCHIVE_FORMAT_VERSION) {
    throw refuse(
      `${MANIFEST_PATH} is not of an export this version can read (format ${m.format} ${m.formatVersion}).`,
    );
  }
  return m;
}

/** Reads the archive, its format's refusals told as the import's. */
async function readArchive(
  deps: TImportDeps,
  open: TArchiveSource,
  visit: (e: TArchiveEntry) => Promise<void>,
) {
  const source = await open();
  try {
    await deps.archiver.read(source, visit);
  } catch (err) {
    if (err instanceof ValidationError || err instanceof ConflictError) throw err;
    throw refuse(`The archive cannot be read: ${(err as Error).message}`);
  }
}

const damaged = (path: string) =>
  refuse(
    `${path} does not match the SHA-256 its manifest gives: the archive is damaged. Nothing was written.`,
  );

/**
 * The first reading: every file's hash and size, and the manifest and records read whole.
 * A path twice in the archive is refused: which copy the manifest meant cannot be told.
 */
async function scan(deps: TImportDeps, open: TArchiveSource) {
  const seen = new Map<string, { sha256: string; size: number }>();
  const whole = new Map<string, Buffer>();
  await readArchive(deps, open, async (e) => {
    if (seen.has(e.path)) throw refuse(`The archive holds ${e.path} twice. Export the account again.`);
    if (e.path === MANIFEST_PATH || e.path === RECORDS_PATH) {
      const bytes = await bytesOf(e);
      whole.set(e.path, bytes);
      seen.set(e.path, { sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length });
    } else seen.set(e.path, await digestOf(e.body));
  });
  return { seen, whole };
}

/**
 * Restores the archive. `accountId`, when given, is the account the operator means to restore:
 * ids are kept, so an archive of another account is refused, before any write, rather than renamed.
 */
export async function importAccount(
  deps: TImportDeps,
  open: TArchiveSource,
  accountId?: string,
): Promise<TImportReport> {
  const { seen, whole } = await scan(deps, open);
  const manifest = parseManifest(whole.get(MANIFEST_PATH));
  if (accountId !== undefined && accountId !== manifest.accountId) {
    const message = `The archive is an export of account ${manifest.accountId}, not ${accountId}. Ids are kept on import, so it restores ${manifest.accountId}: leave out --account or give that id. Nothing was written.`;
    throw new ValidationError(message, [{ field: 'account', message }]);
  }

  // Every byte checked against the manifest before anything is written.
  const check = (f: { path: string; sha256: string; size: number }) => {
    const got = seen.get(f.path);
    if (!got)
      throw refuse(`The archive lacks ${f.path}, which its manifest lists. Export the account again.`);
    if (got.size !== f.size || got.sha256 !== f.sha256) throw damaged(f.path);
  };
  check(manifest.records);
  const records = recordsFromJsonl(whole.get(RECORDS_PATH)!.toString('utf8'));
  if (records.length !== manifest.records.count) {
    throw refuse(`${RECORDS_PATH} holds ${records.length} items, its manifest ${manifest.records.count}.`);
  }
  for (const f of manifest.files) check(f);
  const own = ownPrefixes(manifest);
  const outside = manifest.files.find(
    (f) => !own.some((p) => f.key.startsWith(p)) || f.key.split('/').includes('..'),
  );
  if (outside)
    throw refuse(`The file ${outside.key} is neither under the account's folder nor one of its bundles'.`);

  // Ids taken by anything else refuse the import before a single write.
  const stored = await deps.records.stored(records);
  const taken = records.filter((r, i) => stored[i] && !sameRecord(stored[i]!, r));
  if (taken.length > 0) {
    const sample = taken
      .slice(0, 5)
      .map((r) => `${r.pk} ${r.sk}`)
      .join(', ');
    throw new ConflictError(
      `This deployment already holds ${taken.length} of the archive's ids with other data (${sample}). ` +
        'Nothing was written: import into a deployment without this account, or remove the account there first.',
    );
  }

  // Files first, then the items that name them; the account item last of all, so an account
  // that can be seen is a whole one.
  const report: TImportReport = {
    accountId: manifest.accountId,
    exportId: manifest.exportId,
    records: { written: 0, present: 0 },
    files: { written: 0, present: 0 },
    bundles: manifest.bundles.length,
    notExported: manifest.notExported,
  };
  await restoreFiles(deps, open, manifest, report);
  const isAccount = (r: TStoredRecord) => r.sk === 'ACCOUNT';
  for (const r of [...records.filter((r) => !isAccount(r)), ...records.filter(isAccount)]) {
    if (await deps.records.putIfAbsent(r)) report.records.written++;
    else {
      const [now] = await deps.records.stored([r]);
      if (!now || !sameRecord(now, r)) {
        throw new ConflictError(`${r.pk} ${r.sk} was written here by someone else during the import.`);
      }
      report.records.present++;
    }
  }
  return report;
}

/** The second reading: each file streamed into the bucket, its hash taken again on the way. */
async function restoreFiles(
  deps: TImportDeps,
  open: TArchiveSource,
  { files, accountId }: TManifest,
  report: TImportReport,
) {
  const wanted = new Map(files.map((f) => [f.path, f]));
  await readArchive(deps, open, async (e) => {
    const f = wanted.get(e.path);
    if (!f) return;
    wanted.delete(e.path);
    if (await deps.lister.exists(f.key)) {
      if ((await digestOf((await deps.streams.read(f.key)).body)).sha256 !== f.sha256) {
        throw new ConflictError(
          `The file ${f.key} is already stored here with other content. Nothing more was written.`,
        );
      }
      report.files.present++;
      return;
    }
    // A file of the earlier layout (final/, coe/… outside accounts/) names no account in its
    // key: it is restored as the archive's account's, under its key and context.
    await deps.streams.write(f.key, verified(e.body, f), contentTypeOf(f.key), f.size, accountId);
    report.files.written++;
  });
  const missing = [...wanted.keys()][0];
  if (missing)
    throw refuse(`The archive changed while it was imported (${missing} is gone). Import it again.`);
}

/** The body, failing at its end (before the upload completes) when it is not the manifest's. */
async function* verified(body: AsyncIterable<Uint8Array>, f: TManifestFile) {
  const hash = createHash('sha256');
  const seen = { bytes: 0 };
  yield* hashing(body, hash, seen);
  if (seen.bytes !== f.size || hash.digest('hex') !== f.sha256) throw damaged(f.path);
}

/** Where the account's files may be restored: its folder, and its bundles' own prefixes. */
function ownPrefixes(m: TManifest): string[] {
  const out = [`accounts/${m.accountId}/`];
  for (const id of m.bundles) {
    for (const part of RETENTION_PARTS) out.push(...retentionPrefixes({ accountId: m.accountId, id }, part));
  }
  return out;
}

/** What S3 is told each restored file is; the service reads them by key, not by type. */
function contentTypeOf(key: string): string {
  if (key.endsWith('.pdf')) return 'application/pdf';
  if (key.endsWith('.png')) return 'image/png';
  if (key.endsWith('.jpg') || key.endsWith('.jpeg')) return 'image/jpeg';
  return 'application/octet-stream';
}
