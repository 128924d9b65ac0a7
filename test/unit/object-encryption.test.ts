import type { S3Client } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { createBlobStore, documentKeysFor } from '#shared/adapters/s3/blob-store';
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

describe("the blob store's read", () => {
  const own = { keyArn: 'arn:aws:kms:eu-west-1:1:key/k', created: '2026-01-01T00:00:00.000Z' };
  const path = 'accounts/acc1/bundles/b1/originals/d1.pdf';
  /** A store over an S3 that answers `bytes`, whose account read waits until `answer` is called. */
  const storeOf = (bytes: string) => {
    const asked: string[] = [];
    let answer: (key: TAccountDocumentsKey) => void = () => undefined;
    const s3 = {
      send: async (command: { input: { Key: string } }) => {
        asked.push(command.input.Key);
        return { Body: { transformToByteArray: async () => new TextEncoder().encode(bytes) } };
      },
    } as unknown as S3Client;
    const store = createBlobStore(s3, 'docs', {
      accountKeyOf: () => new Promise<TAccountDocumentsKey>((resolve) => (answer = resolve)),
    });
    return { store, asked, answer: (key: TAccountDocumentsKey) => answer(key) };
  };

  it('asks S3 beside the account’s key check, and answers once the check passed', async () => {
    const { store, asked, answer } = storeOf('%PDF-1.7');
    const read = store.get(path);
    await new Promise((r) => setTimeout(r, 5));
    // The account has not answered yet; S3 is asked already.
    expect(asked).toEqual([path]);
    answer(own);
    expect((await read).toString()).toBe('%PDF-1.7');
  });

  it('answers 410 for a destroyed key even when S3 answered, dropping the bytes', async () => {
    const { store, asked, answer } = storeOf('%PDF-1.7');
    const read = store.get(path);
    answer({ ...own, destroyed: '2026-11-28T00:00:00.000Z' });
    await expect(read).rejects.toBeInstanceOf(DocumentsKeyDestroyedError);
    expect(asked).toEqual([path]);
  });
});
