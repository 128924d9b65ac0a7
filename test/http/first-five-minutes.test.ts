// The README's first five minutes and `npm run demo`, run as written against a whole local
// runtime: a newcomer sends the sample PDF, opens the signing link from the local mailbox, and
// gets back a sealed PDF that a tool we did not write (pdfsig) finds validly signed. Also the
// bulk example, which must work offline, and the page at `/`.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '#infra/bundling';
import type { TRuntime } from '#infra/local/runtime';
import { pdfsig } from '../helpers/poppler';
import { readmeShellBlock, runCommand, runReadmeCommands } from '../helpers/readme-blocks';
import { apiClient, startTestRuntime } from '../helpers/runtime';
import { signerClient } from '../helpers/signer';

let runtime: TRuntime;
beforeAll(async () => {
  runtime = await startTestRuntime();
});
afterAll(() => runtime.stop());

/** A fresh folder holding what a clone holds that the commands read: docs/sample.pdf. */
function workFolder(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'first-minutes-'));
  mkdirSync(path.join(dir, 'docs'));
  copyFileSync(path.join(REPO_ROOT, 'docs', 'sample.pdf'), path.join(dir, 'docs', 'sample.pdf'));
  return dir;
}

interface TMailboxEntry {
  id: string;
  kind: string;
  to?: string[];
  subject?: string;
  text: string;
}

const mailbox = async (): Promise<TMailboxEntry[]> => {
  const res = await fetch(`${runtime.baseUrl}/dev/mailbox.json`);
  expect(res.status).toBe(200);
  return (await res.json()) as TMailboxEntry[];
};

async function until<T>(what: string, find: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`${what}: nothing after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const sealed = (pdf: Buffer) => {
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  const report = pdfsig(pdf);
  expect(report).toContain('Signature Field Name: Seal');
  expect(report).toContain('Signature Validation: Signature is Valid.');
};

describe("README's first five minutes", () => {
  it('send the sample PDF, give a signing link in the mailbox, and download the sealed PDF, as written', async () => {
    const dir = workFolder();
    const before = new Set((await mailbox()).map((m) => m.id));
    const sent = await runReadmeCommands(readmeShellBlock('first-five-minutes:send'), {
      cwd: dir,
      baseUrl: runtime.baseUrl,
      key: runtime.demo.apiKey,
      after: 'echo "BUNDLE=$BUNDLE"',
    });
    expect(sent.status, sent.stderr).toBe(0);
    const bundleId = /BUNDLE=(\S+)/.exec(sent.stdout)![1]!;
    const bundle = JSON.parse(readFileSync(path.join(dir, 'bundle.json'), 'utf8'));
    expect(bundle).toMatchObject({ id: bundleId, status: 'se' });

    // "open the mailbox, open 'Please sign: Sample agreement', follow its link, sign and finish"
    const email = await until('the signing email', async () =>
      (await mailbox()).find((m) => !before.has(m.id) && m.to?.includes('ann@example.com')),
    );
    expect(email.subject).toBe('Please sign: Sample agreement');
    const link = /https?:\/\/\S+\/sign\/[A-Za-z0-9_-]+/.exec(email.text)![0];
    const sign = signerClient(runtime);
    const opened = await sign('POST', '/session', undefined, {
      token: new URL(link).pathname.split('/').pop(),
    });
    expect(opened.status).toBe(201);
    const session = opened.body.session as string;
    const state = await sign('GET', '/state', session);
    expect(state.body.fields.map((f: { key: string }) => f.key)).toEqual(['signature']);
    const typed = await sign('PUT', '/values', session, {
      values: [{ doc_key: 'sample', field_key: 'signature', value: 'typed:Ann Lee' }],
    });
    expect(typed.status).toBe(200);
    expect((await sign('POST', '/complete', session, { consent: true })).status).toBe(200);

    // "A few seconds later the sealed document is ready".
    const call = apiClient(runtime);
    await until('the final documents', async () =>
      (await call('GET', `/bundles/${bundleId}/files/`)).status === 200 ? true : undefined,
    );
    const downloaded = await runReadmeCommands(readmeShellBlock('first-five-minutes:download'), {
      cwd: dir,
      baseUrl: runtime.baseUrl,
      key: runtime.demo.apiKey,
      env: { KEY: runtime.demo.apiKey, BUNDLE: bundleId },
    });
    expect(downloaded.status, downloaded.stderr).toBe(0);
    sealed(readFileSync(path.join(dir, 'signed-sample.pdf')));
  }, 180_000);

  it('are what `npm run demo` does: it sends, signs from the mailbox and saves the sealed PDF, saying each step', async () => {
    const dir = workFolder();
    const out = path.join(dir, 'demo.pdf');
    const run = await runCommand(
      'npm',
      ['run', '--silent', 'demo', '--', '--url', runtime.baseUrl, '--key', runtime.demo.apiKey, '--out', out],
      { cwd: REPO_ROOT, timeoutMs: 170_000 },
    );
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    const lines = run.stdout.split('\n');
    for (const step of [
      '1. Sending',
      '2. Waiting for the signing email',
      '3. Signing as Ann Lee',
      '4. Waiting for the sealed',
    ]) {
      expect(
        lines.some((l) => l.startsWith(step)),
        step,
      ).toBe(true);
    }
    expect(run.stdout).toMatch(/Its link: http:\/\/\S+\/sign\//);
    expect(run.stdout).toMatch(/Done\. Open .*demo\.pdf/);
    expect(existsSync(out)).toBe(true);
    sealed(readFileSync(out));
  }, 180_000);

  it('`npm run demo` says how to start the service when none runs', async () => {
    const dir = workFolder();
    const run = await runCommand(
      'npm',
      ['run', '--silent', 'demo', '--', '--data-dir', path.join(dir, 'nothing')],
      {
        cwd: REPO_ROOT,
      },
    );
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('npm start');
  }, 60_000);
});

describe("README's bulk example", () => {
  it('works offline as written: both rows become bundles of the sample PDF', async () => {
    const dir = workFolder();
    const sent = await runReadmeCommands(readmeShellBlock('bulk-example'), {
      cwd: dir,
      baseUrl: runtime.baseUrl,
      key: runtime.demo.apiKey,
      // Set by the README's earlier commands, as in the reader's shell.
      env: { KEY: runtime.demo.apiKey },
      after: 'echo "BATCH=$BATCH"',
    });
    expect(sent.status, sent.stderr).toBe(0);
    const batchId = /BATCH=(\S+)/.exec(sent.stdout)![1]!;
    const call = apiClient(runtime);
    const done = await until('the batch', async () => {
      const batch = await call('GET', `/bundles/bulk/${batchId}/`);
      return batch.body?.status === 'completed' ? batch.body : undefined;
    });
    expect(done.counts).toMatchObject({ total: 2, created: 2, failed: 0 });
    for (const row of done.rows) {
      const bundle = await call('GET', `/bundles/${row.bundle_id}/`);
      expect(bundle.body.status).toBe('se');
    }
  }, 120_000);
});

describe('the page at /', () => {
  it('links the API reference, the mailbox and the verify page, each of which answers', async () => {
    const res = await fetch(`${runtime.baseUrl}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await res.text();
    const links = [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!);
    expect(links).toEqual(expect.arrayContaining(['/docs', '/dev/mailbox', '/verify', '/dev/sample.pdf']));
    for (const href of links) {
      const linked = await fetch(`${runtime.baseUrl}${href}`);
      expect(linked.status, href).toBe(200);
    }
    expect(html).toContain('npm run demo');
  });
});
