import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isMailboxMessage, type TMailboxMessage } from './message';

// One JSON file per message, named by its id. Ids start with the time and a per-server sequence
// number, so sorting names sorts messages, even several sent within the same millisecond.

const idPattern = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export function newMailboxId(time: Date, sequence: number): string {
  // Colons are not allowed in Windows file names.
  const stamp = time.toISOString().replaceAll(':', '-');
  return `${stamp}-${String(sequence).padStart(6, '0')}-${randomBytes(4).toString('hex')}`;
}

export async function writeMailboxMessage(dir: string, message: TMailboxMessage): Promise<void> {
  await mkdir(dir, { recursive: true });
  const target = join(dir, `${message.id}.json`);
  // Write then rename so a page rendered mid-write never sees half a file.
  const temp = join(dir, `.${message.id}.json.tmp`);
  await writeFile(temp, `${JSON.stringify(message, null, 2)}\n`, 'utf8');
  await rename(temp, target);
}

/** Newest first. Files that are not mailbox messages are ignored rather than breaking the page. */
export async function listMailbox(dir: string): Promise<TMailboxMessage[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if (isNotFound(err)) return [];
    throw err;
  }
  const ids = names
    .filter((n) => n.endsWith('.json') && !n.startsWith('.'))
    .map((n) => n.slice(0, -'.json'.length))
    .filter((id) => idPattern.test(id))
    .sort()
    .reverse();
  const messages = await Promise.all(ids.map((id) => readMailboxMessage(dir, id)));
  return messages.filter((m): m is TMailboxMessage => m !== undefined);
}

/** `id` may come straight from a URL: anything that is not a plain id is simply not found. */
export async function readMailboxMessage(dir: string, id: string): Promise<TMailboxMessage | undefined> {
  if (!idPattern.test(id)) return undefined;
  let raw: string;
  try {
    raw = await readFile(join(dir, `${id}.json`), 'utf8');
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return undefined;
  }
  return isMailboxMessage(parsed) && parsed.id === id ? parsed : undefined;
}

function isNotFound(err: unknown): boolean {
  return typeof err === 'object' && err !== null && 'code' in err && err.code === 'ENOENT';
}
