// The local seal identity: a self-signed certificate made on first use and kept in the data
// folder (`seal-identity.p12`, the PKCS #12, and `seal-identity.json`, its passphrase and
// certificate), both readable by the owner only. Without a folder it lives in memory for the
// process (tests). Two processes starting on one folder agree on one identity: the .p12 is
// claimed with an exclusive link, and the loser reads the winner's files.
import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { newSealIdentity, type TSealIdentity } from '../../pdf/seal';
import type { TSealIdentityStore } from '../../ports';

export const SEAL_P12_FILE = 'seal-identity.p12';
export const SEAL_JSON_FILE = 'seal-identity.json';

interface TStoredIdentity {
  passphrase: string;
  certificatePem: string;
  commonName: string;
  createdAt: string;
}

const commonName = () => `Open eSignature service local seal (${hostname()})`;

export function createLocalSealIdentity(dir: string | undefined): TSealIdentityStore {
  let loading: Promise<TSealIdentity> | undefined;
  return {
    get() {
      loading ??= (dir ? loadOrCreate(dir) : Promise.resolve(newSealIdentity(commonName()))).catch((err) => {
        loading = undefined;
        throw err;
      });
      return loading;
    },
  };
}

async function loadOrCreate(dir: string): Promise<TSealIdentity> {
  const p12Path = path.join(dir, SEAL_P12_FILE);
  const jsonPath = path.join(dir, SEAL_JSON_FILE);
  if (!existsSync(p12Path)) {
    mkdirSync(dir, { recursive: true });
    const identity = newSealIdentity(commonName());
    const stored: TStoredIdentity = {
      passphrase: identity.passphrase,
      certificatePem: identity.certificatePem,
      commonName: identity.commonName,
      createdAt: new Date().toISOString(),
    };
    const suffix = `.tmp-${randomBytes(6).toString('hex')}`;
    writeFileSync(p12Path + suffix, identity.p12, { mode: 0o600 });
    writeFileSync(jsonPath + suffix, JSON.stringify(stored, null, 2), { mode: 0o600 });
    let won = false;
    try {
      linkSync(p12Path + suffix, p12Path);
      won = true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    if (won) renameSync(jsonPath + suffix, jsonPath);
    rmSync(p12Path + suffix, { force: true });
    rmSync(jsonPath + suffix, { force: true });
    if (won) return identity;
  }
  return readStored(p12Path, jsonPath);
}

/** Reads the files, waiting briefly for the .json when another process has just claimed the .p12. */
async function readStored(p12Path: string, jsonPath: string): Promise<TSealIdentity> {
  for (let attempt = 0; ; attempt++) {
    if (existsSync(jsonPath)) {
      const stored = JSON.parse(readFileSync(jsonPath, 'utf8')) as TStoredIdentity;
      return {
        p12: readFileSync(p12Path),
        passphrase: stored.passphrase,
        certificatePem: stored.certificatePem,
        commonName: stored.commonName,
      };
    }
    if (attempt >= 20) {
      throw new Error(`${jsonPath} is missing beside ${p12Path}: remove both to make a new seal identity`);
    }
    await sleep(100);
  }
}
