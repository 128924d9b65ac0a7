// A gzipped POSIX tar (ustar), written and read here because no archive library is among the
// dependencies: an account export is a .tar.gz that `tar -tzf`, Python's tarfile and every
// unzip tool open. The format is fixed-size 512-byte headers before each file's bytes, so the
// code is short; the reader keeps to budgets, as every untrusted file is read here.
import { gunzipSync, gzipSync } from 'node:zlib';

const BLOCK = 512;

export interface TTarEntry {
  path: string;
  bytes: Uint8Array;
}

/** What a reader accepts: the archive is the operator's file, still read within limits. */
export interface TTarBudget {
  /** Bytes after gunzip, all files together. */
  maxBytes: number;
  maxEntries: number;
}

export class TarFormatError extends Error {
  override name = 'TarFormatError';
}

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

/** ustar keeps a path of up to 255 bytes as a prefix (155) and a name (100), cut at a slash. */
function splitPath(path: string): { name: string; prefix: string } {
  if (Buffer.byteLength(path) <= 100) return { name: path, prefix: '' };
  for (let cut = path.indexOf('/'); cut !== -1; cut = path.indexOf('/', cut + 1)) {
    const prefix = path.slice(0, cut);
    const name = path.slice(cut + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(name) <= 100) return { name, prefix };
  }
  throw new TarFormatError(`The path ${path} is too long for a tar header.`);
}

function header(path: string, size: number, mtime: number): Buffer {
  const h = Buffer.alloc(BLOCK, 0);
  const { name, prefix } = splitPath(path);
  h.write(name, 0, 100, 'utf8');
  h.write(octal(0o644, 8), 100, 'ascii');
  h.write(octal(0, 8), 108, 'ascii');
  h.write(octal(0, 8), 116, 'ascii');
  h.write(octal(size, 12), 124, 'ascii');
  h.write(octal(mtime, 12), 136, 'ascii');
  h.write('        ', 148, 'ascii');
  h.write('0', 156, 'ascii');
  h.write('ustar\u000000', 257, 'ascii');
  h.write(prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const byte of h) sum += byte;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return h;
}

const padding = (size: number) => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK, 0);

/** The entries as one .tar.gz, in the order given; `mtime` is each file's time (seconds). */
export function packTarGz(entries: Iterable<TTarEntry>, mtime: number): Buffer {
  const parts: Buffer[] = [];
  for (const e of entries) {
    parts.push(header(e.path, e.bytes.length, mtime), Buffer.from(e.bytes), padding(e.bytes.length));
  }
  // Two zero blocks end the archive.
  parts.push(Buffer.alloc(BLOCK * 2, 0));
  return gzipSync(Buffer.concat(parts));
}

const text = (b: Buffer, from: number, length: number) =>
  b
    .subarray(from, from + length)
    .toString('utf8')
    .replace(/\0.*$/s, '');

/** The regular files of a .tar.gz, within the budget; anything else in the archive is refused. */
export function unpackTarGz(gz: Uint8Array, budget: TTarBudget): TTarEntry[] {
  let tar: Buffer;
  try {
    // maxOutputLength stops a small archive that would inflate past the budget.
    tar = gunzipSync(gz, { maxOutputLength: budget.maxBytes + BLOCK * 4 });
  } catch (err) {
    throw new TarFormatError(`The archive is not a gzipped tar within limits: ${(err as Error).message}`);
  }
  const entries: TTarEntry[] = [];
  let at = 0;
  while (at + BLOCK <= tar.length) {
    const h = tar.subarray(at, at + BLOCK);
    if (h.every((b) => b === 0)) break;
    const size = Number.parseInt(text(h, 124, 12).trim() || '0', 8);
    const type = text(h, 156, 1);
    const prefix = text(h, 345, 155);
    const name = text(h, 0, 100);
    const path = prefix ? `${prefix}/${name}` : name;
    if (!Number.isSafeInteger(size) || size < 0 || at + BLOCK + size > tar.length) {
      throw new TarFormatError(`The archive is cut short at ${path}.`);
    }
    if (type !== '0' && type !== '')
      throw new TarFormatError(`The archive holds ${path}, which is not a file.`);
    if (path.startsWith('/') || path.split('/').includes('..')) {
      throw new TarFormatError(`The archive holds a path outside it: ${path}.`);
    }
    if (entries.length >= budget.maxEntries) throw new TarFormatError('The archive holds too many files.');
    entries.push({ path, bytes: tar.subarray(at + BLOCK, at + BLOCK + size) });
    at += BLOCK + size + ((BLOCK - (size % BLOCK)) % BLOCK);
  }
  return entries;
}
