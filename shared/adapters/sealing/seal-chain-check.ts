// What makes a certificate chain fit to seal with a key: the first certificate is for that key,
// each is signed by the next, and the seal certificate is valid now. Checked by the operator's
// seal-install-cert before storing a chain, and the key part again by the KMS seal identity
// before its first seal, so a wrong certificate fails loudly instead of making unverifiable seals.
import { X509Certificate } from 'node:crypto';
import { certificatesOfPem } from '#shared/pdf/seal-signer';

export class SealChainError extends Error {
  override name = 'SealChainError';
}

const spkiOf = (cert: X509Certificate) => cert.publicKey.export({ type: 'spki', format: 'der' });

/** The chain's certificates (DER) when it fits the key of `publicKeySpki` (DER); else SealChainError. */
export function checkSealChain(
  pem: string,
  publicKeySpki: Buffer,
  keyId: string,
  now = new Date(),
): Buffer[] {
  const ders = certificatesOfPem(pem);
  if (ders.length === 0) {
    throw new SealChainError(
      'No PEM certificate found: give the seal certificate first, then its issuers (-----BEGIN CERTIFICATE----- blocks).',
    );
  }
  let certs: X509Certificate[];
  try {
    certs = ders.map((d) => new X509Certificate(d));
  } catch (err) {
    throw new SealChainError(`A certificate in the chain does not parse: ${(err as Error).message}`);
  }
  const leaf = certs[0]!;
  if (!spkiOf(leaf).equals(publicKeySpki)) {
    throw new SealChainError(
      `The first certificate (${leaf.subject.replaceAll('\n', ', ')}) is not for the seal key ${keyId}: its public key differs. ` +
        'Install the certificate the CA issued for the request seal-csr printed for this key.',
    );
  }
  for (let i = 0; i + 1 < certs.length; i++) {
    const [child, parent] = [certs[i]!, certs[i + 1]!];
    if (!child.checkIssued(parent) || !child.verify(parent.publicKey)) {
      throw new SealChainError(
        `Certificate ${i + 1} (${child.subject.replaceAll('\n', ', ')}) is not signed by certificate ${i + 2} ` +
          `(${parent.subject.replaceAll('\n', ', ')}): put the seal certificate first, then each issuer in turn.`,
      );
    }
  }
  if (now < new Date(leaf.validFrom) || now > new Date(leaf.validTo)) {
    throw new SealChainError(
      `The seal certificate is valid from ${leaf.validFrom} to ${leaf.validTo}, not now: have the CA issue a current one.`,
    );
  }
  return ders;
}
