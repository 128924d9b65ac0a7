// The operator's export and import of a whole account. export-account builds the archive in this
// process with the same use case the document worker runs for the API (claimed on the account's
// export record first, so it never runs beside an API export); import-account restores one.
import { readFile, writeFile } from 'node:fs/promises';
import { randomIds } from '#shared/adapters/system';
import { buildExport } from '#shared/domain/exports/build-export';
import type { TExport } from '#shared/domain/exports/export';
import { importAccount, type TImportReport } from '#shared/domain/exports/import-account';
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
  if (out) await writeFile(out, await exporting.blobs.get(done.archive.key));
  return done;
}

/** The archive from a file, or from the documents bucket as `s3://<key>`. */
export async function importAccountCommand(
  deps: TAdminDeps,
  archive: string,
  accountId: string | undefined,
): Promise<TImportReport> {
  const exporting = await exportingOf(deps);
  let bytes: Uint8Array;
  if (archive.startsWith('s3://')) bytes = await exporting.blobs.get(archive.slice('s3://'.length));
  else {
    try {
      bytes = await readFile(archive);
    } catch (err) {
      throw new Error(
        `Cannot read ${archive} (${(err as NodeJS.ErrnoException).code ?? 'error'}): give the export's .tar.gz.`,
      );
    }
  }
  const report = await importAccount(exporting, bytes, accountId);
  // The console finds a user by address through lookup items outside the account's partition,
  // which the archive does not carry: made again here, so the account's users can sign in.
  await deps.accounts.indexUserEmails(report.accountId);
  return report;
}
