// Final documents of originals that carry more than pages: a form like the IRS W-4 (usage-rights
// signatures no field refers to, XFA, scripts, actions, an embedded file) and a PDF signed by
// someone else before upload. Sent, signed and sealed through the local runtime; the final must
// pass every check of esign-verify, of POST /api/v2/verify/ and of the public check, and
// pikepdf (qpdf) must find none of what was removed anywhere in the file, referenced or not.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { parseEvidenceRecord } from '#shared/domain/evidence/evidence-record';
import { readAttachments } from '#shared/pdf/read-attachment';
import type { TVerifyReport } from '#shared/verify/report';
import { aSignedPdf, aW4LikePdf } from '../helpers/active-originals';
import { pdfsig } from '../helpers/poppler';
import { pythonOnPdf } from '../helpers/python';
import { eventually } from '../helpers/receiver';
import { apiClient, startTestRuntime } from '../helpers/runtime';
import { openSession, signerClient } from '../helpers/signer';

let runtime: TRuntime;
let call: ReturnType<typeof apiClient>;
let sign: ReturnType<typeof signerClient>;

beforeAll(async () => {
  runtime = await startTestRuntime();
  call = apiClient(runtime);
  sign = signerClient(runtime);
}, 60_000);
afterAll(async () => {
  await runtime?.stop();
});

/** Sends `original` to one signer, signs it, and answers the sealed final document. */
async function finalOf(original: Uint8Array, label: string): Promise<Buffer> {
  const created = await call('POST', '/bundles/', {
    json: {
      label,
      packets: [{ key: 'ann', name: 'Ann Lee', email: 'ann@example.com', deliver_via: 'embed' }],
      documents: [
        {
          key: 'form',
          file_b64: Buffer.from(original).toString('base64'),
          fields: [
            { key: 'sig', kind: 'sig', page: 1, x: 10, y: 80, w: 30, h: 6, editors: ['ann'], required: true },
          ],
        },
      ],
    },
  });
  expect(created.status, created.text).toBe(201);
  const session = await openSession(sign, call, created.body.packets[0].id);
  const typed = await sign('PUT', '/values', session, {
    values: [{ doc_key: 'form', field_key: 'sig', value: 'typed:Ann Lee' }],
  });
  expect(typed.status, JSON.stringify(typed.body)).toBe(200);
  expect((await sign('POST', '/complete', session, { consent: true })).status).toBe(200);
  const ready = await eventually(
    async () => {
      const b = (await call('GET', `/bundles/${created.body.id}/`)).body;
      return b.docs_ready || b.status === 'fa' ? b : undefined;
    },
    90_000,
    'documents ready',
  );
  expect(ready.docs_ready, JSON.stringify(ready.errors)).toBe(true);
  const files = (await call('GET', `/bundles/${created.body.id}/files/`)).body as {
    kind: string;
    file_url: string;
  }[];
  const res = await fetch(files.find((f) => f.kind === 'final')!.file_url);
  return Buffer.from(await res.arrayBuffer());
}

