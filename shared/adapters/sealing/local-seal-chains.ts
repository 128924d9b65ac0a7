// The seal certificate chains of the local runtime: one PEM file per chain in a folder of the
// data directory, named as the secrets on AWS are (seal-names.ts). Written whole to a temporary
// file and renamed, so a reader never sees half a chain.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { TSealChainStore } from '#shared/domain/ports/evidence';
import { sealChainName } from './seal-names';

export function createLocalSealChains(dir: string, name: string): TSealChainStore {
  const file = (accountId?: string) => path.join(dir, `${sealChainName(name, accountId)}.pem`);
  return {
    async get(accountId) {
      try {
        return readFileSync(file(accountId), 'utf8');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw err;
      }
    },
    async put(pem, accountId) {
      mkdirSync(dir, { recursive: true });
      const to = file(accountId);
      const tmp = `${to}.tmp-${randomBytes(6).toString('hex')}`;
      writeFileSync(tmp, pem, { mode: 0o644 });
      renameSync(tmp, to);
    },
  };
}
