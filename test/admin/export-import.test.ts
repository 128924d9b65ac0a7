// An account taken out whole and put into another deployment: the export started through the API
// and built by the document worker, its archive fetched by the short-lived link and opened with
// Python's tarfile (a reader we did not write), then restored by the operator's import-account
// into a second, fresh local runtime, where the bundle, its sealed files, the person and the
// webhook answer under the same ids and POST /verify/ still finds the final sealed.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { packTarGz, readTarGz } from '#shared/adapters/archive/tar-gz';
import { admin } from '../helpers/admin-cli';
import { aBundle, aPdfB64 } from '../helpers/bundles';
import { aSealedFinal, finalFiles } from '../helpers/completed-bundle';
import { eventually } from '../helpers/receiver';
import { apiClient, startTestRuntime } from '../helpers/runtime';
import { signerClient } from '../helpers/signer';

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

let dirA: string;
let dirB: string;
let from: TRuntime;
let to: TRuntime;
let archiveFile: string;
const made: { bundle: string; person: string; webhook: string; envelope: string; final: Buffer } = {
  bundle: '',
  person: '',
  webhook: '',
  envelope: '',
  final: Buffer.alloc(0),
};

beforeAll(async () => {
  dirA = await mkdtemp(join(tmpdir(), 'export-from-'));
  dirB = await mkdtemp(join(tmpdir(), 'export-to-'));
  [from, to] = await Promise.all([
    startTestRuntime({ memory: false, dataDir: dirA }),
    startTestRuntime({ memory: false, dataDir: dirB }),
  ]);
  archiveFile = join(dirA, 'export.tar.gz');
}, 60_000);
afterAll(async () => {
  await Promise.all([from?.stop(), to?.stop()]);
  await Promise.all([dirA, dirB].map((d) => d && rm(d, { recursive: true, force: true })));
});

/** A cancelled bundle whose originals the policy deleted (the scheduler run two days on). */
async function aBundleDeletedByPolicy(runtime: TRuntime, b64: string): Promise<string> {
  const call = apiClient(runtime);
  expect((await call('PUT', '/account/retention/', { json: { originals_days: 1 } })).status).toBe(200);
  const made = await call('POST', '/bundles/', { json: aBundle({}, b64) });
  expect((await call('PUT', `/bundles/${made.body.id}/cancel/`)).status).toBe(200);
  await runtime.workers.runScheduler(new Date(Date.now() + 2 * 86_400_000));
  expect((await call('PUT', '/account/retention/', { json: {} })).status).toBe(200);
  return made.body.id as string;
}

/** Python's tarfile and hashlib: every file the manifest lists, with its size and SHA-256. */
const PY_CHECK = `
import hashlib, json, sys, tarfile
with tarfile.open(sys.argv[1], 'r:gz') as t:
    names = t.getnames()
    m = json.load(t.extractfile('manifest.json'))
    bad = [f['path'] for f in m['files'] + [m['records']]
           if hashlib.sha256(t.extractfile(f['path']).read()).hexdigest() != f['sha256']]
    print(json.dumps({'names': names, 'bad': bad, 'deleted': m['deleted'], 'not_exported': m['notExported']}))
`;

