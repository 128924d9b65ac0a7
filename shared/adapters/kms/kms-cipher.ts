import { DecryptCommand, EncryptCommand, type KMSClient } from '@aws-sdk/client-kms';
import type { TSecretCipher } from '#shared/domain/ports/webhooks';

const PREFIX = 'kms1:';

/**
 * Encrypts with KMS Encrypt under one symmetric key; the context is the KMS encryption context, so
 * Decrypt with any other context is refused by KMS. The ciphertext is `kms1:` + base64 of the
 * ciphertext blob. Decrypt names the key too, so a blob of another key is refused.
 */
export function createKmsCipher(kms: KMSClient, keyId: string): TSecretCipher {
  return {
    async encrypt(plaintext, context) {
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

    async decrypt(ciphertext, context) {
      if (!ciphertext.startsWith(PREFIX)) throw new Error('Not encrypted by KMS');
      const out = await kms.send(
        new DecryptCommand({
          KeyId: keyId,
          CiphertextBlob: Buffer.from(ciphertext.slice(PREFIX.length), 'base64'),
          EncryptionContext: context,
        }),
      );
      if (!out.Plaintext) throw new Error('KMS Decrypt returned no plaintext');
      return Buffer.from(out.Plaintext).toString('utf8');
    },
  };
}
