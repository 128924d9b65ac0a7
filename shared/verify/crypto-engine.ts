// pkijs checks signatures through a WebCrypto engine; Node's own is set once here, before any
// module of the verifier parses or verifies, so no global default of the library is relied on.
import { webcrypto } from 'node:crypto';
import * as pkijs from 'pkijs';

pkijs.setEngine(
  'node',
  new pkijs.CryptoEngine({
    name: 'node',
    crypto: webcrypto as unknown as pkijs.CryptoEngineParameters['crypto'],
  }),
);

/** The engine's signature check: RSA PKCS #1 v1.5, RSA-PSS and ECDSA (DER signatures, as CMS has them). */
export async function verifyWithKey(
  data: Uint8Array,
  signature: pkijs.SignerInfo['signature'] | pkijs.Certificate['signatureValue'],
  publicKey: pkijs.PublicKeyInfo,
  algorithm: pkijs.AlgorithmIdentifier,
  hash?: string,
): Promise<boolean> {
  try {
    return await pkijs.getCrypto(true).verifyWithPublicKey(data, signature, publicKey, algorithm, hash);
  } catch {
    // An unknown algorithm or a malformed signature: it does not verify.
    return false;
  }
}