/** esign-verify's JSON report of `pdf`, trusting the local root. */
function esignVerify(pdf: Buffer): { status: number | null; report: TVerifyReport } {
  const dir = mkdtempSync(join(tmpdir(), 'esign-verify-original-'));
  try {
    writeFileSync(join(dir, 'final.pdf'), pdf);
    writeFileSync(join(dir, 'root.pem'), runtime.tsa.rootPem);
    const bin = join(__dirname, '..', '..', 'bin', 'esign-verify.mjs');
    const run = spawnSync(process.execPath, [bin, '--json', '--trust', 'root.pem', 'final.pdf'], {
      cwd: dir,
      encoding: 'utf8',
    });
    return { status: run.status, report: JSON.parse(run.stdout) as TVerifyReport };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const failed = (checks: { id: string; status: string; title: string }[]) =>
  checks.filter((c) => c.status === 'fail').map((c) => `${c.id}: ${c.title}`);

// Every object of the file as qpdf reads its cross-reference tables, referenced or not.
const INSPECT = `
import sys, json, pikepdf
pdf = pikepdf.open(sys.argv[1])
root = pdf.Root
signatures, scripts = [], 0
for obj in pdf.objects:
    if not isinstance(obj, (pikepdf.Dictionary, pikepdf.Stream)):
        continue
    if '/ByteRange' in obj:
        signatures.append(str(obj.get('/Type')))
    if obj.get('/S') == pikepdf.Name.JavaScript or '/JS' in obj:
        scripts += 1
names = root.get('/Names')
embedded = []
if names is not None and '/EmbeddedFiles' in names:
    leaf = names.EmbeddedFiles.Names
    embedded = [str(leaf[i]) for i in range(0, len(leaf), 2)]
print(json.dumps({
    'catalog': sorted(str(k) for k in root.keys()),
    'acroForm': sorted(str(k) for k in root.AcroForm.keys()),
    'names': sorted(str(k) for k in names.keys()) if names is not None else [],
    'signatures': signatures,
    'scripts': scripts,
    'embedded': embedded,
    'pageActions': sum(1 for p in pdf.pages if '/AA' in p.obj),
}))
`;

interface TInspected {
  catalog: string[];
  acroForm: string[];
  names: string[];
  signatures: string[];
  scripts: number;
  embedded: string[];
  pageActions: number;
}

async function removedPerRecord(pdf: Buffer) {
  const record = (await readAttachments(pdf)).find((f) => f.name === 'evidence-record.json')!;
  return parseEvidenceRecord(record.bytes)?.removed_from_original;
}

describe.each([
  {
    original: 'a form like the IRS W-4',
    make: aW4LikePdf,
    removed: ['usage_rights', 'javascript', 'open_action', 'additional_actions', 'embedded_files', 'xfa'],
  },
  { original: 'a PDF signed by someone else before upload', make: aSignedPdf, removed: ['signatures'] },
])('the final document of $original', ({ original, make, removed }) => {
  let finalPdf: Buffer;
  beforeAll(async () => {
    finalPdf = await finalOf(await make(), original);
  }, 180_000);

  it('passes esign-verify with no failed check, and mentions no leftover signature', () => {
    const { status, report } = esignVerify(finalPdf);
    expect(failed(report.checks)).toEqual([]);
    expect(report.result).toBe('pass');
    expect(status).toBe(0);
    expect(report.signatures.map((s) => s.kind)).toEqual(['signature', 'document timestamp']);
    expect(report.checks.map((c) => c.id)).not.toContain('unreferenced-signatures');
  });

  it('passes POST /api/v2/verify/ and the public check with no failed check', async () => {
    const api = await call('POST', '/verify/', { raw: finalPdf, contentType: 'application/pdf' });
    expect(api.status, api.text).toBe(200);
    expect(api.body).toMatchObject({ match: true, kind: 'final', sealed: true });
    expect(failed(api.body.checks.checks)).toEqual([]);
    expect(api.body.checks.result).toBe('pass');
    const res = await fetch(`${runtime.baseUrl}/verify/api/check`, {
      method: 'POST',
      headers: { 'content-type': 'application/pdf' },
      body: finalPdf,
    });
    expect(res.status).toBe(200);
    const check = (await res.json()) as { sealed: boolean; checks: TVerifyReport };
    expect(check.sealed).toBe(true);
    expect(failed(check.checks.checks)).toEqual([]);
    expect(pdfsig(finalPdf).split(/Signature #\d+:/)[1]).toContain('Signature is Valid.');
  });

  it('holds none of what was removed, in any object of the file (pikepdf), and says so in its evidence record', async () => {
    const inside = pythonOnPdf<TInspected>(INSPECT, finalPdf);
    for (const key of ['/Perms', '/OpenAction', '/AA']) expect(inside.catalog).not.toContain(key);
    expect(inside.acroForm).not.toContain('/XFA');
    expect(inside.names).toEqual(['/EmbeddedFiles']);
    expect(inside.embedded).toEqual(['evidence-record.json']);
    expect(inside.signatures.sort()).toEqual(['/DocTimeStamp', '/Sig']);
    expect(inside.scripts).toBe(0);
    expect(inside.pageActions).toBe(0);
    expect(await removedPerRecord(finalPdf)).toEqual(removed);
    // And qpdf finds the file's structure sound, cross-reference tables and all.
    const dir = mkdtempSync(join(tmpdir(), 'qpdf-check-'));
    try {
      writeFileSync(join(dir, 'final.pdf'), finalPdf);
      const qpdf = spawnSync('qpdf', ['--check', join(dir, 'final.pdf')], { encoding: 'utf8' });
      expect(qpdf.status, qpdf.stdout + qpdf.stderr).toBe(0);
      expect(qpdf.stdout).toMatch(/No syntax or stream encoding errors found/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
