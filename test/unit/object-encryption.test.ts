import { describe, expect, it } from 'vitest';
import { encryptionFor } from '#shared/adapters/s3/object-encryption';

const context = (b64: string) => JSON.parse(Buffer.from(b64, 'base64').toString('utf8'));

describe('encryptionFor', () => {
  const keys = {
    defaultKeyId: 'alias/esign-dev-documents',
    accountKeys: { acc2: 'alias/esign-dev-account-acc2' },
  };

  it('seals an account document under the stack key with the account as context, bucket keys off', () => {
    const sse = encryptionFor('accounts/acc1/bundles/b1/originals/d1.pdf', keys)!;
    expect(sse).toMatchObject({
      ServerSideEncryption: 'aws:kms',
      SSEKMSKeyId: 'alias/esign-dev-documents',
      BucketKeyEnabled: false,
    });
    expect(context(sse.SSEKMSEncryptionContext)).toEqual({ accountId: 'acc1' });
  });

  it("uses an account's own key where the operator gave it one", () => {
    const sse = encryptionFor('accounts/acc2/templates/t1/original.pdf', keys)!;
    expect(sse.SSEKMSKeyId).toBe('alias/esign-dev-account-acc2');
    expect(context(sse.SSEKMSEncryptionContext)).toEqual({ accountId: 'acc2' });
  });

  it('leaves objects outside an account, or a stack without a key, to the bucket default', () => {
    expect(encryptionFor('exports/x.zip', keys)).toBeUndefined();
    expect(encryptionFor('accounts//x', keys)).toBeUndefined();
    expect(encryptionFor('accounts/acc1/x.pdf', {})).toBeUndefined();
  });
});
