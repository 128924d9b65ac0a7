import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KMSClient } from '@aws-sdk/client-kms';
import { DeleteObjectCommand } from '@aws-sdk/client-s3';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDocumentWorker } from '#functions/document-worker/app';
import { ensureLocalSeal, LOCAL_SEAL_SUBJECT } from '#infra/local/local-seal';
import type { TRuntime } from '#infra/local/runtime';
import { createS3Client } from '#shared/adapters/aws/clients';
import { createAccountStore } from '#shared/adapters/dynamodb/account-store';
import { bundleKeys } from '#shared/adapters/dynamodb/entities/bundle';
import { createEvidenceStore } from '#shared/adapters/dynamodb/evidence-store';
import { createSigningRecordStore } from '#shared/adapters/dynamodb/signing-record-store';
import { createEvidencePdf, sealIdentityFromConfig } from '#shared/adapters/pdf/evidence-pdf';
import { createLocalSealChains } from '#shared/adapters/sealing/local-seal-chains';
import { randomIds, systemClock } from '#shared/adapters/system';
import { createLogger } from '#shared/adapters/telemetry/logger';
import { createCountingBundleStore } from '#shared/composition/bundle-publishing';
import { documentBlobs } from '#shared/composition/function-base';
import type { TEvidenceDeps } from '#shared/domain/evidence/evidence-deps';
import { DOCUMENT_MAX_ATTEMPTS, FINAL_LEASE_SECONDS } from '#shared/domain/evidence/evidence-files';
import {
  checkEvidenceRecord,
  EVIDENCE_RECORD_NAME,
  parseEvidenceRecord,
} from '#shared/domain/evidence/evidence-record';
import { produceFinalFiles } from '#shared/domain/evidence/produce-final-files';
import type { TEvidencePdf } from '#shared/domain/ports/evidence';
import type { TBlobStore } from '#shared/domain/ports/files';
import { readSeal } from '#shared/pdf/read-seal';
import type { TVerifyReport } from '#shared/verify/report';
import { ARTIFACTS } from '../helpers/browser';
import { aPdfB64 } from '../helpers/bundles';
import { attachedFiles, pageTexts, pdfsig, savePagePng, textOf } from '../helpers/poppler';
import { eventually, startReceiver, type TReceiver } from '../helpers/receiver';
import { apiClient, isErrorBody, startTestRuntime } from '../helpers/runtime';
import { opensslCmsVerify, sealCmsOf } from '../helpers/seal-cms';
import {
  archiveTimestampOf,
  opensslVerifyTimestamp,
  opensslVerifyTimestampOf,
  signatureTimestampOf,
} from '../helpers/seal-timestamp';
import { openSession, PNG_DATA_URL, signerClient } from '../helpers/signer';

let runtime: TRuntime;
let call: ReturnType<typeof apiClient>;
let pdf: string;
let receiver: TReceiver;

beforeAll(async () => {
  // Document retries after 30 s, 2 min…: a thousandth of that here.
  runtime = await startTestRuntime({ documentRetryScale: 1 / 1000, webhookRetryScale: 1 / 240 });
  sign = signerClient(runtime);
  call = apiClient(runtime);
  pdf = await aPdfB64();
  receiver = await startReceiver();
  mkdirSync(ARTIFACTS, { recursive: true });
}, 60_000);
afterAll(async () => {
  await receiver?.stop();
  await runtime?.stop();
});

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

// Set once the runtime is up.
let sign: ReturnType<typeof signerClient>;

const fields = [
  { key: 'sig', kind: 'sig', page: 1, x: 10, y: 70, w: 30, h: 6, editors: ['ann'], required: true },
  { key: 'email', kind: 'inp', label: 'Email', page: 1, x: 10, y: 10, w: 40, h: 4, editors: ['ann'] },
  { key: 'agree', kind: 'chk', label: 'I agree', page: 1, x: 10, y: 20, w: 3, h: 3, editors: ['ann'] },
  {
    key: 'plan',
    kind: 'sel',
    label: 'Plan',
    page: 1,
    x: 10,
    y: 30,
    w: 20,
    h: 4,
    editors: ['ann'],
    format: 'Basic|Premium',
  },
  { key: 'notes', kind: 'txt', label: 'Notes', page: 1, x: 50, y: 10, w: 40, h: 10, editors: ['ann'] },
  {
    key: 'id_copy',
    kind: 'att',
    label: 'ID copy',
    x: 0,
    y: 0,
    w: 1,
    h: 1,
    editors: ['ann'],
    v_attachment_types: ['pdf', 'png'],
  },
  { key: 'ann_name', kind: 'snm', page: 1, x: 50, y: 70, w: 30, h: 4, editors: ['ann'] },
  { key: 'ann_date', kind: 'sdt', page: 1, x: 50, y: 76, w: 30, h: 4, editors: ['ann'] },
  { key: 'bob_sig', kind: 'sig', page: 2, x: 10, y: 70, w: 30, h: 6, editors: ['bob'], required: true },
];

/**
 * Runs `run` with the document jobs in the test's hands: the queue's worker stopped, a bundle
 * signed to completion, and a worker of its own (with the timestamp authority in `tsa` mode, or
 * another PDF renderer) that the test feeds job events to; the runtime is put back after.
 */
async function withJobsByHand(
  opts: { tsa?: Parameters<TRuntime['tsa']['setMode']>[0]; pdf?: TEvidencePdf },
  // biome-ignore lint/suspicious/noExplicitAny: the bundle as the API answered it, read as JSON
  run: (b: any, worker: ReturnType<typeof buildDocumentWorker>) => Promise<void>,
): Promise<void> {
  await runtime.workers.documents.stop();
  if (opts.tsa) runtime.tsa.setMode(opts.tsa);
  try {
    const b = await aBundle();
    await signToCompletion(b);
    const worker = buildDocumentWorker({
      config: runtime.config,
      db: runtime.db,
      ...(opts.pdf ? { pdf: opts.pdf } : {}),
      log: createLogger('silent'),
    });
    await run(b, worker);
  } finally {
    runtime.tsa.setMode('ok');
    runtime.workers.documents.start();
  }
}

