// The local seal, made on first start as an operator makes one on AWS, with the local CA in the
// CA's part: a signing key is created in the KMS stand-in, a request signed by it (PKCS #10) goes
// to the local CA, and the certificate it issues is installed with the root as the chain. So the
// local seal is root → seal certificate, its key only inside the stand-in, and sealing runs the
// very KMS adapter the document worker runs on AWS.
// @peculiar/x509 resolves its parsers through tsyringe, which needs the Reflect metadata API.
import 'reflect-metadata';
import type { KMSClient } from '@aws-sdk/client-kms';
import { X509Certificate } from '@peculiar/x509';
import { kmsCsr } from '#shared/adapters/sealing/kms-csr';
import { ensureSealKey, type TSealKeySpec } from '#shared/adapters/sealing/kms-seal-key';
import { sealKeyAlias } from '#shared/adapters/sealing/seal-names';
import type { TSealChainStore } from '#shared/domain/ports/evidence';
import { certificatesOfPem, pemOfCertificates } from '#shared/pdf/seal-signer';
import { normalSerial, publishedAt, sealExtensions, type TLocalCa } from './local-ca';

/**
 * Whether the installed chain stays: one the operator installed from another CA always does; one
 * the local CA issued does while it names where the CA publishes now and is not revoked.
 */
function keepInstalled(chainPem: string, ca: TLocalCa): boolean {
  const [leaf, issuer] = certificatesOfPem(chainPem);
  if (!leaf) return false;
  // This CA's own root, byte for byte: another CA may bear the same name.
  const ours = issuer !== undefined && Buffer.from(issuer).equals(Buffer.from(ca.root.rawData));
  if (!ours) return true;
  const certificate = new X509Certificate(leaf);
  // Revoked (seal-revoke): a new certificate for the key, as an operator would get one.
  const revoked = ca.revocations().some((r) => r.serial === normalSerial(certificate.serialNumber));
  return !revoked && publishedAt(certificate, ca.pkiUrl);
}

export const LOCAL_SEAL_SUBJECT = 'CN=Open eSignature local seal, O=Local runtime';

/**
 * Installs a seal certificate from the local CA for the key of `name` (made if missing) unless a
 * chain is installed already. `keySpec`: RSA_3072, the stack's, so the local seal rehearses AWS's.
 */
export async function ensureLocalSeal(opts: {
  kms: KMSClient;
  ca: TLocalCa;
  chains: TSealChainStore;
  name: string;
  accountId?: string;
  subject?: string;
  keySpec?: TSealKeySpec;
}): Promise<void> {
  const installed = await opts.chains.get(opts.accountId);
  // A chain the local CA issued before it named where its status is (or while it published
  // elsewhere) is issued again for the same key; any other installed chain stays.
  if (installed && keepInstalled(installed, opts.ca)) return;
  const alias = sealKeyAlias(opts.name, opts.accountId);
  await ensureSealKey(opts.kms, alias, opts.keySpec ?? 'RSA_3072', 'Local seal key (Open eSignature)');
  const csr = await kmsCsr(opts.kms, alias, opts.subject ?? LOCAL_SEAL_SUBJECT);
  // The seal names the CA's OCSP responder (and CRL): its status goes into each file's DSS.
  const certificate = await opts.ca.issueFromCsr(csr, [
    ...sealExtensions(),
    ...opts.ca.revocationExtensions({ ocsp: true }),
  ]);
  const chain = [Buffer.from(certificate.rawData), ...certificatesOfPem(opts.ca.root.toString('pem'))];
  await opts.chains.put(pemOfCertificates(chain), opts.accountId);
}
