// The bytes an opening answers with its first document: a read started early from what the
// instance saw of the bundle (documentsSeen) is answered only when it is of the file the
// opening's own read names; a hint gone stale must never answer another file's bytes.
import { describe, expect, it } from 'vitest';
import type { TDocument } from '#shared/domain/bundles/bundle';
import { documentBytes } from '#shared/domain/signing/open-session';

const doc = (blobKey: string, size = 100) => ({ key: 'doc', blobKey, size }) as TDocument;

/** A blob store that answers each key's name as its bytes, noting what it was asked. */
function blobs() {
  const asked: string[] = [];
  return {
    asked,
    get: async (key: string) => {
      asked.push(key);
      return Buffer.from(key);
    },
  };
}

describe('an opening’s first document', () => {
  it('is answered from the early read when the documents name the same file', async () => {
    const store = blobs();
    const early = { blobKey: 'a.pdf', bytes: Promise.resolve(Buffer.from('early')) };
    const bytes = await documentBytes({ blobs: store } as never, [doc('a.pdf')], 'doc', early);
    expect(bytes?.toString()).toBe('early');
    expect(store.asked).toEqual([]);
  });

  it('is read anew when the early read was of another file', async () => {
    const store = blobs();
    const early = { blobKey: 'old.pdf', bytes: Promise.resolve(Buffer.from('early')) };
    const bytes = await documentBytes({ blobs: store } as never, [doc('new.pdf')], 'doc', early);
    expect(bytes?.toString()).toBe('new.pdf');
    expect(store.asked).toEqual(['new.pdf']);
  });

  it('is not answered when it is too large to come with the session', async () => {
    const store = blobs();
    const early = { blobKey: 'a.pdf', bytes: Promise.resolve(Buffer.from('early')) };
    const large = [doc('a.pdf', 2 * 1024 * 1024)];
    expect(await documentBytes({ blobs: store } as never, large, 'doc', early)).toBeUndefined();
    expect(store.asked).toEqual([]);
  });
});
