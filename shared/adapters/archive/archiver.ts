import type { TArchiver } from '#shared/domain/ports/exports';
import { packTarGz, unpackTarGz } from './tar-gz';

/** Budgets for reading an archive: the operator's own file, still read within limits. */
const BUDGET = { maxBytes: 2 * 1024 ** 3, maxEntries: 1_000_000 };

export const tarGzArchiver: TArchiver = {
  pack: (entries, at) => packTarGz(entries, Math.floor(at.getTime() / 1000)),
  unpack: (bytes) => unpackTarGz(bytes, BUDGET),
};
