import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
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
 * Debounced, serialised, atomic writes: bursts of changes cost one write, writes never overlap, and a
 * crash mid-write leaves the previous file intact because the new one only appears via rename.
 */
export class Persistence {
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private sequence = 0;
  private failure: unknown;

  constructor(
    private readonly file: string,
    private readonly snapshot: () => Snapshot,
  ) {}

  schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.enqueueWrite();
    }, DEBOUNCE_MS);
  }

  /** Writes pending changes now; rethrows a failure of any earlier background write so it is not lost. */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    await this.enqueueWrite();
    if (this.failure !== undefined) {
      const failure = this.failure;
      this.failure = undefined;
      throw failure;
    }
  }

  private enqueueWrite(): Promise<void> {
    // The snapshot is taken when the write runs, not when it was queued, so it is always the latest state.
    this.writing = this.writing.then(() =>
      this.write().catch((error: unknown) => {
        this.failure = error;
        // Background writes have no caller to report to; a warning at least makes the failure visible now.
        process.emitWarning(`local SQS: could not write ${this.file}: ${String(error)}`);
      }),
    );
    return this.writing;
  }

  private async write(): Promise<void> {
    const temp = `${this.file}.${process.pid}.${++this.sequence}.tmp`;
    await mkdir(dirname(this.file), { recursive: true });
    try {
      await writeFile(temp, JSON.stringify(this.snapshot()), 'utf8');
      await rename(temp, this.file);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }
}
