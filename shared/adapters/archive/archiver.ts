import type { TArchiver } from '#shared/domain/ports/exports';
import { packTarGz, readTarGz } from './tar-gz';

/**
 * Budgets for reading an archive: the operator's own file, still read within limits. A file
 * of the archive is one stored object (a PDF of at most tens of MB); the whole is streamed.
 */
const BUDGET = { maxBytes: 256 * 1024 ** 3, maxEntryBytes: 5 * 1024 ** 3, maxEntries: 1_000_000 };

export const tarGzArchiver: TArchiver = {
  pack: (entries, at) => packTarGz(entries, Math.floor(at.getTime() / 1000)),
  read: (archive, visit) => readTarGz(archive, BUDGET, visit),
};