describe('export and import of a whole account', () => {
  it('exports through the API: one at a time, with progress, a short-lived link and a manifest Python can check', async () => {
    const call = apiClient(from);
    const b64 = await aPdfB64();
    const { final } = await aSealedFinal(call, signerClient(from), b64);
    made.final = final;
    made.bundle = (await call('GET', '/bundles/')).body[0].id;
    const tombstone = await aBundleDeletedByPolicy(from, b64);
    const person = await call('POST', '/persons/', {
      json: { name: 'Kept Person', channels: [{ email: 'kept@example.com' }] },
    });
    made.person = person.body.id;
    const hook = await call('POST', '/webhooks/', {
      json: { url: 'https://hooks.example.com/esign', event_types: ['bundle_complete'] },
    });
    expect(hook.status, hook.text).toBe(201);
    made.webhook = hook.body.id;
    // A disabled envelope template (no list shows it) and the document template it names.
    const doc = await call('POST', '/templates/', {
      json: { file_b64: b64, name: 'NDA', roles: [{ key: 'party', label: 'Party' }], fields: [] },
    });
    expect(doc.status, doc.text).toBe(201);
    const envelope = await call('POST', '/envelope-templates/', {
      json: {
        name: 'Retired NDA',
        enabled: false,
        documents: [{ key: 'nda', template_id: doc.body.id, name: 'NDA', order: 0 }],
        signers: [{ key: 'party', label: 'Party', order: 1 }],
      },
    });
    expect(envelope.status, envelope.text).toBe(201);
    made.envelope = envelope.body.id;

    // Two starts at once: one export, the other told one is under way.
    const starts = await Promise.all([1, 2].map(() => call('POST', '/account/exports/')));
    expect(starts.map((s) => s.status).sort()).toEqual([202, 409]);
    const started = starts.find((s) => s.status === 202)!.body;
    expect(starts.find((s) => s.status === 409)!.text).toContain('already under way');
    const done = await eventually(async () => {
      const got = (await call('GET', `/account/exports/${started.id}/`)).body;
      return got.status === 'done' || got.status === 'failed' ? got : undefined;
    }, 60_000);
    expect(done.status, done.error).toBe('done');
    expect(done.progress.done).toBe(done.progress.total);
    expect(Date.parse(done.archive.url_expires) - Date.now()).toBeLessThanOrEqual(15 * 60_000);

    // Another account's key finds no such export.
    const other = await from.seedAccount('Other', 'other@example.com');
    expect((await apiClient(from, other.apiKey)('GET', `/account/exports/${started.id}/`)).status).toBe(404);

    const got = await fetch(done.archive.url);
    expect(got.status).toBe(200);
    const bytes = Buffer.from(await got.arrayBuffer());
    expect(sha256(bytes)).toBe(done.archive.sha256);
    await writeFile(archiveFile, bytes);

    const py = JSON.parse(execFileSync('python3', ['-c', PY_CHECK, archiveFile], { encoding: 'utf8' }));
    expect(py.bad).toEqual([]);
    // The manifest last: its hashes are taken as the files stream into the archive.
    expect([py.names[0], py.names.at(-1)]).toEqual(['records.jsonl', 'manifest.json']);
    // The original, the final and the certificate of the bundle, at their keys in the bucket.
    const base = `files/accounts/${from.demo.accountId}/bundles/${made.bundle}/`;
    const ofBundle = py.names.filter((n: string) => n.includes(`/${made.bundle}/`));
    expect(ofBundle.filter((n: string) => !n.startsWith(base))).toEqual([]);
    expect(ofBundle.map((n: string) => n.slice(base.length).split('/')[0]).sort()).toEqual(
      expect.arrayContaining(['coe', 'final', 'originals']),
    );
    expect(py.deleted).toEqual([
      expect.objectContaining({
        bundleId: tombstone,
        part: 'originals',
        sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      }),
    ]);
    expect(py.not_exported.join(' ')).toContain('webhook signing secret');
  }, 180_000);

  it('is for admins; the operator exports too, in an archive tar itself lists', async () => {
    const account = from.demo.accountId;
    const user = (
      await admin(dirA, 'add-user', '--account', account, '--name', 'Pat', '--email', 'pat@example.com')
    ).stdout.trim();
    const key = (await admin(dirA, 'create-key', '--account', account, '--user', user)).stdout.trim();
    const refused = await apiClient(from, key)('POST', '/account/exports/');
    expect(refused.status, refused.text).toBe(403);
    expect(refused.text).toContain('Only account admins');

    const out = join(dirA, 'operator.tar.gz');
    const run = await admin(dirA, 'export-account', '--account', from.demo.accountId, '--out', out);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim()).toMatch(new RegExp(`^exports/${from.demo.accountId}/[0-9a-f-]+\\.tar\\.gz$`));
    const listed = execFileSync('tar', ['-tzf', out], { encoding: 'utf8' }).split('\n');
    expect(listed).toContain('manifest.json');
    expect(listed.some((p) => p.startsWith(`files/accounts/${from.demo.accountId}/`))).toBe(true);
  }, 60_000);

  it('imports into a fresh deployment with ids kept; a damaged file or a taken id refuses it', async () => {
    const account = from.demo.accountId;
    // A file changed inside the archive: refused before anything is written.
    const entries: { path: string; bytes: Buffer }[] = [];
    const budget = { maxBytes: 1e9, maxEntryBytes: 1e8, maxEntries: 10_000 };
    await readTarGz([await readFile(archiveFile)], budget, async (e) => {
      const chunks: Uint8Array[] = [];
      for await (const c of e.body) chunks.push(c);
      entries.push({ path: e.path, bytes: Buffer.concat(chunks) });
    });
    const victim = entries.find((e) => e.path.startsWith('files/'))!;
    victim.bytes = Buffer.concat([victim.bytes, Buffer.from('x')]);
    const damaged = join(dirB, 'damaged.tar.gz');
    const repacked = entries.map((e) => ({ path: e.path, size: e.bytes.length, body: [e.bytes] }));
    await pipeline(packTarGz(repacked, 0), createWriteStream(damaged));
    const refused = await admin(dirB, 'import-account', '--archive', damaged);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('does not match the SHA-256');
    expect((await admin(dirB, 'show-account', '--account', account)).code).toBe(1);

    const first = await admin(dirB, 'import-account', '--archive', archiveFile, '--account', account);
    expect(first.code, first.stderr).toBe(0);
    // Run again, it finds everything in place and writes nothing.
    const again = await admin(dirB, 'import-account', '--archive', archiveFile, '--json');
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ records: { written: 0 }, files: { written: 0 } });

    const key = (
      await admin(dirB, 'create-key', '--account', account, '--user', from.demo.userId)
    ).stdout.trim();
    const call = apiClient(to, key);
    const bundle = await call('GET', `/bundles/${made.bundle}/`);
    expect(bundle.status, bundle.text).toBe(200);
    expect(bundle.body.docs_ready).toBe(true);
    const files = await finalFiles(call, made.bundle);
    expect(sha256(files.get('final:lease')!)).toBe(sha256(made.final));
    const verified = await call('POST', '/verify/', { raw: made.final, contentType: 'application/pdf' });
    expect(verified.body).toMatchObject({ match: true, kind: 'final', sealed: true });
    expect((await call('GET', `/persons/${made.person}/`)).status).toBe(200);
    expect((await call('GET', `/webhooks/${made.webhook}/`)).status).toBe(200);
    const envelope = await call('GET', `/envelope-templates/${made.envelope}/`);
    expect(envelope.status, envelope.text).toBe(200);
    expect(envelope.body).toMatchObject({ name: 'Retired NDA', enabled: false });

    // The person changed here: the archive's id is now taken by other data, and nothing is written.
    const changed = await call('PATCH', `/persons/${made.person}/`, { json: { name: 'Changed Here' } });
    expect(changed.status, changed.text).toBe(200);
    const clash = await admin(dirB, 'import-account', '--archive', archiveFile);
    expect(clash.code).toBe(1);
    expect(clash.stderr).toContain('already holds 1 of the archive');
  }, 120_000);
});
