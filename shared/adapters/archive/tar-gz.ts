// An account export is a gzipped POSIX tar, which `tar -tzf`, Python's tarfile and every archive
// tool open. tar-stream writes and reads the format; gzip is Node's zlib. Both directions are
// streams with backpressure, so an archive of any size passes through a few buffers of tens of
// kilobytes. Reading keeps to budgets, as every untrusted file is read here: the archive is the
// operator's file, but it may have come from anywhere.
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { extract, pack } from 'tar-stream';

/** Bytes as they come (a stream), or already at hand. */
export type TBytes = AsyncIterable<Uint8Array> | Iterable<Uint8Array>;

export interface TTarEntry<B extends TBytes = AsyncIterable<Uint8Array>> {
  path: string;
  size: number;
  body: B;
}

/** What a reader accepts. */
export interface TTarBudget {
  /** Bytes after gunzip, all files together. */
  maxBytes: number;
  /** Bytes of one file. */
  maxEntryBytes: number;
  maxEntries: number;
}

export class TarFormatError extends Error {
  override name = 'TarFormatError';
}

type TSink = ReturnType<ReturnType<typeof pack>['entry']>;

/** Waits until the entry takes more bytes, or is closed (the archive's reader gave up). */
const drained = (sink: TSink) =>
  new Promise<void>((done) => {
    const go = () => {
      sink.off('drain', go);
      sink.off('close', go);
      done();
    };
    sink.on('drain', go);
    sink.on('close', go);
  });

/** One entry's header, then its body as it is read; tar-stream refuses a body of another size. */
function writeEntry(tar: ReturnType<typeof pack>, e: TTarEntry<TBytes>, mtime: number): Promise<void> {
  return new Promise<void>((done, fail) => {
    const sink = tar.entry(
      { name: e.path, size: e.size, mtime: new Date(mtime * 1000), mode: 0o644 },
      (err) => (err ? fail(err) : done()),
    );
    // Its error (a body of another size) also comes to the callback above, which reports it.
    sink.on('error', () => {});
    let closed = false;
    sink.on('close', () => {
      closed = true;
    });
    (async () => {
      for await (const chunk of e.body) {
        if (closed) throw new Error('The archive was closed while it was written.');
        if (!sink.write(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)) && !closed)
          await drained(sink);
      }
      sink.end();
    })().catch((err: Error) => {
      sink.destroy(err);
      fail(err);
    });
  });
}

/**
 * The entries as one .tar.gz, made as it is read: each entry's body is read in turn, when the
 * reader of the archive wants more. An entry's failure fails the archive's stream; a reader that
 * stops early closes the entry being read. `mtime` is each file's time (seconds).
 */
export function packTarGz(
  entries: AsyncIterable<TTarEntry<TBytes>> | Iterable<TTarEntry<TBytes>>,
  mtime: number,
): Readable {
  const tar = pack();
  const gz = createGzip();
  // An error on either side destroys both; the archive's reader sees it on `gz`.
  pipeline(tar, gz).catch(() => {});
  (async () => {
    for await (const e of entries) await writeEntry(tar, e, mtime);
    tar.finalize();
  })().catch((err: Error) => tar.destroy(err));
  return gz;
}

/**
 * Reads a .tar.gz within the budget, handing each regular file to `visit` in turn; anything else
 * in the archive is refused (TarFormatError). What `visit` throws comes out unchanged.
 */
export async function readTarGz(
  source: TBytes,
  budget: TTarBudget,
  visit: (entry: TTarEntry) => Promise<void>,
): Promise<void> {
  let entries = 0;
  let total = 0;
  let visitError: unknown;
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
    const size = header.size ?? 0;
    if (header.type !== 'file') return refuse(`The archive holds ${path}, which is not a file.`);
    if (path.startsWith('/') || path.split('/').includes('..'))
      return refuse(`The archive holds a path outside it: ${path}.`);
    if (++entries > budget.maxEntries) return refuse('The archive holds too many files.');
    if (size > budget.maxEntryBytes) return refuse(`${path} is larger than an import reads.`);
    total += size;
    if (total > budget.maxBytes) return refuse('The archive is larger than an import reads.');
    let ended = false;
    stream.on('end', () => {
      ended = true;
    });
    visit({ path, size, body: stream }).then(
      () => {
        // What the visitor left unread is passed over.
        if (ended) return next();
        stream.on('end', () => next());
        stream.resume();
      },
      (err: unknown) => {
        visitError = err;
        stream.resume();
        reader.destroy(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
  // Headers and padding count too (a few KiB an entry, ahead of the parser by a chunk): a stream
  // of empty entries cannot inflate past the budget.
  let inflated = 0;
  const cap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      inflated += chunk.length;
      if (inflated > budget.maxBytes + 4096 * (entries + 64))
        return done(new TarFormatError('The archive is larger than an import reads.'));
      done(null, chunk);
    },
  });
  try {
    await pipeline(Readable.from(source), createGunzip(), cap, reader);
  } catch (err) {
    if (visitError !== undefined) throw visitError;
    if (err instanceof TarFormatError) throw err;
    throw new TarFormatError(`The archive is not a gzipped tar within limits: ${(err as Error).message}`);
  }
}
