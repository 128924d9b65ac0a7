// The operator's export and import of a whole account. export-account builds the archive in this
// process with the same use case the document worker runs for the API (claimed on the account's
// export record first, so it never runs beside an API export); import-account restores one.
import { createReadStream, createWriteStream } from 'node:fs';
import { access } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { randomIds } from '#shared/adapters/system';
import { buildExport } from '#shared/domain/exports/build-export';
import type { TExport } from '#shared/domain/exports/export';
import {
  importAccount,
  type TArchiveSource,
  type TImportReport,
} from '#shared/domain/exports/import-account';
import { claimExport } from '#shared/domain/exports/start-export';
import type { TAdminDeps } from './commands';

async function exportingOf(deps: TAdminDeps) {
  if (!deps.exporting) throw new Error('The documents bucket is not available on this target.');
  return deps.exporting();
}

export async function exportAccountCommand(
  deps: TAdminDeps,
  accountId: string,
  out: string | undefined,
): Promise<TExport> {
  const exporting = await exportingOf(deps);
  const claimed = await claimExport(
    { accounts: deps.accounts, exports: exporting.exports, clock: deps.clock, ids: randomIds },
    accountId,
    undefined,
  );
  const done = await buildExport(exporting, accountId, claimed.id);
  if (!done?.archive || done.status !== 'done') {
    throw new Error('The export was taken over by another run; follow it with GET /account/exports/{id}/.');
  }
  // Streamed from the bucket to the file: the archive is never whole in memory.
  if (out) await pipeline((await exporting.streams.read(done.archive.key)).body, createWriteStream(out));
  return done;
}

/**
 * Where the archive is read from, opened once for each of the import's two readings: a file, or
 * an object of the documents bucket as `s3://<key>` (the key export-account prints) or
 * `s3://<bucket>/<key>`, the documents bucket named.
 */
async function archiveSource(
  exporting: Awaited<ReturnType<typeof exportingOf>>,
  archive: string,
): Promise<TArchiveSource> {
  if (archive.startsWith('s3://')) {
    const named = archive.slice('s3://'.length);
    const inBucket = `${exporting.bucketName}/`;
    const key = named.startsWith(inBucket) ? named.slice(inBucket.length) : named;
    if (!(await exporting.lister.exists(key))) {
      throw new Error(
        `No object ${key} in the documents bucket (${exporting.bucketName}): give the key export-account printed, as s3://exports/<account>/<export>.tar.gz.`,
      );
    }
    return async () => (await exporting.streams.read(key)).body;
  }
  try {
    await access(archive);
  } catch (err) {
    throw new Error(
      `Cannot read ${archive} (${(err as NodeJS.ErrnoException).code ?? 'error'}): give the export's .tar.gz.`,
    );
  }
  return async () => createReadStream(archive);
}

export async function importAccountCommand(
  deps: TAdminDeps,
  archive: string,
  accountId: string | undefined,
): Promise<TImportReport> {
  const exporting = await exportingOf(deps);
  const report = await importAccount(exporting, await archiveSource(exporting, archive), accountId);
  // The console finds a user by address through lookup items outside the account's partition,
  // which the archive does not carry: made again here, so the account's users can sign in.
  await deps.accounts.indexUserEmails(report.accountId);
  return report;
}
