import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { TSecretCipher } from '#shared/domain/ports/webhooks';

const PREFIX = 'local1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;
export const LOCAL_SECRETS_KEY_BYTES = 32;

/** The context as GCM additional data: keys sorted, so the same context always gives the same bytes. */
export function contextBytes(context: Record<string, string>): Buffer {
  const sorted = Object.keys(context)
    .sort()
    .map((k) => [k, context[k]]);
  return Buffer.from(JSON.stringify(sorted), 'utf8');
}

/**
 * The local stand-in for KMS: AES-256-GCM with a key kept in the data folder. The ciphertext is
 * `local1:` + base64(iv ‖ tag ‖ ciphertext); the context is authenticated as additional data, so
 * a changed byte or another context makes open() throw.
 */
export function createLocalCipher(key: Buffer): TSecretCipher {
  if (key.length !== LOCAL_SECRETS_KEY_BYTES) {
    throw new Error(`The local secrets key must be ${LOCAL_SECRETS_KEY_BYTES} bytes`);
  }
  return {
    async encrypt(plaintext, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(contextBytes(context));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
    },

    async decrypt(ciphertext, context) {
      if (!ciphertext.startsWith(PREFIX)) throw new Error('Not encrypted by the local cipher');
      const raw = Buffer.from(ciphertext.slice(PREFIX.length), 'base64');
      if (raw.length < IV_BYTES + TAG_BYTES) throw new Error('The encrypted secret is truncated');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES), {
        authTagLength: TAG_BYTES,
      });
      decipher.setAAD(contextBytes(context));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
        'utf8',
      );
    },
  };
}
