// What `npm start` prints: its banner (the URLs and the demo key) stays readable while requests
// come in, since the access log's lines are written at debug locally; `--log-level debug` shows
// them. The real entry point in a child process, as a newcomer runs it.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '#infra/bundling';

const MAIN = path.join(REPO_ROOT, 'infra/local/main.ts');
let child: ChildProcess | undefined;

afterEach(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
  }
  child = undefined;
});

/** Starts `npm start`'s entry point in memory on a free port; answers its output so far and its URLs. */
async function start(args: string[]) {
  child = spawn(process.execPath, ['--import', 'tsx', MAIN, '--memory', '--port', '0', ...args], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = { text: '' };
  child.stdout!.on('data', (c: Buffer) => {
    out.text += c.toString('utf8');
  });
  child.stderr!.on('data', (c: Buffer) => {
    out.text += c.toString('utf8');
  });
  const deadline = Date.now() + 60_000;
  while (!/Demo API key[^\n]*\n(\S+)\n/.test(out.text)) {
    if (child.exitCode !== null) throw new Error(`npm start exited: ${out.text}`);
    if (Date.now() > deadline) throw new Error(`no banner in 60 s: ${out.text}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const apiUrl = /API\s+(http:\/\/\S+)/.exec(out.text)![1]!;
  const key = /Demo API key[^\n]*\n(\S+)\n/.exec(out.text)![1]!;
  return { out, apiUrl, key };
}

/** A few calls a newcomer makes: a list, a create, a refused one, a page. */
async function someRequests(apiUrl: string, key: string) {
  const auth = { authorization: `Token ${key}` };
  expect((await fetch(`${apiUrl}persons/`, { headers: auth })).status).toBe(200);
  const created = await fetch(`${apiUrl}persons/`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Ann Lee', channels: [{ email: 'ann@example.com' }] }),
  });
  expect(created.status).toBe(201);
  const refused = await fetch(`${apiUrl}persons/`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: '{',
  });
  expect(refused.status).toBe(400);
  expect((await fetch(`${apiUrl.replace(/api\/v2\/$/, '')}docs`)).status).toBe(200);
  // The lines of those requests are written as they are answered; give the pipe a moment.
  await new Promise((r) => setTimeout(r, 500));
}

const jsonLines = (text: string) =>
  text
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { level: string; msg: string });

describe('npm start', () => {
  it('keeps its banner readable: no line per request at the default level', async () => {
    const { out, apiUrl, key } = await start([]);
    await someRequests(apiUrl, key);
    expect(out.text).toContain('eSignature service running');
    const requestLines = jsonLines(out.text).filter((l) => /^request/.test(l.msg));
    expect(requestLines).toEqual([]);
  }, 120_000);

  it('logs each request at debug, with --log-level debug', async () => {
    const { out, apiUrl, key } = await start(['--log-level', 'debug']);
    await someRequests(apiUrl, key);
    const requestLines = jsonLines(out.text).filter((l) => /^request/.test(l.msg));
    expect(requestLines.map((l) => l.msg)).toEqual(expect.arrayContaining(['request', 'request refused']));
    expect(new Set(requestLines.map((l) => l.level.toLowerCase()))).toEqual(new Set(['debug']));
  }, 120_000);
});
