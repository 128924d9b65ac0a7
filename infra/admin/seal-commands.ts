// The operator's seal commands: a certificate request signed by the KMS seal key (seal-csr), the
// CA's answer checked and installed as the seal's chain (seal-install-cert), and what is
// installed (seal-show). For the service, or with an account id for that account's own seal
// (its key and chain named in seal-names.ts), which then seals that account's bundles.
import { createHash, X509Certificate } from 'node:crypto';
import type { KMSClient } from '@aws-sdk/client-kms';
import { kmsCsr, subjectDer } from '#shared/adapters/sealing/kms-csr';
import { kmsPublicKey } from '#shared/adapters/sealing/kms-seal-identity';
import { ensureSealKey, type TSealKeySpec } from '#shared/adapters/sealing/kms-seal-key';
import { checkSealChain } from '#shared/adapters/sealing/seal-chain-check';
import { sealKeyAlias, sealOwner } from '#shared/adapters/sealing/seal-names';
import { ConflictError, NotFoundError } from '#shared/domain/errors';
import type { TSealChainStore } from '#shared/domain/ports/evidence';
import { certificatesOfPem, pemOfCertificates } from '#shared/pdf/seal-signer';
import type { TLocalCa } from '../local/local-ca';

/** What the seal commands work on: KMS (or its stand-in) and where chains are kept. */
export interface TSealAdmin {
  kms: KMSClient;
  chains: TSealChainStore;
  /** The base of the seal's names, e.g. esign-prod-seal (the stack output SealName). */
  name: string;
}

export interface TCertificateView {
  subject: string;
  issuer: string;
  notBefore: string;
  notAfter: string;
  sha256: string;
}

export interface TSealView {
  owner: string;
  keyId: string;
  keyArn: string;
  keySpec: string;
  algorithm: string;
  certificate: TCertificateView;
  /** The seal certificate first, then its issuers. */
  chain: TCertificateView[];
}

const oneLine = (name: string) => name.replaceAll('\n', ', ');

function certificateView(der: Buffer): TCertificateView {
  const cert = new X509Certificate(der);
  return {
    subject: oneLine(cert.subject),
    issuer: oneLine(cert.issuer),
    notBefore: new Date(cert.validFrom).toISOString(),
    notAfter: new Date(cert.validTo).toISOString(),
    sha256: createHash('sha256').update(der).digest('hex'),
  };
}

/**
 * A PEM certificate request for `subject`, signed by the seal key of the service or the account;
 * an account's key is made (`keySpec`, default RSA_3072) on its first request.
 */
export async function sealCsrCommand(
  seal: TSealAdmin,
  input: { subject: string; accountId?: string; keySpec?: TSealKeySpec },
): Promise<{ keyId: string; keyArn: string; created: boolean; csr: string }> {
  subjectDer(input.subject); // a bad subject is refused before any key is made
  const keyId = sealKeyAlias(seal.name, input.accountId);
  const { keyArn, created } = await ensureSealKey(
    seal.kms,
    keyId,
    input.keySpec ?? 'RSA_3072',
    `Seal key of ${sealOwner(input.accountId)} (${seal.name})`,
    input.accountId ? { account: input.accountId } : {},
  );
  return { keyId, keyArn, created, csr: await kmsCsr(seal.kms, keyId, input.subject) };
}

/** Checks the chain against the KMS key (SealChainError otherwise), then stores it. */
export async function sealInstallCertCommand(
  seal: TSealAdmin,
  input: { pem: string; accountId?: string },
): Promise<TSealView> {
  const keyId = sealKeyAlias(seal.name, input.accountId);
  const key = await kmsPublicKey(seal.kms, keyId);
  const chain = checkSealChain(input.pem, key.spki, keyId);
  await seal.chains.put(pemOfCertificates(chain), input.accountId);
  return sealShowCommand(seal, input.accountId);
}

export async function sealShowCommand(seal: TSealAdmin, accountId?: string): Promise<TSealView> {
  const pem = await seal.chains.get(accountId);
  if (!pem) {
    throw new NotFoundError(
      `No seal certificate is installed for ${sealOwner(accountId)}: run seal-csr, have a CA issue the certificate, then seal-install-cert.`,
    );
  }
  const keyId = sealKeyAlias(seal.name, accountId);
  const key = await kmsPublicKey(seal.kms, keyId);
  const chain = certificatesOfPem(pem).map(certificateView);
  return {
    owner: sealOwner(accountId),
    keyId,
    keyArn: key.keyArn,
    keySpec: key.keySpec,
    algorithm: key.algorithm,
    certificate: chain[0]!,
    chain,
  };
}

/**
 * Revokes the installed seal certificate at the local CA that issued it (the local runtime's
 * only): the CA's revocations file, which its running OCSP responder and CRL read at once.
 */
export async function sealRevokeCommand(
  seal: TSealAdmin,
  ca: TLocalCa,
  accountId?: string,
): Promise<{ subject: string; serial: string; revokedAt: string }> {
  const pem = await seal.chains.get(accountId);
  const [leaf, issuer] = pem ? certificatesOfPem(pem) : [];
  if (!leaf) throw new NotFoundError(`No seal certificate is installed for ${sealOwner(accountId)}.`);
  if (!issuer?.equals(Buffer.from(ca.root.rawData))) {
    throw new ConflictError(
      'This seal certificate was not issued by the local CA: revoke it at the CA that issued it.',
    );
  }
  const certificate = new X509Certificate(leaf);
  const entry = ca.revoke(certificate.serialNumber);
  return { subject: oneLine(certificate.subject), serial: entry.serial, revokedAt: entry.at };
}
