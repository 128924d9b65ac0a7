import { describe, expect, it } from 'vitest';
import { documentKeysFor } from '#shared/adapters/s3/blob-store';
import { encryptionFor } from '#shared/adapters/s3/object-encryption';
import type { TAccountDocumentsKey } from '#shared/domain/accounts/account';
import { DocumentsKeyDestroyedError, DocumentsKeyDestroyingError } from '#shared/domain/errors';

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

describe('documentKeysFor', () => {
  const own = { keyArn: 'arn:aws:kms:eu-west-1:1:key/k', created: '2026-01-01T00:00:00.000Z' };
  const path = 'accounts/acc1/bundles/b1/originals/d1.pdf';
  /** The keys of an account whose record says `key`, noting how each read asked for it. */
  const keysOf = (key: TAccountDocumentsKey) => {
    const reads: boolean[] = [];
    const keysFor = documentKeysFor({
      accountKeyOf: async (_id, { consistent }) => {
        reads.push(consistent);
        return key;
      },
    });
    return { reads, keysFor };
  };

  it('reads the account consistently for a write, and refuses one while its key is being destroyed', async () => {
    const { reads, keysFor } = keysOf({
      ...own,
      destroying: { started: '2026-11-28T00:00:00.000Z', run: 'r' },
    });
    await expect(keysFor(path, 'write')).rejects.toBeInstanceOf(DocumentsKeyDestroyingError);
    // Reading what was written before the mark goes on until the key is destroyed.
    expect((await keysFor(path)).accountKeys).toEqual({ acc1: own.keyArn });
    expect(reads).toEqual([true, false]);
  });

  it('refuses reads and writes alike once the key is destroyed', async () => {
    const { keysFor } = keysOf({ ...own, destroyed: '2026-11-28T00:00:00.000Z' });
    await expect(keysFor(path, 'write')).rejects.toBeInstanceOf(DocumentsKeyDestroyedError);
    await expect(keysFor(path)).rejects.toBeInstanceOf(DocumentsKeyDestroyedError);
  });
});
