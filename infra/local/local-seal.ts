// The local seal, made on first start as an operator makes one on AWS, with the local CA in the
// CA's part: a signing key is created in the KMS stand-in, a request signed by it (PKCS #10) goes
// to the local CA, and the certificate it issues is installed with the root as the chain. So the
// local seal is root → seal certificate, its key only inside the stand-in, and sealing runs the
// very KMS adapter the document worker runs on AWS.
import type { KMSClient } from '@aws-sdk/client-kms';
import { kmsCsr } from '../../shared/adapters/sealing/kms-csr';
import { ensureSealKey, type TSealKeySpec } from '../../shared/adapters/sealing/kms-seal-key';
import { sealKeyAlias } from '../../shared/adapters/sealing/seal-names';
import { certificatesOfPem, pemOfCertificates } from '../../shared/pdf/seal-signer';
import type { TSealChainStore } from '../../shared/ports';
import { sealExtensions, type TLocalCa } from './local-ca';

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
  if (await opts.chains.get(opts.accountId)) return;
  const alias = sealKeyAlias(opts.name, opts.accountId);
  await ensureSealKey(opts.kms, alias, opts.keySpec ?? 'RSA_3072', 'Local seal key (Open eSignature)');
  const csr = await kmsCsr(opts.kms, alias, opts.subject ?? LOCAL_SEAL_SUBJECT);
  const certificate = await opts.ca.issueFromCsr(csr, sealExtensions());
  const chain = [Buffer.from(certificate.rawData), ...certificatesOfPem(opts.ca.root.toString('pem'))];
  await opts.chains.put(pemOfCertificates(chain), opts.accountId);
}
