// An export restored into another deployment of this service (the operator's import-account):
// every stored item and file with its ids kept. Each file's SHA-256 is checked against the
// manifest before anything is written; an id already taken by something else refuses the whole
// import before any write; items and files already there as the archive has them are passed
// over, so an import that stopped half-way is finished by running it again.
import { RETENTION_PARTS, retentionPrefixes } from '../bundles/retention';
import { ConflictError, ValidationError } from '../errors';
import type { TAccountRecords, TArchiveEntry, TArchiver, TBlobLister, TStoredRecord } from '../ports/exports';
import type { TBlobStore } from '../ports/files';
import { sha256Of } from './build-export';
import {
  ARCHIVE_FORMAT,
  ARCHIVE_FORMAT_VERSION,
  MANIFEST_PATH,
  RECORDS_PATH,
  type TManifest,
} from './export';
import { recordsFromJsonl, sameRecord } from './records-json';

export interface TImportDeps {
  records: TAccountRecords;
  blobs: Pick<TBlobStore, 'put' | 'get'>;
  lister: Pick<TBlobLister, 'exists'>;
  archiver: TArchiver;
}

export interface TImportReport {
  accountId: string;
  exportId: string;
  records: { written: number; present: number };
  files: { written: number; present: number };
  bundles: number;
  notExported: string[];
}

const refuse = (message: string) => new ValidationError(message, [{ field: 'archive', message }]);

function readManifest(entries: Map<string, TArchiveEntry>): TManifest {
  const raw = entries.get(MANIFEST_PATH);
  if (!raw) throw refuse(`The archive has no ${MANIFEST_PATH}: it is not an export of this service.`);
  let m: TManifest;
  try {
    m = JSON.parse(Buffer.from(raw.bytes).toString('utf8')) as TManifest;
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

/** The entry of the manifest's path, its size and SHA-256 checked; a ValidationError naming it else. */
function checked(entries: Map<string, TArchiveEntry>, f: { path: string; sha256: string; size: number }) {
  const e = entries.get(f.path);
  if (!e) throw refuse(`The archive lacks ${f.path}, which its manifest lists. Export the account again.`);
  if (e.bytes.length !== f.size || sha256Of(e.bytes) !== f.sha256) {
    throw refuse(
      `${f.path} does not match the SHA-256 its manifest gives: the archive is damaged. Nothing was written.`,
    );
  }
  return e.bytes;
}

/**
 * Restores the archive. `accountId`, when given, is the account the operator means to restore:
 * ids are kept, so an archive of another account is refused rather than renamed.
 */
export async function importAccount(
  deps: TImportDeps,
  archive: Uint8Array,
  accountId?: string,
): Promise<TImportReport> {
  let list: TArchiveEntry[];
  try {
    list = await deps.archiver.unpack(archive);
  } catch (err) {
    throw refuse(`The archive cannot be read: ${(err as Error).message}`);
  }
  const entries = new Map(list.map((e) => [e.path, e]));
  const manifest = readManifest(entries);
  if (accountId !== undefined && accountId !== manifest.accountId) {
    throw refuse(
      `The archive is an export of account ${manifest.accountId}, not ${accountId}. Ids are kept on import, so it restores ${manifest.accountId}: leave out --account or give that id.`,
    );
  }

  // Every byte checked against the manifest before anything is written.
  const records = recordsFromJsonl(Buffer.from(checked(entries, manifest.records)).toString('utf8'));
  if (records.length !== manifest.records.count) {
    throw refuse(`${RECORDS_PATH} holds ${records.length} items, its manifest ${manifest.records.count}.`);
  }
  const files = manifest.files.map((f) => ({ key: f.key, bytes: checked(entries, f) }));
  const own = ownPrefixes(manifest);
  const outside = files.find((f) => !own.some((p) => f.key.startsWith(p)) || f.key.split('/').includes('..'));
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
  for (const f of files) {
    if (await deps.lister.exists(f.key)) {
      if (sha256Of(await deps.blobs.get(f.key)) !== sha256Of(f.bytes)) {
        throw new ConflictError(
          `The file ${f.key} is already stored here with other content. Nothing more was written.`,
        );
      }
      report.files.present++;
      continue;
    }
    await deps.blobs.put(f.key, f.bytes, contentTypeOf(f.key));
    report.files.written++;
  }
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
