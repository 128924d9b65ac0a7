import { gzipSync } from 'node:zlib';
import { pack } from 'tar-stream';
import { describe, expect, it } from 'vitest';
import { packTarGz, readTarGz, TarFormatError, type TTarBudget } from '#shared/adapters/archive/tar-gz';

const BUDGET: TTarBudget = { maxBytes: 1_000_000, maxEntryBytes: 100_000, maxEntries: 10 };

async function* chunks(bytes: Buffer, size = 7) {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}
const file = (path: string, text: string) => {
  const bytes = Buffer.from(text);
  return { path, size: bytes.length, body: chunks(bytes) };
};

async function bytesOf(stream: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const out: Uint8Array[] = [];
  for await (const c of stream) out.push(c);
  return Buffer.concat(out);
}

/** Every entry's path and text, each body read as the reader hands it over. */
async function readAll(gz: Buffer, budget = BUDGET) {
  const read: [string, string][] = [];
  await readTarGz(chunks(gz, 100), budget, async (e) => {
    read.push([e.path, (await bytesOf(e.body)).toString()]);
  });
  return read;
}

/** A .tar.gz made directly with tar-stream, for entries our writer never makes. */
async function rawTarGz(add: (tar: ReturnType<typeof pack>) => void): Promise<Buffer> {
  const tar = pack();
  const parts: Buffer[] = [];
  tar.on('data', (c: Buffer) => parts.push(c));
  const ended = new Promise((done) => tar.on('end', done));
  add(tar);
  tar.finalize();
  await ended;
  return gzipSync(Buffer.concat(parts));
}

describe('export archives', () => {
  it('read back what was written as streams, long paths included; an unread file is passed over', async () => {
    const long = `accounts/${'a'.repeat(60)}/bundles/${'b'.repeat(60)}/final/${'c'.repeat(40)}.pdf`;
    const texts: [string, string][] = [
      ['records.jsonl', '{"pk":"A"}\n'],
      [long, '%PDF-1.7 …'],
      ['empty', ''],
      ['manifest.json', '{"files":[]}\n'],
    ];
    const gz = await bytesOf(
      packTarGz(
        texts.map(([p, t]) => file(p, t)),
        1_790_000_000,
      ),
    );
    expect(await readAll(gz)).toEqual(texts);
    const seen: string[] = [];
    await readTarGz(chunks(gz), BUDGET, async (e) => {
      seen.push(e.path);
      if (e.path !== long) await bytesOf(e.body);
    });
    expect(seen).toEqual(texts.map(([p]) => p));
  });

  it('fail the archive when a file gives other bytes than its size, and pass a reader’s error on', async () => {
    const short = { path: 'a', size: 10, body: chunks(Buffer.from('abc')) };
    await expect(bytesOf(packTarGz([short], 0))).rejects.toThrow(/size mismatch/i);
    const gz = await bytesOf(packTarGz([file('a', 'x'), file('b', 'y')], 0));
    const mine = new RangeError('the visitor refused');
    await expect(readTarGz(chunks(gz), BUDGET, async () => Promise.reject(mine))).rejects.toBe(mine);
  });

  it('refuse a path outside the archive, a link, and more than the budget', async () => {
    const refused = async (gz: Buffer, budget = BUDGET) =>
      expect(readAll(gz, budget)).rejects.toThrow(TarFormatError);
    const packed = async (entries: ReturnType<typeof file>[]) => bytesOf(packTarGz(entries, 0));
    await refused(await packed([file('../etc/passwd', 'x')]));
    await refused(await rawTarGz((t) => t.entry({ name: 'link', type: 'symlink', linkname: '/etc/passwd' })));
    const big = await packed([file('a', 'x'.repeat(2000))]);
    await refused(big, { ...BUDGET, maxBytes: 1000 });
    await refused(big, { ...BUDGET, maxEntryBytes: 1000 });
    await refused(await packed([file('a', '1'), file('b', '2')]), { ...BUDGET, maxEntries: 1 });
    await refused(Buffer.from('not an archive'));
  });
});
