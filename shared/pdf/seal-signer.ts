// Who makes a seal's signature: something that holds the certificate chain and can sign, without
// the seal code ever seeing a private key. A PKCS #12 identity opened in memory is one (seal.ts);
// a KMS key whose key never leaves KMS is another (adapters/sealing/kms-seal-identity.ts).

/** The signature schemes a seal may use, named as KMS names them (the KMS adapter passes them on). */
export type TSealAlgorithm = 'RSASSA_PKCS1_V1_5_SHA_256' | 'ECDSA_SHA_256';

export interface TSealSigner {
  /** The seal certificate's common name, for the "sealed by" notes. */
  commonName: string;
  /** DER certificates: the seal's first, then its issuers (a verifier needs the intermediates). */
  chain: Buffer[];
  algorithm: TSealAlgorithm;
  /**
   * The signature over `data` (the DER of the CMS signed attributes), SHA-256 hashed by the
   * signer: PKCS #1 v1.5 bytes for RSA, a DER `ECDSA-Sig-Value` for ECDSA.
   */
  sign(data: Buffer): Promise<Buffer>;
}

export const isSealSigner = (x: object): x is TSealSigner => typeof (x as TSealSigner).sign === 'function';

/** The DER certificates of a PEM text, in the order they are written. */
export function certificatesOfPem(pem: string): Buffer[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  return blocks.map((b) =>
    Buffer.from(b.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, ''), 'base64'),
  );
}

/** PEM of DER certificates, one block each. */
export function pemOfCertificates(ders: Buffer[]): string {
  return ders
    .map((der) => {
      const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
      return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
    })
    .join('');
}