async function aBundle(c = call, overrides: Record<string, unknown> = {}) {
  const res = await c('POST', '/bundles/', {
    json: {
      label: 'Evidence lease',
      packets: [
        { key: 'ann', name: 'Ann Lee', email: 'ann@example.com', deliver_via: 'embed' },
        { key: 'bob', name: 'Bob Roe', email: 'bob@example.com', deliver_via: 'embed' },
      ],
      documents: [{ key: 'lease', file_b64: pdf, fields }],
      ...overrides,
    },
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

const sessionFor = (packetId: string, c = call) => openSession(sign, c, packetId);

async function fillAnn(session: string) {
  const res = await sign('PUT', '/values', session, {
    values: [
      { doc_key: 'lease', field_key: 'sig', image: PNG_DATA_URL },
      { doc_key: 'lease', field_key: 'email', value: 'ann.evidence@example.com' },
      { doc_key: 'lease', field_key: 'agree', value: 'true' },
      { doc_key: 'lease', field_key: 'plan', value: 'Premium' },
      { doc_key: 'lease', field_key: 'notes', value: 'Keys handed over at noon' },
    ],
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const upload = await sign(
    'POST',
    '/attachments?doc_key=lease&field_key=id_copy&name=id-card.png',
    session,
    undefined,
    { body: Buffer.from(PNG_DATA_URL.split(',')[1]!, 'base64'), type: 'image/png' },
  );
  expect(upload.status, JSON.stringify(upload.body)).toBe(200);
}

/** Both signers fill their fields and finish through the signer API. */
async function signToCompletion(b: { packets: { id: string }[] }, c = call) {
  const ann = await sessionFor(b.packets[0]!.id, c);
  await fillAnn(ann);
  expect((await sign('POST', '/complete', ann, { consent: true })).status).toBe(200);
  const bob = await sessionFor(b.packets[1]!.id, c);
  const typed = await sign('PUT', '/values', bob, {
    values: [{ doc_key: 'lease', field_key: 'bob_sig', value: 'typed:Bob Roe' }],
  });
  expect(typed.status).toBe(200);
  expect((await sign('POST', '/complete', bob, { consent: true })).status).toBe(200);
}

async function docsReady(id: string, c = call) {
  return eventually(
    async () => {
      const b = (await c('GET', `/bundles/${id}/`)).body;
      return b.docs_ready || b.status === 'fa' ? b : undefined;
    },
    60_000,
    'documents ready',
  );
}

async function download(url: string): Promise<Buffer> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

/** A page as PNG in test-artifacts, to look at. */
const pngOf = (bytes: Buffer, name: string, page: number) =>
  savePagePng(bytes, page, join(ARTIFACTS, `${name}.png`));

const kinds = (events: { kind: string }[]) => events.map((e) => e.kind);

/** The queue's delivery of a bundle's final-documents job, as its `attempt`-th receive. */
const finalJobEvent = (bundleId: string, attempt: number): SQSEvent => ({
  Records: [
    {
      messageId: `m${attempt}`,
      receiptHandle: 'not-a-real-handle',
      body: JSON.stringify({ type: 'final', accountId: runtime.demo.accountId, bundleId, seq: 1, date: '' }),
      attributes: { ApproximateReceiveCount: String(attempt) },
    } as unknown as SQSEvent['Records'][number],
  ],
});

describe('a completed bundle', () => {
  let b: { id: string; packets: { id: string; key: string }[] };
  let webhookId: string;
  let files: {
    file_url: string;
    expires: string;
    doc_key: string;
    kind: string;
    sha256?: string;
    packet_id?: string;
    name: string;
  }[];
  let finalPdf: Buffer;
  let coePdf: Buffer;

  beforeAll(async () => {
    b = await aBundle();
    const webhook = await call('POST', '/webhooks/', {
      json: { url: receiver.url('/docs-ready'), event_types: ['bundle_docs_ready'] },
    });
    expect(webhook.status).toBe(201);
    webhookId = webhook.body.id;
    await signToCompletion(b);
    const ready = await docsReady(b.id);
    expect(ready.status).toBe('co');
    expect(ready.docs_ready).toBe(true);
    const res = await call('GET', `/bundles/${b.id}/files/`);
    expect(res.status, res.text).toBe(200);
    files = res.body;
  }, 120_000);

  it('lists the final document, the attachment and a certificate per signer, with working links', async () => {
    expect(files.map((f) => [f.kind, f.doc_key])).toEqual([
      ['final', 'lease'],
      ['attachment', 'lease'],
      ['certificate', 'coe-ann'],
      ['certificate', 'coe-bob'],
    ]);
    for (const f of files) expect(Date.parse(f.expires)).toBeGreaterThan(Date.now());
    const attachment = files.find((f) => f.kind === 'attachment')!;
    expect(attachment).toMatchObject({
      name: 'id-card.png',
      field_key: 'id_copy',
      packet_id: b.packets[0]!.id,
    });
    expect(
      (await download(attachment.file_url)).equals(Buffer.from(PNG_DATA_URL.split(',')[1]!, 'base64')),
    ).toBe(true);
    finalPdf = await download(files[0]!.file_url);
    coePdf = await download(files.find((f) => f.doc_key === 'coe-ann')!.file_url);
    // What is served is what was recorded.
    expect(sha(finalPdf)).toBe(files[0]!.sha256);
    expect(sha(coePdf)).toBe(files.find((f) => f.doc_key === 'coe-ann')!.sha256);
    // The same in ?include=files.
    const included = await call('GET', `/bundles/${b.id}/?include=files`);
    expect(included.body.files.map((f: { doc_key: string }) => f.doc_key)).toEqual(
      files.map((f) => f.doc_key),
    );
  });

  it('carries its evidence record inside it, as pdfdetach finds it: chain, originals, signers', async () => {
    const attached = attachedFiles(finalPdf);
    expect([...attached.keys()]).toEqual([EVIDENCE_RECORD_NAME]);
    const record = parseEvidenceRecord(attached.get(EVIDENCE_RECORD_NAME)!);
    expect(record, 'a record of this format').toBeDefined();
    // The chain recomputes to the head the bundle keeps, from the events alone.
    const bundle = (await call('GET', `/bundles/${b.id}/?include=events`)).body;
    expect(record!.audit_trail.events.length).toBeGreaterThan(5);
    expect(
      checkEvidenceRecord(record!, { originalSha256s: { lease: sha(Buffer.from(pdf, 'base64')) } }),
    ).toEqual({
      chainIntact: true,
      headMatches: true,
      originals: { lease: true },
      problems: [],
    });
    expect(record!.audit_trail.events.map((e) => e.kind)).toEqual(
      bundle.events.slice(0, record!.audit_trail.events.length).map((e: { kind: string }) => e.kind),
    );
    expect(record!.document).toMatchObject({
      key: 'lease',
      original_sha256: sha(Buffer.from(pdf, 'base64')),
    });
    expect(record!.signers.map((s) => [s.name, s.status, s.authentication.length > 0])).toEqual([
      ['Ann Lee', 'co', true],
      ['Bob Roe', 'co', true],
    ]);
    // Inside what the seal covers: the seal still holds over the whole file.
    expect(readSeal(finalPdf)).toMatchObject({ valid: true, coversWholeFile: true });
    expect(pdfsig(finalPdf).split(/Signature #\d+:/)[1]).toContain('Signature is Valid.');
  });

  it('is verified offline by esign-verify: B-LTA over the whole file, revocation data for every certificate, the evidence record and the original', () => {
    const dir = mkdtempSync(join(tmpdir(), 'esign-verify-final-'));
    try {
      writeFileSync(join(dir, 'final.pdf'), finalPdf);
      writeFileSync(join(dir, 'original.pdf'), Buffer.from(pdf, 'base64'));
      writeFileSync(join(dir, 'root.pem'), runtime.tsa.rootPem);
      const bin = join(__dirname, '..', '..', 'bin', 'esign-verify.mjs');
      const run = spawnSync(
        process.execPath,
        [bin, '--json', '--trust', 'root.pem', '--original', 'original.pdf', 'final.pdf'],
        { cwd: dir, encoding: 'utf8' },
      );
      expect(run.status, run.stdout + run.stderr).toBe(0);
      const report = JSON.parse(run.stdout) as TVerifyReport;
      expect(report.result).toBe('pass');
      expect(report.signatures.map((x) => [x.kind, x.coversWholeFile])).toEqual([
        ['signature', false],
        ['document timestamp', true],
      ]);
      expect(report.evidenceRecord).toMatchObject({
        status: 'embedded',
        chainIntact: true,
        headMatches: true,
        originals: [{ document: 'lease' }],
      });
      // Nothing the file needs is missing: no check fails or warns.
      expect(report.checks.filter((c) => c.status === 'fail' || c.status === 'warn')).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('stamps every value into the final document and seals it', () => {
    const text = textOf(finalPdf);
    for (const value of [
      'ann.evidence@example.com',
      'Premium',
      'Keys handed over at noon',
      'Ann Lee',
      'Bob Roe',
    ]) {
      expect(text, value).toContain(value);
    }
    // The audit page names the bundle and its chain head.
    expect(text).toContain(b.id);
    const sig = pdfsig(finalPdf);
    expect(sig).toContain('Signature is Valid.');
    expect(sig).toContain('Total document signed');
    // Sealed by the KMS stand-in's key, whose certificate the local CA issued: the CMS carries
    // the chain, and openssl verifies the seal against the local root alone.
    expect(sig).toContain(
      `Signer Certificate Common Name: ${LOCAL_SEAL_SUBJECT.replace(/^CN=([^,]*),.*$/, '$1')}`,
    );
    const { cms, signed } = sealCmsOf(finalPdf);
    expect(opensslCmsVerify(cms, signed, runtime.ca.root.toString('pem'))).toContain(
      'Verification successful',
    );
    const pages = pageTexts(finalPdf).length;
    pngOf(finalPdf, 'evidence-final-page-1', 1);
    pngOf(finalPdf, 'evidence-final-audit-page', pages);
  });

  it('timestamps the seals of the final document and the certificate (PAdES B-T), as openssl verifies', () => {
    for (const pdf of [finalPdf, coePdf]) {
      const stamp = signatureTimestampOf(pdf);
      expect(stamp, 'the seal carries a signature timestamp').toBeDefined();
      expect(opensslVerifyTimestamp(stamp!.token, stamp!.imprint, runtime.tsa.rootPem)).toMatch(
        /Verification: OK/,
      );
    }
  });

  it('ends each sealed file in an archive timestamp over the whole file, after the validation data (PAdES B-LTA)', () => {
    for (const pdf of [finalPdf, coePdf]) {
      const archive = archiveTimestampOf(pdf);
      expect(archive, 'the file ends in an archive timestamp').toBeDefined();
      expect(opensslVerifyTimestampOf(archive!.token, archive!.data, runtime.tsa.rootPem)).toMatch(
        /Verification: OK/,
      );
      expect(Buffer.from(pdf).toString('latin1')).toMatch(/\/DSS \d+ 0 R/);
      const [seal, last] = pdfsig(pdf)
        .split(/Signature #\d+:/)
        .slice(1);
      expect(seal).toContain('Signature is Valid.');
      expect(last).toContain('Total document signed');
    }
  });

  it('seals a Certificate of Evidence per signer, served with its SHA-256', async () => {
    const coeText = textOf(coePdf);
    expect(coeText).toContain('Ann Lee');
    expect(coeText).toContain(b.packets[0]!.id);
    expect(pdfsig(coePdf)).toContain('Signature is Valid.');
    pngOf(coePdf, 'evidence-certificate-page-1', 1);
    for (const p of b.packets) {
      const res = await call('GET', `/packets/${p.id}/coe/`);
      expect(res.status, res.text).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(['expires', 'file_url', 'sha256']);
      expect(sha(await download(res.body.file_url))).toBe(res.body.sha256);
    }
  });

  it('records one documents-ready event, fires bundle_docs_ready and keeps the audit chain whole', async () => {
    const events = (await call('GET', `/bundles/${b.id}/events/`)).body;
    expect(kinds(events).filter((k) => k === 'co')).toHaveLength(1);
    expect(kinds(events).filter((k) => k === 'dk')).toHaveLength(1);
    expect(kinds(events).indexOf('dk')).toBeGreaterThan(kinds(events).indexOf('co'));
    const calls = await eventually(
      () => receiver.callsTo('/docs-ready').length > 0 && receiver.callsTo('/docs-ready'),
    );
    expect(JSON.parse(calls[0]!.body)).toMatchObject({
      event_type: 'bundle_docs_ready',
      payload: { bundle_id: b.id },
    });
    await call('DELETE', `/webhooks/${webhookId}/`);
  });

  describe('verifies a sealed file by upload, by multipart and by hash, for its own account only', () => {
    it('by upload: a match with the offline verifier’s report, and a failure once a byte is appended', async () => {
      const byUpload = await call('POST', '/verify/', { raw: finalPdf, contentType: 'application/pdf' });
      expect(byUpload.status, byUpload.text).toBe(200);
      expect(byUpload.body).toMatchObject({
        match: true,
        kind: 'final',
        sha256: sha(finalPdf),
        doc_key: 'lease',
        bundle: { id: b.id, label: 'Evidence lease', status: 'co' },
        audit_chain_intact: true,
        sealed: true,
      });
      expect(byUpload.body.signers.map((s: { name: string }) => s.name)).toEqual(['Ann Lee', 'Bob Roe']);
      // The offline verifier's report, the same esign-verify prints: the seal (B-T), covered by the
      // archive timestamp over the whole file after the DSS (B-LTA), and the evidence record.
      const checks = byUpload.body.checks;
      expect(checks).toMatchObject({
        result: 'pass',
        file: { sha256: sha(finalPdf), bytes: finalPdf.length },
        signatures: [
          { index: 1, kind: 'signature', digestMatches: true, signatureValid: true, coveredBy: [2] },
          { index: 2, kind: 'document timestamp', digestMatches: true, coversWholeFile: true },
        ],
        evidenceRecord: { status: 'embedded', document: 'lease', chainIntact: true, headMatches: true },
      });
      expect(checks.dss.certs.length).toBeGreaterThanOrEqual(3);
      const status = (r: typeof checks, id: string) =>
        r.checks.find((c: { id: string }) => c.id === id)?.status;
      expect(status(checks, 'signature-1.timestamp')).toBe('pass');
      expect(status(checks, 'chain-1.trust')).toBe('info');
      const appended = await call('POST', '/verify/', {
        raw: Buffer.concat([finalPdf, Buffer.from('x')]),
        contentType: 'application/pdf',
      });
      expect(appended.body).toMatchObject({ match: false, sealed: false, checks: { result: 'fail' } });
      // The archive timestamp, last in the file, no longer reaches its end.
      expect(status(appended.body.checks, 'signature-2.coverage')).toBe('fail');
      expect(status(checks, 'evidence-record.chain')).toBe('pass');
    });

    it('by multipart: the Certificate of Evidence matches', async () => {
      const form = new FormData();
      form.append('file', new Blob([coePdf], { type: 'application/pdf' }), 'coe.pdf');
      const multipart = await fetch(`${runtime.apiUrl}verify/`, {
        method: 'POST',
        headers: { authorization: `Token ${runtime.demo.apiKey}` },
        body: form,
      });
      const coe = (await multipart.json()) as Record<string, unknown>;
      expect(coe).toMatchObject({
        match: true,
        kind: 'certificate',
        packet_id: b.packets[0]!.id,
        sealed: true,
      });
      expect((coe.signers as { name: string }[]).map((s) => s.name)).toEqual(['Ann Lee']);
    });

    it('by hash: a match without checks; an unknown file fails and a malformed hash is a 400', async () => {
      const byHash = await call('POST', '/verify/', { json: { sha256: sha(finalPdf).toUpperCase() } });
      expect(byHash.body).toMatchObject({
        match: true,
        kind: 'final',
        audit_chain_intact: true,
        sealed: true,
        checks: null,
      });

      const unknown = await call('POST', '/verify/', {
        raw: Buffer.from(pdf, 'base64'),
        contentType: 'application/pdf',
      });
      expect(unknown.body).toMatchObject({
        match: false,
        kind: null,
        bundle: null,
        signers: [],
        sealed: false,
        checks: { result: 'fail' },
      });
      expect(unknown.body.checks.checks[0]).toMatchObject({ id: 'signatures', status: 'fail' });
      const bad = await call('POST', '/verify/', { json: { sha256: 'nope' } });
      expect(bad.status).toBe(400);
      expect(isErrorBody(bad.body)).toBe(true);
    });

    it('for its own account only: another account finds no match, and no key is a 401', async () => {
      const other = await runtime.seedAccount('Other', 'other@example.com');
      const theirs = apiClient(runtime, other.apiKey);
      const foreign = await theirs('POST', '/verify/', { raw: finalPdf, contentType: 'application/pdf' });
      expect(foreign.body).toMatchObject({
        match: false,
        bundle: null,
        audit_chain_intact: null,
        sealed: true,
      });
      expect((await theirs('POST', '/verify/', { json: { sha256: sha(finalPdf) } })).body.match).toBe(false);
      expect((await call('POST', '/verify/', { json: { sha256: sha(finalPdf) }, key: null })).status).toBe(
        401,
      );
    });
  });

  it('answers a file whose last /ByteRange points past its end with a failing report, not a 500', async () => {
    const broken = Buffer.from(finalPdf);
    const text = broken.toString('latin1');
    const at = text.lastIndexOf('/ByteRange');
    const range = /\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)/.exec(text.slice(at))!;
    const last = range[4]!;
    broken.write('9'.repeat(last.length), at + range.index + range[0].length - last.length, 'latin1');
    const res = await fetch(`${runtime.baseUrl}/verify/api/check`, {
      method: 'POST',
      headers: { 'content-type': 'application/pdf' },
      body: broken,
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { checks: TVerifyReport };
    expect(body.checks.result).toBe('fail');
    expect(body.checks.signatures.at(-1)!.problem).toBe(
      'its /ByteRange does not frame its /Contents within the file',
    );
  });

  describe('answers the public check with what the file says, and nothing about the account', () => {
    it('the public check says what the file is, and nothing about the account', async () => {
      const res = await fetch(`${runtime.baseUrl}/verify/api/check`, {
        method: 'POST',
        headers: { 'content-type': 'application/pdf' },
        body: finalPdf,
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as Record<string, unknown>;
      // content_deleted_at: only a date (when a retention policy deleted the file), null here.
      expect(Object.keys(body).sort()).toEqual([
        'audit_trail_intact',
        'checks',
        'content_deleted_at',
        'kind',
        'known',
        'seal',
        'sealed',
        'sha256',
        'verdict',
      ]);
      expect(body).toMatchObject({
        known: true,
        kind: 'final',
        sealed: true,
        content_deleted_at: null,
        audit_trail_intact: true,
        seal: {
          valid: true,
          covers_whole_file: true,
          signed_by: expect.any(String),
          signed_at: expect.any(String),
        },
      });
      const text = JSON.stringify(body);
      for (const secret of [
        b.id,
        'Ann Lee',
        'ann.evidence@example.com',
        runtime.demo.accountId,
        'Evidence lease',
      ]) {
        expect(text).not.toContain(secret);
      }
    });

    it('a byte changed where the seal covers it fails the public check', async () => {
      // A byte of the document the seal covers (its first range; the seal's own slot comes later).
      const changed = Buffer.from(finalPdf);
      const at = Math.floor(changed.length / 10);
      changed[at] = changed[at]! ^ 0x20;
      const after = (await (
        await fetch(`${runtime.baseUrl}/verify/api/check`, {
          method: 'POST',
          headers: { 'content-type': 'application/pdf' },
          body: changed,
        })
      ).json()) as { known: boolean; sealed: boolean; seal: { valid: boolean }; checks: TVerifyReport };
      expect(after).toMatchObject({ known: false, sealed: false, seal: { valid: false } });
      expect(after.checks.result).toBe('fail');
      expect(after.checks.checks.filter((c) => c.status === 'fail').map((c) => c.id)).toContain(
        'signature-1.digest',
      );
    });

    it('the verify page checks with and without JavaScript, and shows the check lines', async () => {
      const page = await fetch(`${runtime.baseUrl}/verify`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
      const html = await page.text();
      expect(html).toContain('<form id="verify-form" method="post"');
      expect(html).toContain('enctype="multipart/form-data"');
      const script = await fetch(`${runtime.baseUrl}/verify/assets/verify.js`);
      expect(script.status).toBe(200);
      expect(await script.text()).toContain("'/check'");
      // Without JavaScript: the form posts here and gets the result page.
      const form = new FormData();
      form.append('file', new Blob([coePdf], { type: 'application/pdf' }), 'coe.pdf');
      const result = await fetch(`${runtime.baseUrl}/verify`, { method: 'POST', body: form });
      expect(result.status).toBe(200);
      const shown = await result.text();
      expect(shown).toContain('This is a Certificate of Evidence sealed by this service');
      // The same check lines esign-verify prints, below the verdict (the names in them isolated).
      expect(shown).toContain('<h3>Checks of the file itself</h3>');
      expect(shown).toMatch(
        /<li class="check pass"><strong>PASS<\/strong> Signature 1 \(<bdi>[^<]*<\/bdi>\): the bytes it signed are unchanged\.<\/li>/,
      );
      expect(await (await fetch(`${runtime.baseUrl}/verify/assets/verify.js`)).text()).toContain(
        'showChecks(r.checks, detailsOf(lines))',
      );
      expect(shown).not.toContain('Ann Lee');
    });
  });
});

describe("an account's own seal", () => {
  it("seals that account's final documents and certificates, and names it on the audit page", async () => {
    const acme = await runtime.seedAccount('Acme Seal Co', 'seal@acme.test');
    const theirs = apiClient(runtime, acme.apiKey);
    // What seal-csr and seal-install-cert --account do, with the local CA as the CA.
    const seal = runtime.config.seal;
    if (seal?.kind !== 'kms' || seal.chains.kind !== 'local') throw new Error('the local seal is KMS');
    const kms = new KMSClient({
      region: runtime.config.region,
      endpoint: runtime.config.endpoints.kms!,
      credentials: runtime.config.credentials!,
    });
    try {
      await ensureLocalSeal({
        kms,
        ca: runtime.ca,
        chains: createLocalSealChains(seal.chains.dir, seal.name),
        name: seal.name,
        accountId: acme.accountId,
        subject: 'CN=Acme Seal Co seal, O=Acme Seal Co',
        keySpec: 'ECC_NIST_P256',
      });
    } finally {
      kms.destroy();
    }

    const b = await aBundle(theirs);
    await signToCompletion(b, theirs);
    expect((await docsReady(b.id, theirs)).docs_ready).toBe(true);
    const files = (await theirs('GET', `/bundles/${b.id}/files/`)).body as {
      kind: string;
      file_url: string;
    }[];
    const final = await download(files.find((f) => f.kind === 'final')!.file_url);
    const certificate = await download(files.find((f) => f.kind === 'certificate')!.file_url);
    for (const sealed of [final, certificate]) {
      const report = pdfsig(sealed);
      expect(report).toContain('Signature is Valid.');
      expect(report).toContain('Signer Certificate Common Name: Acme Seal Co seal');
    }
    expect(textOf(final)).toContain('Acme Seal Co seal');
    // The demo account's bundles keep the service's seal.
    expect(pdfsig(await sealedByDemo())).toContain(
      `Signer Certificate Common Name: ${LOCAL_SEAL_SUBJECT.replace(/^CN=([^,]*),.*$/, '$1')}`,
    );
  }, 120_000);
});

/** A final document of a demo account bundle, signed to completion now. */
async function sealedByDemo(): Promise<Buffer> {
  const b = await aBundle();
  await signToCompletion(b);
  await docsReady(b.id);
  const files = (await call('GET', `/bundles/${b.id}/files/`)).body as { kind: string; file_url: string }[];
  return download(files.find((f) => f.kind === 'final')!.file_url);
}

describe('a tampered audit trail', () => {
  it('is found by verification: the chain is recomputed', async () => {
    const b = await aBundle();
    await signToCompletion(b);
    expect((await docsReady(b.id)).docs_ready).toBe(true);
    const files = (await call('GET', `/bundles/${b.id}/files/`)).body;
    const finalPdf = await download(files[0].file_url);
    expect(
      (await call('POST', '/verify/', { raw: finalPdf, contentType: 'application/pdf' })).body
        .audit_chain_intact,
    ).toBe(true);

    await runtime.db.send(
      new UpdateCommand({
        TableName: runtime.config.tableName,
        Key: bundleKeys.item(runtime.demo.accountId, b.id),
        UpdateExpression: 'SET events[0].description = :d',
        ExpressionAttributeValues: { ':d': 'Bundle created (edited later)' },
      }),
    );
    const verified = await call('POST', '/verify/', { raw: finalPdf, contentType: 'application/pdf' });
    expect(verified.body).toMatchObject({ match: true, audit_chain_intact: false, sealed: true });
    const publicCheck = (await (
      await fetch(`${runtime.baseUrl}/verify/api/check`, {
        method: 'POST',
        headers: { 'content-type': 'application/pdf' },
        body: finalPdf,
      })
    ).json()) as { known: boolean; audit_trail_intact: boolean };
    expect(publicCheck).toMatchObject({ known: true, audit_trail_intact: false });
  }, 120_000);
});

/** The worker's dependencies, as its composition root builds them, with parts to replace. */
function workerDeps(
  over: { blobs?: TBlobStore; pdf?: TEvidencePdf; clock?: { now(): Date } } = {},
): TEvidenceDeps {
  return {
    bundles: createCountingBundleStore(runtime.config, runtime.db),
    records: createSigningRecordStore(runtime.db, runtime.config.tableName),
    blobs: over.blobs ?? documentBlobs(runtime.config, runtime.db),
    evidence: createEvidenceStore(runtime.db, runtime.config.tableName),
    pdf: over.pdf ?? createEvidencePdf(sealIdentityFromConfig(runtime.config)),
    clock: over.clock ?? systemClock,
    ids: randomIds,
  };
}

describe('a document worker that dies half-way', () => {
  it('is finished by the next run: one set of files, one dk event', async () => {
    const evidence = createEvidenceStore(runtime.db, runtime.config.tableName);
    const blobs = documentBlobs(runtime.config, runtime.db);
    // The queued job waits while the worker is stopped; the test runs the use case itself.
    await runtime.workers.documents.stop();
    try {
      const b = await aBundle();
      await signToCompletion(b);
      const job = { accountId: runtime.demo.accountId, bundleId: b.id };

      // 1. A crash after the final document is stored, before the certificates.
      let puts = 0;
      const crashing: TBlobStore = {
        ...blobs,
        async put(key, bytes, type) {
          if (++puts > 1) throw new Error('killed');
          await blobs.put(key, bytes, type);
        },
      };
      await expect(produceFinalFiles(workerDeps({ blobs: crashing }), job)).rejects.toThrow('killed');
      expect((await call('GET', `/bundles/${b.id}/`)).body.docs_ready).toBe(false);
      expect((await evidence.get(job.accountId, b.id))?.issuedAt).toBeUndefined();
      expect((await evidence.get(job.accountId, b.id))?.lease).toBeUndefined();

      // 2. A run killed outright keeps its lease: another waits until it lapses.
      const now = Date.now();
      expect(
        await evidence.claimFinal(
          job.accountId,
          b.id,
          { id: 'dead', until: new Date(now + FINAL_LEASE_SECONDS * 1000).toISOString() },
          new Date(now).toISOString(),
        ),
      ).toBe(true);
      const waits = await produceFinalFiles(workerDeps(), job);
      expect(waits.kind).toBe('wait');

      // 3. After the lease lapsed, a run makes the whole set and sets docs_ready.
      const later = { now: () => new Date(Date.now() + (FINAL_LEASE_SECONDS + 5) * 1000) };
      expect((await produceFinalFiles(workerDeps({ clock: later }), job)).kind).toBe('done');
      const record = (await evidence.get(job.accountId, b.id))!;
      expect(record.finals).toHaveLength(1);
      expect(record.certificates).toHaveLength(2);
      for (const f of [...record.finals, ...record.certificates]) {
        expect(sha(await blobs.get(f.blobKey))).toBe(f.sha256);
        expect(await evidence.getHash(f.sha256, job.accountId)).toMatchObject({ bundleId: b.id });
      }

      // 4. A duplicate, and the queued job itself once the worker is back, change nothing.
      expect(await produceFinalFiles(workerDeps(), job)).toEqual({
        kind: 'done',
        detail: 'documents were ready already',
      });
      runtime.workers.documents.start();
      await new Promise((r) => setTimeout(r, 1500));
      const events = (await call('GET', `/bundles/${b.id}/events/`)).body;
      expect(kinds(events).filter((k) => k === 'dk')).toHaveLength(1);
      const after = (await evidence.get(job.accountId, b.id))!;
      expect(after.finals).toEqual(record.finals);
      expect(after.certificates).toEqual(record.certificates);
      const files = (await call('GET', `/bundles/${b.id}/files/`)).body;
      expect(files.filter((f: { kind: string }) => f.kind === 'final')).toHaveLength(1);
      expect(files.filter((f: { kind: string }) => f.kind === 'certificate')).toHaveLength(2);
    } finally {
      if (!runtime.workers.documents.running) runtime.workers.documents.start();
    }
  }, 120_000);
});

describe('a bundle whose evidence cannot be made', () => {
  it('fails at once for a corrupt original: fa, errors, bundle_error', async () => {
    const b = await aBundle();
    const hook = await call('POST', '/webhooks/', {
      json: { url: receiver.url('/errors'), event_types: ['bundle_error'] },
    });
    expect(hook.status).toBe(201);
    await documentBlobs(runtime.config, runtime.db).put(
      `accounts/${runtime.demo.accountId}/bundles/${b.id}/originals/lease.pdf`,
      Buffer.from('this is not a PDF at all'),
      'application/pdf',
    );
    await signToCompletion(b);
    const failed = await docsReady(b.id);
    expect(failed.status).toBe('fa');
    expect(failed.docs_ready).toBe(false);
    expect(failed.errors).toEqual([
      { code: 'document_corrupt', message: expect.stringContaining('"lease"') },
    ]);
    const events = (await call('GET', `/bundles/${b.id}/events/`)).body;
    expect(kinds(events).filter((k) => k === 'fa')).toHaveLength(1);
    expect(kinds(events)).not.toContain('dk');
    const calls = await eventually(
      () => receiver.callsTo('/errors').length > 0 && receiver.callsTo('/errors'),
    );
    expect(JSON.parse(calls[0]!.body)).toMatchObject({
      event_type: 'bundle_error',
      payload: { bundle_id: b.id },
    });
    expect((await call('GET', `/bundles/${b.id}/files/`)).status).toBe(409);
    expect((await call('GET', `/packets/${b.packets[0].id}/coe/`)).status).toBe(409);
    await call('DELETE', `/webhooks/${hook.body.id}/`);
  }, 120_000);

  it('fails at once for an original that is gone from storage: document_missing, never a retry', async () => {
    const b = await aBundle();
    await createS3Client(runtime.config).send(
      new DeleteObjectCommand({
        Bucket: runtime.config.bucketName,
        Key: `accounts/${runtime.demo.accountId}/bundles/${b.id}/originals/lease.pdf`,
      }),
    );
    await signToCompletion(b);
    const failed = await docsReady(b.id);
    expect(failed.status).toBe('fa');
    expect(failed.errors).toEqual([
      { code: 'document_missing', message: expect.stringContaining('"lease"') },
    ]);
  }, 120_000);

  it('never seals without a timestamp: an authority that is down is retried, then the bundle fails', async () => {
    await withJobsByHand({ tsa: 'down' }, async (b, worker) => {
      for (let attempt = 1; attempt <= DOCUMENT_MAX_ATTEMPTS; attempt++) {
        const answer = await worker(finalJobEvent(b.id, attempt));
        expect(answer.batchItemFailures).toHaveLength(attempt < DOCUMENT_MAX_ATTEMPTS ? 1 : 0);
        if (attempt === DOCUMENT_MAX_ATTEMPTS) break;
        // While the job waits for its next attempt, the bundle says why.
        const waiting = (await call('GET', `/bundles/${b.id}/`)).body;
        expect(waiting.status).toBe('co');
        expect(waiting.errors).toEqual([
          {
            code: 'timestamp_unavailable',
            message: `The final documents could not be sealed: no timestamp authority gave a valid timestamp (${attempt} attempt(s)). ${runtime.tsa.url}: HTTP 503.`,
          },
        ]);
        const events = (await call('GET', `/bundles/${b.id}/events/`)).body;
        expect(kinds(events).filter((k) => k === 'ed')).toHaveLength(attempt);
      }
      const failed = (await call('GET', `/bundles/${b.id}/`)).body;
      expect(failed.status).toBe('fa');
      expect(failed.errors).toEqual([
        {
          code: 'timestamp_unavailable',
          message: `The final documents could not be sealed: no timestamp authority gave a valid timestamp (${DOCUMENT_MAX_ATTEMPTS} attempt(s)). ${runtime.tsa.url}: HTTP 503.`,
        },
      ]);
      expect((await call('GET', `/bundles/${b.id}/files/`)).status).toBe(409);
    });
  }, 120_000);

  it.each([
    ['wrong-nonce', /does not carry the nonce of the request/],
    ['wrong-imprint', /stamps another message imprint/],
    ['no-eku', /may not issue timestamps/],
    ['forged', /token signature does not verify/],
    ['garbage', /the answer is not (DER|a TimeStampResp)/],
  ] as const)(
    'refuses an authority that answers %s: the job is retried and the bundle says why',
    async (mode, why) => {
      await withJobsByHand({ tsa: mode }, async (b, worker) => {
        expect((await worker(finalJobEvent(b.id, 1))).batchItemFailures).toHaveLength(1);
        const waiting = (await call('GET', `/bundles/${b.id}/`)).body;
        expect(waiting.status).toBe('co');
        expect(waiting.docs_ready).toBe(false);
        expect(waiting.errors).toHaveLength(1);
        expect(waiting.errors[0].code).toBe('timestamp_unavailable');
        expect(waiting.errors[0].message).toMatch(why);
        // Nothing sealed without its timestamp.
        expect((await call('GET', `/bundles/${b.id}/files/`)).status).toBe(409);
      });
    },
    60_000,
  );

  it('makes the documents once the timestamp authority is back, and the delay leaves the errors', async () => {
    await withJobsByHand({ tsa: 'garbage' }, async (b, worker) => {
      expect((await worker(finalJobEvent(b.id, 1))).batchItemFailures).toHaveLength(1);
      const waiting = (await call('GET', `/bundles/${b.id}/`)).body;
      expect(waiting.errors.map((e: { code: string }) => e.code)).toEqual(['timestamp_unavailable']);
      runtime.tsa.setMode('ok');
      expect((await worker(finalJobEvent(b.id, 2))).batchItemFailures).toEqual([]);
      const ready = (await call('GET', `/bundles/${b.id}/`)).body;
      expect(ready.docs_ready).toBe(true);
      expect(ready.errors).toEqual([]);
      const listed = (await call('GET', `/bundles/${b.id}/files/`)).body as {
        kind: string;
        file_url: string;
      }[];
      const stamp = signatureTimestampOf(await download(listed.find((f) => f.kind === 'final')!.file_url));
      expect(opensslVerifyTimestamp(stamp!.token, stamp!.imprint, runtime.tsa.rootPem)).toMatch(
        /Verification: OK/,
      );
    });
  }, 120_000);

  it('retries a failing job with growing delays, and marks the bundle failed after the last attempt', async () => {
    const broken: TEvidencePdf = {
      renderFinal: () =>
        Promise.reject(Object.assign(new Error('renderer crashed: internal detail'), { name: 'RangeError' })),
      renderCertificate: () => Promise.reject(new Error('no')),
      seal: () => Promise.reject(new Error('no')),
    };
    await withJobsByHand({ pdf: broken }, async (b, worker) => {
      const event = (attempt: number) => finalJobEvent(b.id, attempt);
      for (let attempt = 1; attempt < DOCUMENT_MAX_ATTEMPTS; attempt++) {
        expect(await worker(event(attempt))).toEqual({
          batchItemFailures: [{ itemIdentifier: `m${attempt}` }],
        });
        expect((await call('GET', `/bundles/${b.id}/`)).body.status).toBe('co');
      }
      expect(await worker(event(DOCUMENT_MAX_ATTEMPTS))).toEqual({ batchItemFailures: [] });
      const failed = (await call('GET', `/bundles/${b.id}/`)).body;
      expect(failed.status).toBe('fa');
      expect(failed.errors).toEqual([
        {
          code: 'evidence_failed',
          message: `The final documents could not be produced (RangeError; ${DOCUMENT_MAX_ATTEMPTS} attempt(s)).`,
        },
      ]);
      expect(JSON.stringify(failed)).not.toContain('internal detail');
    });
  }, 120_000);
});

describe('interim files', () => {
  it('are made on request for an account with early file access, and polled with GET', async () => {
    const early = await runtime.seedAccount('Early', 'early@example.com');
    await createAccountStore(runtime.db, runtime.config.tableName).setFeatures(early.accountId, {
      early_file_access: true,
    });
    const theirs = apiClient(runtime, early.apiKey);
    const b = await aBundle(theirs);
    const before = await theirs('GET', `/bundles/${b.id}/files/`);
    expect(before.body.map((f: { kind: string }) => f.kind)).toEqual(['original']);
    await fillAnn(await sessionFor(b.packets[0].id, theirs));

    const requested = await theirs('PUT', `/bundles/${b.id}/files/`);
    expect(requested.status, requested.text).toBe(202);
    const files = await eventually(
      async () => {
        const res = await theirs('GET', `/bundles/${b.id}/files/`);
        return res.body[0]?.kind === 'interim' ? res.body : undefined;
      },
      60_000,
      'interim files',
    );
    expect(files).toEqual([
      expect.objectContaining({ doc_key: 'lease', kind: 'interim', generated_at: expect.any(String) }),
    ]);
    const interim = await download(files[0].file_url);
    const text = textOf(interim);
    expect(text).toContain('ann.evidence@example.com');
    expect(text.toLowerCase()).toContain('interim');
    // Not sealed: nothing about it is final.
    expect(pdfsig(interim)).not.toContain('Signature is Valid');
    const events = (await theirs('GET', `/bundles/${b.id}/events/`)).body;
    expect(kinds(events)).toContain('if');
    // Unknown bundles are 404; a finished one is 409 (spec rule 3).
    expect((await theirs('PUT', '/bundles/XXXXXXXXXX/files/')).status).toBe(404);
    await theirs('PUT', `/bundles/${b.id}/cancel/`);
    const refused = await theirs('PUT', `/bundles/${b.id}/files/`);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('conflict');
  }, 120_000);

  it('need the early file access feature (403), and a bundle not yet finished (409)', async () => {
    const b = await aBundle();
    const denied = await call('PUT', `/bundles/${b.id}/files/`);
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe('permission_denied');
    expect((await call('GET', `/bundles/${b.id}/files/`)).status).toBe(409);
    const early = await runtime.seedAccount('Early 2', 'early2@example.com');
    await createAccountStore(runtime.db, runtime.config.tableName).setFeatures(early.accountId, {
      early_file_access: true,
    });
    const theirs = apiClient(runtime, early.apiKey);
    const done = await aBundle(theirs);
    await signToCompletion(done, theirs);
    await docsReady(done.id, theirs);
    expect((await theirs('PUT', `/bundles/${done.id}/files/`)).status).toBe(409);
    // Once the final documents exist, they are what files lists, early access or not.
    expect(
      (await theirs('GET', `/bundles/${done.id}/files/`)).body.map((f: { kind: string }) => f.kind),
    ).toEqual(['final', 'attachment', 'certificate', 'certificate']);
  }, 120_000);
});

describe('the certificate before it exists', () => {
  it('is 409 for a signer who finished while others have not', async () => {
    const b = await aBundle();
    const ann = await sessionFor(b.packets[0].id);
    await fillAnn(ann);
    expect((await sign('POST', '/complete', ann, { consent: true })).status).toBe(200);
    const res = await call('GET', `/packets/${b.packets[0].id}/coe/`);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('conflict');
  });
});
