import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Snapshot } from './registry';

const DEBOUNCE_MS = 50;

function isSnapshot(value: unknown): value is Snapshot {
  if (typeof value !== 'object' || value === null) return false;
  const { version, queues } = value as Record<string, unknown>;
  return (
    version === 1 &&
    Array.isArray(queues) &&
    queues.every(
      (queue: unknown) =>
        typeof queue === 'object' &&
        queue !== null &&
        typeof (queue as Record<string, unknown>).name === 'string' &&
        Array.isArray((queue as Record<string, unknown>).messages),
    )
  );
}

/** Missing file means a fresh start; an unreadable one is an error, because silently starting empty would lose messages. */
export async function loadSnapshot(file: string): Promise<Snapshot | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const parsed: unknown = JSON.parse(text);
  if (!isSnapshot(parsed)) throw new Error(`local SQS: ${file} is not a local SQS state file`);
  return parsed;
}

/**
 * Writes of the whole state, each durable before it resolves: written to a temporary file,
 * fsynced, renamed over the old one and the folder fsynced, so a crash (even of the machine)
 * leaves either the old state or the new one, never a torn file or a lost rename.
 *
 * `commit()` is group commit: a write in progress may have taken its snapshot before the caller's
 * change, so callers wait for the next write, which all callers arriving meanwhile share. Under
 * load many changes cost one write and one fsync, and writes never overlap.
 * `schedule()` is for changes nobody waits on (a receive): written within DEBOUNCE_MS.
 */
export class Persistence {
  private timer: NodeJS.Timeout | undefined;
  /** The write running now, if any. */
  private running: Promise<void> | undefined;
  /** The write that starts when `running` ends, shared by everyone who committed meanwhile. */
  private next: Promise<void> | undefined;
  private sequence = 0;
  private failure: unknown;

  constructor(
    private readonly file: string,
    private readonly snapshot: () => Snapshot,
  ) {}

  /** Resolves once the state as it is now is on disk; rejects if that write failed. */
  commit(): Promise<void> {
    if (this.next) return this.next;
    if (!this.running) return this.start();
    this.next = this.running
      .catch(() => undefined)
      .then(() => {
        this.next = undefined;
        return this.start();
      });
    return this.next;
  }

  schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.commit().catch((error: unknown) => {
        this.failure = error;
        // Background writes have no caller to report to; a warning at least makes the failure visible now.
        process.emitWarning(`local SQS: could not write ${this.file}: ${String(error)}`);
      });
    }, DEBOUNCE_MS);
  }

  /** Writes pending changes now; rethrows a failure of any earlier background write so it is not lost. */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    await this.commit();
    if (this.failure !== undefined) {
      const failure = this.failure;
      this.failure = undefined;
      throw failure;
    }
  }

  private start(): Promise<void> {
    const running = this.write().finally(() => {
      if (this.running === running) this.running = undefined;
    });
    this.running = running;
    return running;
  }

  private async write(): Promise<void> {
    // Taken now, synchronously: every change made before this write started is in it.
    const text = JSON.stringify(this.snapshot());
    const temp = `${this.file}.${process.pid}.${++this.sequence}.tmp`;
    const folder = dirname(this.file);
    await mkdir(folder, { recursive: true });
    try {
      const handle = await open(temp, 'w');
      try {
        await handle.writeFile(text, 'utf8');
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temp, this.file);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    // The rename is only durable once the folder's entry is.
    const dir = await open(folder, 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  }
}
