import { DecryptCommand, EncryptCommand, type KMSClient } from '@aws-sdk/client-kms';
import type { TSecretSealer } from '../../ports';

const PREFIX = 'kms1:';

/**
 * Seals with KMS Encrypt under one symmetric key; the context is the KMS encryption context, so
 * Decrypt with any other context is refused by KMS. Sealed text is `kms1:` + base64 of the
 * ciphertext blob. Decrypt names the key too, so a blob of another key is refused.
 */
export function createKmsSealer(kms: KMSClient, keyId: string): TSecretSealer {
  return {
    async seal(plaintext, context) {
      const out = await kms.send(
        new EncryptCommand({
          KeyId: keyId,
          Plaintext: Buffer.from(plaintext, 'utf8'),
          EncryptionContext: context,
        }),
      );
      if (!out.CiphertextBlob) throw new Error('KMS Encrypt returned no ciphertext');
      return PREFIX + Buffer.from(out.CiphertextBlob).toString('base64');
    },

    async open(sealed, context) {
      if (!sealed.startsWith(PREFIX)) throw new Error('Not sealed by KMS');
      const out = await kms.send(
        new DecryptCommand({
          KeyId: keyId,
          CiphertextBlob: Buffer.from(sealed.slice(PREFIX.length), 'base64'),
          EncryptionContext: context,
        }),
      );
      if (!out.Plaintext) throw new Error('KMS Decrypt returned no plaintext');
      return Buffer.from(out.Plaintext).toString('utf8');
    },
  };
}
