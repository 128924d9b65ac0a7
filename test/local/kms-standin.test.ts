// The local KMS stand-in through the real @aws-sdk/client-kms: keys are made, their public halves
// read, digests and messages signed, and the signatures checked by node:crypto (a verifier we did
// not write); no answer ever carries the private key, and the key file is the owner's alone.
import { createHash, createPrivateKey, createPublicKey, verify } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  CreateAliasCommand,
  CreateKeyCommand,
  DecryptCommand,
  DescribeKeyCommand,
  GenerateDataKeyCommand,
  GetPublicKeyCommand,
  InvalidCiphertextException,
  KMSClient,
  KMSInvalidSignatureException,
  KMSInvalidStateException,
  NotFoundException,
  PutKeyPolicyCommand,
  ScheduleKeyDeletionCommand,
  SignCommand,
  VerifyCommand,
} from '@aws-sdk/client-kms';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKmsStandin, type TKmsStandin } from '#infra/local/kms-standin';
import { accountKeyPolicy, documentsKeyPolicy } from '#shared/adapters/kms/documents-keys';

let dir: string;
let standin: TKmsStandin;
let kms: KMSClient;
/** Every answer's body as the SDK received it, to look for key material. */
const answers: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'kms-standin-'));
  standin = await startKmsStandin({ file: path.join(dir, 'kms', 'keys.json') });
  kms = new KMSClient({
    region: 'us-east-1',
    endpoint: standin.endpoint,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  kms.middlewareStack.add(
    (next) => async (args) => {
      const out = await next(args);
      // Blobs as hex, so key bytes can be looked for in them.
      answers.push(
        JSON.stringify(out.output, (_, v) => (v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v)),
      );
      return out;
    },
    { step: 'initialize', name: 'recordAnswers' },
  );
});
afterAll(async () => {
  kms?.destroy();
  await standin?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest();

describe('KMS stand-in', () => {
  for (const [keySpec, algorithm] of [
    ['RSA_3072', 'RSASSA_PKCS1_V1_5_SHA_256'],
    ['ECC_NIST_P256', 'ECDSA_SHA_256'],
  ] as const) {
    it(`makes a ${keySpec} signing key whose signatures of digests and messages node:crypto verifies`, async () => {
      const made = await kms.send(new CreateKeyCommand({ KeySpec: keySpec, KeyUsage: 'SIGN_VERIFY' }));
      const keyId = made.KeyMetadata!.KeyId!;
      expect(made.KeyMetadata).toMatchObject({
        KeySpec: keySpec,
        KeyUsage: 'SIGN_VERIFY',
        KeyState: 'Enabled',
      });
      expect(made.KeyMetadata!.Arn).toBe(`arn:aws:kms:us-east-1:000000000000:key/${keyId}`);

      const pub = await kms.send(new GetPublicKeyCommand({ KeyId: keyId }));
      expect(pub).toMatchObject({
        KeySpec: keySpec,
        KeyUsage: 'SIGN_VERIFY',
        SigningAlgorithms: [algorithm],
      });
      const publicKey = createPublicKey({ key: Buffer.from(pub.PublicKey!), format: 'der', type: 'spki' });
      expect(publicKey.asymmetricKeyType).toBe(keySpec === 'RSA_3072' ? 'rsa' : 'ec');

      const message = Buffer.from('the signed attributes of a seal');
      const byDigest = await kms.send(
        new SignCommand({
          KeyId: keyId,
          Message: sha256(message),
          MessageType: 'DIGEST',
          SigningAlgorithm: algorithm,
        }),
      );
      expect(verify('sha256', message, publicKey, Buffer.from(byDigest.Signature!))).toBe(true);
      expect(verify('sha256', Buffer.from('another text'), publicKey, Buffer.from(byDigest.Signature!))).toBe(
        false,
      );
      const raw = await kms.send(
        new SignCommand({
          KeyId: made.KeyMetadata!.Arn!,
          Message: message,
          MessageType: 'RAW',
          SigningAlgorithm: algorithm,
        }),
      );
      expect(verify('sha256', message, publicKey, Buffer.from(raw.Signature!))).toBe(true);

      const verified = await kms.send(
        new VerifyCommand({
          KeyId: keyId,
          Message: sha256(message),
          MessageType: 'DIGEST',
          Signature: raw.Signature!,
          SigningAlgorithm: algorithm,
        }),
      );
      expect(verified.SignatureValid).toBe(true);
      await expect(
        kms.send(
          new VerifyCommand({
            KeyId: keyId,
            Message: sha256(Buffer.from('not this')),
            MessageType: 'DIGEST',
            Signature: raw.Signature!,
            SigningAlgorithm: algorithm,
          }),
        ),
      ).rejects.toBeInstanceOf(KMSInvalidSignatureException);
    });
  }

  it('finds keys by alias and answers KMS-shaped errors the SDK turns into its exceptions', async () => {
    const made = await kms.send(new CreateKeyCommand({ KeySpec: 'ECC_NIST_P256', KeyUsage: 'SIGN_VERIFY' }));
    await kms.send(
      new CreateAliasCommand({ AliasName: 'alias/test-seal', TargetKeyId: made.KeyMetadata!.KeyId! }),
    );
    const described = await kms.send(new DescribeKeyCommand({ KeyId: 'alias/test-seal' }));
    expect(described.KeyMetadata!.KeyId).toBe(made.KeyMetadata!.KeyId);

    const missing = await kms.send(new DescribeKeyCommand({ KeyId: 'alias/none' })).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(NotFoundException);
    expect((missing as Error).message).toMatch(/does not exist/);
    await expect(
      kms.send(
        new SignCommand({
          KeyId: 'alias/test-seal',
          Message: Buffer.alloc(31),
          MessageType: 'DIGEST',
          SigningAlgorithm: 'ECDSA_SHA_256',
        }),
      ),
    ).rejects.toMatchObject({ name: 'ValidationException' });
    await expect(
      kms.send(
        new SignCommand({
          KeyId: 'alias/test-seal',
          Message: Buffer.alloc(32),
          MessageType: 'DIGEST',
          SigningAlgorithm: 'RSASSA_PKCS1_V1_5_SHA_256',
        }),
      ),
    ).rejects.toMatchObject({ name: 'InvalidKeyUsageException' });
    await expect(kms.send(new CreateKeyCommand({ KeySpec: 'HMAC_256' }))).rejects.toMatchObject({
      name: 'UnsupportedOperationException',
    });
  });

  it('opens a data key only under the account context it was sealed with, and no more once deletion is scheduled', async () => {
    const made = await kms.send(new CreateKeyCommand({ Description: 'documents' }));
    const keyId = made.KeyMetadata!.Arn!;
    expect(made.KeyMetadata).toMatchObject({ KeyUsage: 'ENCRYPT_DECRYPT', KeySpec: 'SYMMETRIC_DEFAULT' });
    const sealed = await kms.send(
      new GenerateDataKeyCommand({ KeyId: keyId, KeySpec: 'AES_256', EncryptionContext: { accountId: 'A' } }),
    );
    expect(sealed.Plaintext).toHaveLength(32);
    const open = (accountId: string) =>
      kms.send(
        new DecryptCommand({ CiphertextBlob: sealed.CiphertextBlob, EncryptionContext: { accountId } }),
      );
    expect(Buffer.from((await open('A')).Plaintext!)).toEqual(Buffer.from(sealed.Plaintext!));
    // Another account's context, as a function reading A's object for B would give it.
    await expect(open('B')).rejects.toBeInstanceOf(InvalidCiphertextException);
    await expect(
      kms.send(new DecryptCommand({ CiphertextBlob: sealed.CiphertextBlob })),
    ).rejects.toBeInstanceOf(InvalidCiphertextException);

    const scheduled = await kms.send(
      new ScheduleKeyDeletionCommand({ KeyId: keyId, PendingWindowInDays: 7 }),
    );
    expect(scheduled.KeyState).toBe('PendingDeletion');
    expect(scheduled.DeletionDate!.getTime() - Date.now()).toBeGreaterThan(6 * 86_400_000);
    const refused = await open('A').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(KMSInvalidStateException);
    expect((refused as Error).message).toContain('pending deletion');
    expect((await kms.send(new DescribeKeyCommand({ KeyId: keyId }))).KeyMetadata).toMatchObject({
      KeyState: 'PendingDeletion',
      Enabled: false,
    });
  });

  it("refuses a data key the documents key's policy denies: no account in the context, or another account", async () => {
    const made = await kms.send(new CreateKeyCommand({ Description: 'documents' }));
    const keyId = made.KeyMetadata!.KeyId!;
    const dataKey = (context: Record<string, string>) =>
      kms.send(new GenerateDataKeyCommand({ KeyId: keyId, KeySpec: 'AES_256', EncryptionContext: context }));
    // Before a policy, any context goes; then the stack's policy, as the local runtime sets it.
    const bucketDefault = { 'aws:s3:arn': 'arn:aws:s3:::documents/final/B/lease.pdf' };
    expect((await dataKey(bucketDefault)).Plaintext).toHaveLength(32);
    const policy = documentsKeyPolicy('000000000000', 'us-east-1');
    await kms.send(new PutKeyPolicyCommand({ KeyId: keyId, PolicyName: 'default', Policy: policy }));
    const refused = await dataKey(bucketDefault).catch((e: unknown) => e);
    expect(refused).toMatchObject({ name: 'AccessDeniedException' });
    expect((refused as Error).message).toContain('OnlyWithAnAccountContext');
    expect((await dataKey({ accountId: 'A' })).Plaintext).toHaveLength(32);
    // An account's own key also refuses another account's context.
    const own = accountKeyPolicy('000000000000', 'us-east-1', 'A');
    await kms.send(new PutKeyPolicyCommand({ KeyId: keyId, PolicyName: 'default', Policy: own }));
    const sealed = await dataKey({ accountId: 'A' });
    await expect(dataKey({ accountId: 'B' })).rejects.toMatchObject({ name: 'AccessDeniedException' });
    const open = (accountId: string) =>
      kms.send(
        new DecryptCommand({ CiphertextBlob: sealed.CiphertextBlob, EncryptionContext: { accountId } }),
      );
    await expect(open('B')).rejects.toMatchObject({ name: 'AccessDeniedException' });
    expect(Buffer.from((await open('A')).Plaintext!)).toEqual(Buffer.from(sealed.Plaintext!));
  });

  it('keeps keys across a restart in a file only its owner reads, and never answers with key material', async () => {
    const file = path.join(dir, 'kms', 'keys.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(readFileSync(file, 'utf8')) as {
      keys: Record<string, { privateKey?: string }>;
    };
    const privateKeys = Object.values(stored.keys).flatMap((k) => (k.privateKey ? [k.privateKey] : []));
    expect(privateKeys.length).toBeGreaterThanOrEqual(3);

    const again = await startKmsStandin({ file });
    const client = new KMSClient({
      region: 'us-east-1',
      endpoint: again.endpoint,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    try {
      const pub = await client.send(new GetPublicKeyCommand({ KeyId: 'alias/test-seal' }));
      expect(pub.KeySpec).toBe('ECC_NIST_P256');
    } finally {
      client.destroy();
      await again.stop();
    }

    const everything = answers.join('\n');
    expect(answers.length).toBeGreaterThan(8);
    for (const pkcs8 of privateKeys) {
      const der = Buffer.from(pkcs8, 'base64');
      // The private exponent or scalar: the secret in either kind of key.
      const d = createPrivateKey({ key: der, format: 'der', type: 'pkcs8' }).export({ format: 'jwk' }).d!;
      expect(everything).not.toContain(der.toString('hex'));
      expect(everything).not.toContain(Buffer.from(d, 'base64url').toString('hex'));
    }
    expect(everything).not.toMatch(/privateKey|PRIVATE KEY/i);
  });

  it('listens on loopback only', () => {
    expect(standin.bound.address).toBe('127.0.0.1');
  });
});
