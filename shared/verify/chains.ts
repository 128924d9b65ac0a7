// A certificate's chain, built from every certificate the file carries (CMS sets, timestamp
// tokens, the DSS): each link is the certificate whose subject is the issuer's name and whose key
// verifies the signature, up to a self-signed root. Whether that root is trusted is for the
// person verifying to say (--trust): the file cannot vouch for its own root.
import type { TCert } from './certificates';

export interface TChain {
  certificates: TCert[];
  /** Ends at a self-signed certificate. */
  complete: boolean;
  /** Every link's signature holds (a root's own included). */
  signaturesValid: boolean;
}

/** Certificate chains are a handful of links; more is a loop or a hostile file. */
const MAX_LENGTH = 10;

const verifiesWith = (cert: TCert, issuer: TCert) => {
  try {
    return cert.x509.verify(issuer.x509.publicKey);
  } catch {
    return false;
  }
};

export const isSelfIssued = (cert: TCert) => cert.x509.subject === cert.x509.issuer;

export function buildChain(leaf: TCert, pool: TCert[]): TChain {
  const certificates = [leaf];
  for (let cert = leaf; certificates.length <= MAX_LENGTH; ) {
    if (isSelfIssued(cert)) {
      return { certificates, complete: true, signaturesValid: verifiesWith(cert, cert) };
    }
    const named = pool.filter((c) => c.x509.subject === cert.x509.issuer && !certificates.includes(c));
    const issuer = named.find((c) => verifiesWith(cert, c));
    if (!issuer) return { certificates, complete: false, signaturesValid: named.length === 0 };
    certificates.push(issuer);
    cert = issuer;
  }
  return { certificates, complete: false, signaturesValid: true };
}

/** The chain is anchored by a certificate of the trust list (given as SHA-256 fingerprints). */
export const isTrusted = (chain: TChain, trusted: string[]) =>
  chain.certificates.some((c) => trusted.includes(c.sha256));

/** The issuer of `cert` in `chain`, or undefined for its root or a broken chain. */
export function issuerIn(chain: TChain, cert: TCert): TCert | undefined {
  const at = chain.certificates.indexOf(cert);
  return at >= 0 && !isSelfIssued(cert) ? chain.certificates[at + 1] : undefined;
}
