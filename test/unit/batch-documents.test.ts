// A bulk send's document sharing on its own, over an in-memory blob store with the adapter's
// contract: each source is prepared once per batch, by the rows of one chunk and by later chunks.
import { describe, expect, it } from 'vitest';
import { batchDocuments } from '#shared/domain/bulk/batch-documents';
import type { TBulkBatch } from '#shared/domain/bulk/bulk-batch';
import type { TCheckedPdf } from '#shared/domain/bundles/document-sharing';
import { BlobNotFoundError, ValidationError } from '#shared/domain/errors';
import type { TBlobStore } from '#shared/domain/ports/files';

function memoryBlobs() {
  const objects = new Map<string, Buffer>();
  const blobs: TBlobStore = {
    async put(key, bytes) {
      objects.set(key, Buffer.from(bytes));
    },
    async get(key) {
      const found = objects.get(key);
      if (!found) throw new BlobNotFoundError(key);
      return found;
    },
    async presignGet(key) {
      return `memory://${key}`;
    },
  };
  return { blobs, objects };
}

const batch: TBulkBatch = {
  id: 'b1',
  accountId: 'acc1',
  userId: 'u1',
  created: '2026-01-01T00:00:00Z',
  total: 100,
  requestKey: 'accounts/acc1/bulk/b1/request.json',
};

const checked = (text: string): TCheckedPdf => ({
  bytes: Buffer.from(`%PDF-1.7 ${text}`),
  info: { sha256: 'x', pageCount: 1, pages: [{ width: 612, height: 792 }] },
  sentBytes: 42,
});

describe("a batch's documents", () => {
  it('are made once for the rows of a chunk, and once for the whole batch across chunks', async () => {
    const { blobs } = memoryBlobs();
    let made = 0;
    const make = async () => {
      made++;
      return checked('offer');
    };
    const chunk0 = batchDocuments(blobs, batch);
    const rows = await Promise.all(
      [1, 2, 3].map(() => chunk0.checked('url:letter:https://x/offer.pdf', make)),
    );
    expect(made).toBe(1);
    const chunk1 = batchDocuments(blobs, batch);
    const later = await chunk1.checked('url:letter:https://x/offer.pdf', make);
    expect(made).toBe(1);
    expect(later).toEqual(rows[0]);
  });

  it("are stored once under their content address, in the batch's own folder", async () => {
    const { blobs, objects } = memoryBlobs();
    const sharing = batchDocuments(blobs, batch);
    const bytes = Buffer.from('%PDF-1.7 stored');
    const keys = await Promise.all([1, 2, 3].map(() => sharing.stored(bytes, 'abc')));
    expect(new Set(keys)).toEqual(new Set(['accounts/acc1/bulk/b1/documents/sha256/abc.pdf']));
    expect([...objects.keys()]).toEqual(['accounts/acc1/bulk/b1/documents/sha256/abc.pdf']);
  });

  it("share a refusal among a chunk's rows, each getting it as its own error", async () => {
    const { blobs } = memoryBlobs();
    let made = 0;
    const refuse = async (): Promise<TCheckedPdf> => {
      made++;
      throw new ValidationError('Invalid input.', [
        { field: 'documents[0].file_url', message: 'Not found.' },
      ]);
    };
    const sharing = batchDocuments(blobs, batch);
    for (let i = 0; i < 3; i++) {
      await expect(sharing.checked('url:letter:https://x/gone.pdf', refuse)).rejects.toBeInstanceOf(
        ValidationError,
      );
    }
    expect(made).toBe(1);
  });

  it('keep different sources and different batches apart', async () => {
    const { blobs } = memoryBlobs();
    let made = 0;
    const make = (text: string) => async () => {
      made++;
      return checked(text);
    };
    await batchDocuments(blobs, batch).checked('b64:letter:aaa', make('a'));
    await batchDocuments(blobs, batch).checked('b64:letter:bbb', make('b'));
    await batchDocuments(blobs, { ...batch, id: 'b2' }).checked('b64:letter:aaa', make('a'));
    expect(made).toBe(3);
  });
});
