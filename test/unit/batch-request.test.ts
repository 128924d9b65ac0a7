// A bulk send's kept request on its own, over an in-memory blob store: each inline document kept
// once apart (a PDF where the bundles will share it, an image beside the batch), the request
// naming it, and the request read back exactly as it was sent.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { keepBulkRequest, readBulkRequest } from '#shared/domain/bulk/batch-request';
import type { TBulkBatch } from '#shared/domain/bulk/bulk-batch';
import { sharedDocumentKey } from '#shared/domain/bundles/document-sharing';
import { BlobNotFoundError } from '#shared/domain/errors';
import type { TBlobStore } from '#shared/domain/ports/files';
import type { TBulkRequest } from '#shared/schemas/bulk';

function memoryBlobs() {
  const objects = new Map<string, Buffer>();
  const puts: string[] = [];
  const blobs: TBlobStore = {
    async put(key, bytes) {
      puts.push(key);
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
  return { blobs, objects, puts };
}

const batch: TBulkBatch = {
  id: 'b1',
  accountId: 'acc1',
  userId: 'u1',
  created: '2026-01-01T00:00:00Z',
  total: 2,
  requestKey: 'accounts/acc1/bulk/b1/request.json',
};
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const pdf = Buffer.from('%PDF-1.7 a document');
const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);

const request = (documents: unknown[]): TBulkRequest => ({
  bundle: { label: 'Offer', packets: [{ key: 'emp' }], documents },
  rows: [{ signers: { emp: { name: 'A', email: 'a@example.com' } } }, {}],
});

describe('a bulk send’s kept request', () => {
  it('keeps each inline file once, apart, and gives the request back as sent', async () => {
    const { blobs, objects, puts } = memoryBlobs();
    const sent = request([
      { key: 'a', file_b64: pdf.toString('base64') },
      { key: 'b', file_b64: pdf.toString('base64') },
      { key: 'c', file_b64: `data:image/png;base64,${png.toString('base64')}` },
      { key: 'd', file_url: 'https://example.com/x.pdf' },
    ]);
    await keepBulkRequest(blobs, batch, sent);
    const kept = objects.get(batch.requestKey)!.toString('utf8');
    expect(kept).not.toContain(pdf.toString('base64'));
    expect(kept).not.toContain(png.toString('base64'));
    const pdfKey = sharedDocumentKey('acc1', batch.id, sha(pdf));
    const pngKey = `accounts/acc1/bulk/b1/files/${sha(png)}`;
    // The same PDF twice: one object.
    expect(puts.filter((k) => k !== batch.requestKey).sort()).toEqual([pdfKey, pngKey].sort());
    const { request: read, sharedStored } = await readBulkRequest(blobs, batch);
    // Back as base64 (a data: URL's prefix dropped: the same bytes), nothing else changed.
    expect(read).toEqual(
      request([
        { key: 'a', file_b64: pdf.toString('base64') },
        { key: 'b', file_b64: pdf.toString('base64') },
        { key: 'c', file_b64: png.toString('base64') },
        { key: 'd', file_url: 'https://example.com/x.pdf' },
      ]),
    );
    // The PDF is already the bundles' shared document: not to be stored again.
    expect(sharedStored).toEqual([sha(pdf)]);
  });

  it('leaves inline what is not plain base64, for the row’s create to refuse', async () => {
    const { blobs, objects } = memoryBlobs();
    const sent = request([
      { key: 'a', file_b64: 'not base64!' },
      { key: 'b', file_b64: '' },
    ]);
    await keepBulkRequest(blobs, batch, sent);
    expect([...objects.keys()]).toEqual([batch.requestKey]);
    expect(await readBulkRequest(blobs, batch)).toEqual({ request: sent, sharedStored: [] });
  });

  it('reads a request kept before files were kept apart as it is', async () => {
    const { blobs } = memoryBlobs();
    const sent = request([{ key: 'a', file_b64: pdf.toString('base64') }]);
    await blobs.put(batch.requestKey, Buffer.from(JSON.stringify(sent)), 'application/json');
    expect(await readBulkRequest(blobs, batch)).toEqual({ request: sent, sharedStored: [] });
  });
});
