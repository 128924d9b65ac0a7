// The symmetric half of the local KMS stand-in: a key's secret seals data keys and small
// secrets with AES-256-GCM, the encryption context bound in as additional authenticated data,
// so a ciphertext opens only with the very context it was sealed under, as in KMS (where a wrong
// context is an InvalidCiphertextException too).
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** Marks a stand-in ciphertext blob; then the key id (a UUID, 36 characters), IV, tag, bytes. */
const MAGIC = Buffer.from('lkms1');
const ID_LENGTH = 36;

export const newSymmetricSecret = () => randomBytes(32).toString('base64');

/** The context as additional data: its pairs sorted, so the order a caller lists them in does not matter. */
function aad(context: unknown): Buffer {
  const pairs = Object.entries((context ?? {}) as Record<string, unknown>)
    .map(([k, v]) => [k, String(v)])
    .sort(([a], [b]) => (a! < b! ? -1 : 1));
  return Buffer.from(JSON.stringify(pairs));
}

export function sealWith(keyId: string, secret: string, plaintext: Buffer, context: unknown): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(secret, 'base64'), iv);
  cipher.setAAD(aad(context));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([MAGIC, Buffer.from(keyId.padEnd(ID_LENGTH)), iv, cipher.getAuthTag(), body]);
}

/** The key id a blob was sealed under, or undefined when it is no blob of this stand-in. */
export function keyIdOfBlob(blob: Buffer): string | undefined {
  if (blob.length < MAGIC.length + ID_LENGTH + 28 || !blob.subarray(0, MAGIC.length).equals(MAGIC))
    return undefined;
  return blob
    .subarray(MAGIC.length, MAGIC.length + ID_LENGTH)
    .toString()
    .trim();
}

/** The plaintext, or undefined when the blob, the key or the context do not match. */
export function openWith(secret: string, blob: Buffer, context: unknown): Buffer | undefined {
  const at = MAGIC.length + ID_LENGTH;
  try {
    const decipher = createDecipheriv(
      'aes-256-gcm',
      Buffer.from(secret, 'base64'),
      blob.subarray(at, at + 12),
    );
    decipher.setAAD(aad(context));
    decipher.setAuthTag(blob.subarray(at + 12, at + 28));
    return Buffer.concat([decipher.update(blob.subarray(at + 28)), decipher.final()]);
  } catch {
    return undefined;
  }
}
