// An account export is a gzipped POSIX tar, which `tar -tzf`, Python's tarfile and every archive
// tool open. tar-stream writes and reads the format; gzip is Node's zlib. Reading keeps to
// budgets, as every untrusted file is read here: the archive is the operator's file, but it may
// have come from anywhere.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, gzipSync } from 'node:zlib';
import { extract, pack } from 'tar-stream';

export interface TTarEntry {
  path: string;
  bytes: Uint8Array;
}

/** What a reader accepts. */
export interface TTarBudget {
  /** Bytes after gunzip, all files together. */
  maxBytes: number;
  maxEntries: number;
}

export class TarFormatError extends Error {
  override name = 'TarFormatError';
}

/** The entries as one .tar.gz, in the order given; `mtime` is each file's time (seconds). */
export async function packTarGz(entries: Iterable<TTarEntry>, mtime: number): Promise<Buffer> {
  const tar = pack();
  const chunks: Buffer[] = [];
  tar.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((done, fail) => {
    tar.on('end', done);
    tar.on('error', fail);
  });
  for (const e of entries) {
    await new Promise<void>((done, fail) =>
      tar.entry(
        { name: e.path, size: e.bytes.length, mtime: new Date(mtime * 1000), mode: 0o644 },
        Buffer.from(e.bytes),
        (err) => (err ? fail(err) : done()),
      ),
    );
  }
  tar.finalize();
  await ended;
  return gzipSync(Buffer.concat(chunks));
}

/** The regular files of a .tar.gz, within the budget; anything else in the archive is refused. */
export async function unpackTarGz(gz: Uint8Array, budget: TTarBudget): Promise<TTarEntry[]> {
  const entries: TTarEntry[] = [];
  let total = 0;
  const reader = extract();
  reader.on('entry', (header, stream, next) => {
    const path = header.name;
    // A refusal destroys the reader, which destroys this entry's stream with the same error; the
    // pipeline below reports it once, so the entry's copy is not left unhandled.
    stream.on('error', () => {});
    const refuse = (message: string) => {
      stream.resume();
      reader.destroy(new TarFormatError(message));
    };
    if (header.type !== 'file') return refuse(`The archive holds ${path}, which is not a file.`);
    if (path.startsWith('/') || path.split('/').includes('..'))
      return refuse(`The archive holds a path outside it: ${path}.`);
    if (entries.length >= budget.maxEntries) return refuse('The archive holds too many files.');
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > budget.maxBytes) return refuse('The archive is larger than an import reads.');
      chunks.push(chunk);
    });
    stream.on('end', () => {
      entries.push({ path, bytes: Buffer.concat(chunks) });
      next();
    });
  });
  try {
    // The gunzip's own cap stops a small archive that would inflate far past the budget.
    await pipeline(
      Readable.from([Buffer.from(gz)]),
      createGunzip({ maxOutputLength: budget.maxBytes + 4096 }),
      reader,
    );
  } catch (err) {
    if (err instanceof TarFormatError) throw err;
    throw new TarFormatError(`The archive is not a gzipped tar within limits: ${(err as Error).message}`);
  }
  return entries;
}
