// Where the seal certificate lives: the data folder locally (made once, kept, owner-only), a
// Secrets Manager secret on AWS (made once by whichever cold start comes first).
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  GetSecretValueCommand,
  PutSecretValueCommand,
  ResourceNotFoundException,
  type SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createLocalSealIdentity,
  SEAL_JSON_FILE,
  SEAL_P12_FILE,
} from '../../shared/adapters/sealing/local-seal-identity';
import { createSecretsManagerSealIdentity } from '../../shared/adapters/sealing/secrets-manager-seal-identity';
import { newSealIdentity, sealPdf } from '../../shared/pdf/seal';
import { aPdf } from '../helpers/pdfs';
import { pdfsig } from '../helpers/poppler';

const dirs: string[] = [];
const aDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'seal-identity-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const info = { reason: 'Test', name: 'Open eSignature service' };

describe('createLocalSealIdentity', () => {
  it('makes the identity on first use and keeps it in the data folder, readable by the owner only', async () => {
    const dir = path.join(aDir(), 'data');
    const identity = await createLocalSealIdentity(dir).get();
    expect(readdirSync(dir).sort()).toEqual([SEAL_JSON_FILE, SEAL_P12_FILE]);
    for (const file of [SEAL_JSON_FILE, SEAL_P12_FILE]) {
      expect(statSync(path.join(dir, file)).mode & 0o777).toBe(0o600);
    }
    expect(new X509Certificate(identity.certificatePem).subject).toBe(`CN=${identity.commonName}`);
    expect(pdfsig(await sealPdf(await aPdf(), identity, info))).toContain('Signature is Valid.');
  });

  it('gives the same identity to a second store on the same folder (a restart)', async () => {
    const dir = aDir();
    const first = await createLocalSealIdentity(dir).get();
    const second = await createLocalSealIdentity(dir).get();
    expect(second.certificatePem).toBe(first.certificatePem);
    expect(second.passphrase).toBe(first.passphrase);
    expect(second.p12.equals(first.p12)).toBe(true);
    expect(pdfsig(await sealPdf(await aPdf(), second, info))).toContain('Signature is Valid.');
  });

  it('agrees on one identity when two stores start on an empty folder at once', async () => {
    const dir = aDir();
    const [a, b] = await Promise.all([
      createLocalSealIdentity(dir).get(),
      createLocalSealIdentity(dir).get(),
    ]);
    expect(a.certificatePem).toBe(b.certificatePem);
    expect(readdirSync(dir).sort()).toEqual([SEAL_JSON_FILE, SEAL_P12_FILE]);
  });

  it('answers every call of one store with the same identity, and keeps it in memory without a folder', async () => {
    const store = createLocalSealIdentity(undefined);
    const [a, b] = await Promise.all([store.get(), store.get()]);
    expect(a).toBe(b);
    expect(await createLocalSealIdentity(undefined).get()).not.toBe(a);
  });

  it('says what to do when the passphrase file is gone', async () => {
    const dir = aDir();
    writeFileSync(path.join(dir, SEAL_P12_FILE), newSealIdentity('x').p12);
    await expect(createLocalSealIdentity(dir).get()).rejects.toThrow(/remove both/);
  });
});

/**
 * Secrets Manager as far as the store uses it: a secret created without a value, versions
 * written with a ClientRequestToken (the same token with other contents is refused).
 */
function aSecretsManager(initial?: string) {
  const versions = new Map<string, string>();
  let current = initial;
  const calls: string[] = [];
  const client = {
    async send(command: unknown) {
      // Let racing callers interleave as they would over the network.
      await new Promise((r) => setTimeout(r, 5));
      if (command instanceof GetSecretValueCommand) {
        calls.push('get');
        if (current === undefined) {
          throw new ResourceNotFoundException({
            message: "Secrets Manager can't find the specified secret value for staging label: AWSCURRENT",
            $metadata: {},
          });
        }
        return { SecretString: current };
      }
      if (command instanceof PutSecretValueCommand) {
        calls.push('put');
        const { ClientRequestToken: token, SecretString: value } = command.input;
        const known = versions.get(token!);
        if (known !== undefined && known !== value) {
          throw Object.assign(new Error('A version with this token exists'), {
            name: 'ResourceExistsException',
          });
        }
        versions.set(token!, value!);
        current = value;
        return { VersionId: token };
      }
      throw new Error('unexpected command');
    },
  };
  return {
    client: client as unknown as SecretsManagerClient,
    calls,
    value: () => current,
  };
}

describe('createSecretsManagerSealIdentity', () => {
  it('makes and stores an identity when the secret has no value yet, then reads it back', async () => {
    const sm = aSecretsManager();
    const identity = await createSecretsManagerSealIdentity(sm.client, 'seal').get();
    const stored = JSON.parse(sm.value()!) as { p12: string; passphrase: string };
    expect(Buffer.from(stored.p12, 'base64').equals(identity.p12)).toBe(true);
    expect(stored.passphrase).toBe(identity.passphrase);
    expect(sm.calls).toEqual(['get', 'put', 'get']);
    expect(identity.commonName).toBe('Open eSignature service seal');
    expect(pdfsig(await sealPdf(await aPdf(), identity, info))).toContain('Signature is Valid.');
  });

  it('lets racing cold starts agree on one identity', async () => {
    const sm = aSecretsManager();
    const identities = await Promise.all(
      [1, 2, 3].map(() => createSecretsManagerSealIdentity(sm.client, 'seal').get()),
    );
    for (const i of identities) expect(i.certificatePem).toBe(identities[0]!.certificatePem);
  });

  it('replaces the random placeholder CDK puts in a new secret', async () => {
    const sm = aSecretsManager('x8#Jq!2nV0pLr7$Tz');
    const identity = await createSecretsManagerSealIdentity(sm.client, 'seal').get();
    expect(JSON.parse(sm.value()!).passphrase).toBe(identity.passphrase);
  });

  it('uses an identity already stored, its common name read from the certificate, once per process', async () => {
    const made = newSealIdentity('Acme Corp document seal');
    const sm = aSecretsManager(
      JSON.stringify({ p12: made.p12.toString('base64'), passphrase: made.passphrase }),
    );
    const store = createSecretsManagerSealIdentity(sm.client, 'seal');
    const identity = await store.get();
    await store.get();
    expect(identity.commonName).toBe('Acme Corp document seal');
    expect(identity.certificatePem.replace(/\r/g, '')).toBe(made.certificatePem.replace(/\r/g, ''));
    expect(sm.calls).toEqual(['get']);
  });
});
