// The seal identity whose key never leaves KMS: an asymmetric KMS key (SIGN_VERIFY, RSA_3072 or
// ECC_NIST_P256) signs the SHA-256 of each seal's signed attributes (Sign, MessageType DIGEST), and
// its certificate chain is kept beside it (TSealChainStore: a secret on AWS, a file locally). The
// same code runs against KMS on AWS and the KMS stand-in locally (infra/local/kms-standin.ts).
//
// Before the first seal with a chain, the certificate's public key is compared with KMS's
// GetPublicKey, so a certificate installed for another key fails every seal with a message
// rather than making seals no one can verify. An account's own identity (key alias and chain
// named in seal-names.ts) is used for its bundles when installed, else the service's; with no
// chain installed for the service either, `fallback` (the PKCS #12 secret of deployments made
// before KMS sealing) seals, so an upgrade keeps sealing until the operator installs the chain.
import { createHash, X509Certificate } from 'node:crypto';
import { GetPublicKeyCommand, type KMSClient, SignCommand } from '@aws-sdk/client-kms';
import type { TSealChainStore, TSealIdentityStore } from '#shared/domain/ports/evidence';
import type { TSealAlgorithm, TSealSigner } from '#shared/pdf/seal-signer';
import { checkSealChain } from './seal-chain-check';
import { sealKeyAlias, sealOwner } from './seal-names';

/** How long a chain, once read, is used before it is read again (an installed renewal arrives). */
const CHAIN_TTL_MS = 5 * 60_000;

export interface TKmsPublicKey {
  keyArn: string;
  keySpec: string;
  algorithm: TSealAlgorithm;
  /** DER SubjectPublicKeyInfo. */
  spki: Buffer;
}

/** The key's public half and the seal algorithm that goes with its spec; refuses keys that cannot seal. */
export async function kmsPublicKey(kms: KMSClient, keyId: string): Promise<TKmsPublicKey> {
  const out = await kms.send(new GetPublicKeyCommand({ KeyId: keyId }));
  if (out.KeyUsage !== 'SIGN_VERIFY' || !out.PublicKey) {
    throw new Error(`KMS key ${keyId} is not a signing key (KeyUsage SIGN_VERIFY): it cannot seal.`);
  }
  const keySpec = out.KeySpec ?? '';
  let algorithm: TSealAlgorithm;
  if (keySpec === 'ECC_NIST_P256') algorithm = 'ECDSA_SHA_256';
  else if (/^RSA_(2048|3072|4096)$/.test(keySpec)) algorithm = 'RSASSA_PKCS1_V1_5_SHA_256';
  else
    throw new Error(
      `KMS key ${keyId} is ${keySpec}: a seal key is RSA_3072 (or 2048, 4096) or ECC_NIST_P256.`,
    );
  return { keyArn: out.KeyId ?? keyId, keySpec, algorithm, spki: Buffer.from(out.PublicKey) };
}

/** Signs with KMS: the SHA-256 of the data as a digest, under the algorithm of the key's spec. */
export function kmsSigner(
  kms: KMSClient,
  keyId: string,
  algorithm: TSealAlgorithm,
): (data: Buffer) => Promise<Buffer> {
  return async (data) => {
    const out = await kms.send(
      new SignCommand({
        KeyId: keyId,
        Message: createHash('sha256').update(data).digest(),
        MessageType: 'DIGEST',
        SigningAlgorithm: algorithm,
      }),
    );
    if (!out.Signature) throw new Error(`KMS Sign with ${keyId} returned no signature`);
    return Buffer.from(out.Signature);
  };
}

/** A signer for `keyId` with the chain in `pem`, checked to be for that key (GetPublicKey). */
export async function kmsSealSigner(kms: KMSClient, keyId: string, pem: string): Promise<TSealSigner> {
  const key = await kmsPublicKey(kms, keyId);
  const chain = checkSealChain(pem, key.spki, keyId);
  const subject = new X509Certificate(chain[0]!).subject;
  const commonName = /(?:^|\n)CN=([^\n]*)/.exec(subject)?.[1] ?? subject.replaceAll('\n', ', ');
  return { commonName, chain, algorithm: key.algorithm, sign: kmsSigner(kms, keyId, key.algorithm) };
}

export interface TKmsSealIdentityOptions {
  kms: KMSClient;
  chains: TSealChainStore;
  /** The service's key: its id, ARN or alias. */
  keyId: string;
  /** The base of the names of accounts' keys and chains (seal-names.ts). */
  name: string;
  /** Seals while the service has no chain installed (deployments from before KMS sealing). */
  fallback?: TSealIdentityStore;
}

export function createKmsSealIdentity(opts: TKmsSealIdentityOptions): TSealIdentityStore {
  const cache = new Map<string, { at: number; signer: Promise<TSealSigner | undefined> }>();

  /** The owner's signer, or undefined when no chain is installed for it. Failures are not kept. */
  const signerOf = (accountId?: string): Promise<TSealSigner | undefined> => {
    const slot = accountId ?? '';
    const known = cache.get(slot);
    if (known && Date.now() - known.at < CHAIN_TTL_MS) return known.signer;
    const signer = (async () => {
      const pem = await opts.chains.get(accountId);
      if (!pem) return undefined;
      const keyId = accountId ? sealKeyAlias(opts.name, accountId) : opts.keyId;
      try {
        return await kmsSealSigner(opts.kms, keyId, pem);
      } catch (err) {
        throw new Error(`The seal of ${sealOwner(accountId)} cannot be used: ${(err as Error).message}`, {
          cause: err,
        });
      }
    })();
    signer.catch(() => cache.delete(slot));
    cache.set(slot, { at: Date.now(), signer });
    return signer;
  };

  return {
    async get(accountId) {
      const own = accountId ? await signerOf(accountId) : undefined;
      if (own) return own;
      const service = await signerOf();
      if (service) return service;
      if (opts.fallback) return opts.fallback.get();
      throw new Error(
        'No seal certificate is installed for the KMS seal key: run `npm run admin -- seal-csr`, have a CA ' +
          'issue the certificate, then `npm run admin -- seal-install-cert --file chain.pem`.',
      );
    },
  };
}
