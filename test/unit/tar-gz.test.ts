import { gzipSync } from 'node:zlib';
import { pack } from 'tar-stream';
import { describe, expect, it } from 'vitest';
import { packTarGz, TarFormatError, unpackTarGz } from '#shared/adapters/archive/tar-gz';

const BUDGET = { maxBytes: 1_000_000, maxEntries: 10 };
const file = (path: string, text: string) => ({ path, bytes: Buffer.from(text) });

/** A .tar.gz made directly with tar-stream, for entries our writer never makes. */
async function rawTarGz(add: (tar: ReturnType<typeof pack>) => void): Promise<Buffer> {
  const tar = pack();
  const chunks: Buffer[] = [];
  tar.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise((done) => tar.on('end', done));
  add(tar);
  tar.finalize();
  await ended;
  return gzipSync(Buffer.concat(chunks));
}

describe('export archives', () => {
  it('read back what was written, long paths included', async () => {
    const long = `accounts/${'a'.repeat(60)}/bundles/${'b'.repeat(60)}/final/${'c'.repeat(40)}.pdf`;
    const entries = [file('manifest.json', '{"files":[]}\n'), file(long, '%PDF-1.7 …'), file('empty', '')];
    const read = await unpackTarGz(await packTarGz(entries, 1_790_000_000), BUDGET);
    expect(read.map((e) => [e.path, Buffer.from(e.bytes).toString()])).toEqual(
      entries.map((e) => [e.path, e.bytes.toString()]),
    );
  });

  it('refuse a path outside the archive, a link, and more than the budget', async () => {
    const refused = (gz: Buffer, budget = BUDGET) =>
      expect(unpackTarGz(gz, budget)).rejects.toThrow(TarFormatError);
    await refused(await packTarGz([file('../etc/passwd', 'x')], 0));
    await refused(await rawTarGz((t) => t.entry({ name: 'link', type: 'symlink', linkname: '/etc/passwd' })));
    await refused(await packTarGz([file('a', 'x'.repeat(2000))], 0), { maxBytes: 1000, maxEntries: 10 });
    await refused(await packTarGz([file('a', '1'), file('b', '2')], 0), { maxBytes: 1000, maxEntries: 1 });
    await refused(Buffer.from('not an archive'));
  });
});
