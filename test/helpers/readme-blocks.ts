import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '#infra/bundling';

/**
 * The shell commands README.md prints between `<!-- <name>:start -->` and `<!-- <name>:end -->`,
 * exactly as written: the tests run the documentation itself.
 */
export function readmeShellBlock(name: string): string {
  const readme = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
  const block = new RegExp(
    `<!-- ${name}:start -->\\s*\`\`\`sh\\n([\\s\\S]*?)\`\`\`\\s*<!-- ${name}:end -->`,
  ).exec(readme);
  if (!block) throw new Error(`README.md has no ${name} block`);
  return block[1]!;
}

/**
 * Runs README commands with bash (errors stop it) in `cwd`, as a reader would against a service
 * on `baseUrl` with `key`: the two things a reader fills in or that differ here, the printed key
 * (`KEY=<the printed key>`) and the port (`localhost:3000`), are replaced; nothing else is.
 * `after` is appended (to print variables the next block needs). Asynchronous: the service under
 * test runs in this process.
 */
export function runReadmeCommands(
  script: string,
  opts: { cwd: string; baseUrl: string; key: string; env?: Record<string, string>; after?: string },
) {
  const host = new URL(opts.baseUrl).host;
  const text = script
    .replaceAll('KEY=<the printed key>', `KEY=${opts.key}`)
    .replaceAll('localhost:3000', host);
  if (text.includes('<the printed key>') || text.includes('localhost:3000')) throw new Error('unreplaced');
  return runCommand('bash', ['-euo', 'pipefail', '-c', `${text}\n${opts.after ?? ''}`], {
    cwd: opts.cwd,
    env: opts.env ?? {},
  });
}

/** A command's exit status and output, without blocking this process (whose service it may call). */
export function runCommand(
  command: string,
  args: string[],
  opts: { cwd: string; env?: Record<string, string>; timeoutMs?: number },
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: opts.cwd,
      env: { ...process.env, ...(opts.env ?? {}) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString('utf8');
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString('utf8');
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 120_000);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}
