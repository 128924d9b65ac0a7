import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('./runtime-process-main.ts', import.meta.url));
const START_TIMEOUT_MS = 30_000;

export interface TRuntimeProcess {
  apiUrl: string;
  apiKey: string;
  /** kill -9: the process dies mid-work, nothing is flushed. */
  kill(): Promise<void>;
}

/** The local runtime in a child process on `dataDir` (see runtime-process-main.ts). */
export async function startRuntimeProcess(
  dataDir: string,
  opts: { holdWebhooks?: boolean; functionTimeoutMs?: number } = {},
): Promise<TRuntimeProcess> {
  // node itself, not npx or tsx's CLI: the pid killed is the runtime's own.
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      MAIN,
      dataDir,
      ...(opts.holdWebhooks ? ['--hold-webhooks'] : []),
      ...(opts.functionTimeoutMs ? [`--function-timeout-ms=${opts.functionTimeoutMs}`] : []),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const exited = once(child, 'exit');
  const kill = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGKILL');
    await exited;
  };
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => {
    stderr += c.toString('utf8');
  });
  try {
    const line = await new Promise<string>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error('runtime process did not start')), START_TIMEOUT_MS);
      child.stdout!.on('data', (c: Buffer) => {
        out += c.toString('utf8');
        const end = out.indexOf('\n');
        if (end >= 0) {
          clearTimeout(timer);
          resolve(out.slice(0, end));
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`runtime process exited (${code}): ${stderr}`));
      });
    });
    const { apiUrl, apiKey } = JSON.parse(line) as { apiUrl: string; apiKey: string };
    return { apiUrl, apiKey, kill };
  } catch (err) {
    await kill();
    throw err;
  }
}
