// Retention by policy through the local runtime, with the scheduler run at a time the test picks:
// what is due is deleted for good (no S3 version left), the API answers 410, verify by hash
// still knows the file, a legal hold keeps everything until released, and a hold meeting a
// deletion has exactly one winner.
import { ListObjectVersionsCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { createS3Client } from '#shared/adapters/aws/clients';
import { retentionPrefixes } from '#shared/domain/bundles/retention';
import { aBundle, aPdfB64 } from '../helpers/bundles';
import { eventually } from '../helpers/receiver';
import { apiClient, startTestRuntime } from '../helpers/runtime';
import { openSession, signerClient } from '../helpers/signer';

const DAY = 86_400_000;

let runtime: TRuntime;
let call: ReturnType<typeof apiClient>;
let b64: string;

beforeAll(async () => {
  // No timer runs: every scheduler run here is one the test asks for, at the time it picks.
  runtime = await startTestRuntime({ schedulerIntervalMs: 3_600_000 });
  call = apiClient(runtime);
  b64 = await aPdfB64();
  const policy = { originals_days: 1, finals_days: 1, images_days: 1 };
  const set = await call('PUT', '/account/retention/', { json: policy });
  expect(set.status, set.text).toBe(200);
}, 60_000);
afterAll(() => runtime?.stop());

const run = (now: Date) => runtime.workers.runScheduler(now);

/** Every S3 version (and delete marker) left of the part's objects. */
async function versionsLeft(id: string, part: 'originals' | 'finals' | 'images'): Promise<number> {
  const s3 = createS3Client(runtime.config);
  let left = 0;
  for (const prefix of retentionPrefixes({ accountId: runtime.demo.accountId, id }, part)) {
    const out = await s3.send(
      new ListObjectVersionsCommand({ Bucket: runtime.config.bucketName, Prefix: prefix }),
    );
    left += (out.Versions ?? []).length + (out.DeleteMarkers ?? []).length;
  }
  return left;
}

async function cancelled(): Promise<string> {
  const made = await call('POST', '/bundles/', { json: aBundle({}, b64) });
  expect(made.status, made.text).toBe(201);
  expect((await call('PUT', `/bundles/${made.body.id}/cancel/`)).status).toBe(200);
  return made.body.id as string;
}

/** The /verify page's answer (the form, no script) to `file`, in `lang`. */
async function verifyPage(file: Buffer, lang: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([file], { type: 'application/pdf' }), 'file.pdf');
  const res = await fetch(`${runtime.baseUrl}/verify?lang=${lang}`, { method: 'POST', body: form });
  expect(res.status).toBe(200);
  return res.text();
}

const kinds = async (id: string) =>
  ((await call('GET', `/bundles/${id}/events/`)).body as { kind: string }[]).map((e) => e.kind);

describe('retention by policy', () => {
  it('deletes a complete bundle past its policy for good, answers 410, and verify by hash still knows it', async () => {
    const sign = signerClient(runtime);
    const made = await call('POST', '/bundles/', {
      json: {
        label: 'Kept one day',
        packets: [{ key: 'ann', name: 'Ann Lee', email: 'ann@example.com', deliver_via: 'embed' }],
        documents: [
          {
            key: 'doc',
            file_b64: b64,
            fields: [{ key: 'sig', kind: 'sig', page: 1, x: 10, y: 80, w: 30, h: 6, editors: ['ann'] }],
          },
        ],
      },
    });
    expect(made.status, made.text).toBe(201);
    const { id } = made.body;
    const packetId = made.body.packets[0].id;
    const session = await openSession(sign, call, packetId);
    const values = { values: [{ doc_key: 'doc', field_key: 'sig', value: 'typed:Ann Lee' }] };
    expect((await sign('PUT', '/values', session, values)).status).toBe(200);
    expect((await sign('POST', '/complete', session, { consent: true })).status).toBe(200);
    const ready = await eventually(
      async () => {
        const b = (await call('GET', `/bundles/${id}/`)).body;
        return b.docs_ready ? b : undefined;
      },
      90_000,
      'documents ready',
    );
    const files = (await call('GET', `/bundles/${id}/files/`)).body as {
      kind: string;
      sha256?: string;
      file_url: string;
    }[];
    const final = files.find((f) => f.kind === 'final')!;
    const { sha256 } = final;
    const copy = Buffer.from(await (await fetch(final.file_url)).arrayBuffer());
    expect(await versionsLeft(id, 'finals')).toBeGreaterThan(0);

    // A day later nothing is due yet; two days later everything is.
    expect((await run(new Date(Date.parse(ready.completed_at) + DAY / 2))).deleted).toBe(0);
    const later = new Date(Date.parse(ready.completed_at) + 2 * DAY);
    expect((await run(later)).deleted).toBe(1);
    for (const part of ['originals', 'finals', 'images'] as const)
      expect(await versionsLeft(id, part), part).toBe(0);

    for (const path of [`/bundles/${id}/files/`, `/packets/${packetId}/coe/`]) {
      const gone = await call('GET', path);
      expect(gone.status, path).toBe(410);
      expect(gone.body.code).toBe('gone');
      expect(gone.body.message).toContain(`retention policy on ${later.toISOString().slice(0, 10)}`);
    }
    const verified = await call('POST', '/verify/', { json: { sha256 } });
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({
      match: true,
      sealed: true,
      content_deleted_at: later.toISOString(),
    });
    expect(verified.body.audit_chain_intact).toBe(true);
    // The public page still knows a copy someone kept, and says when its content was deleted.
    const day = later.toISOString().slice(0, 10);
    expect(await verifyPage(copy, 'de')).toContain(
      `Ihr Inhalt wurde am ${day} gemäß der Aufbewahrungsrichtlinie`,
    );
    expect((await kinds(id)).filter((k) => k === 'dl')).toHaveLength(1);

    // Done once: a later run finds nothing due and adds no second event.
    expect((await run(new Date(later.getTime() + DAY))).deleted).toBe(0);
    expect((await kinds(id)).filter((k) => k === 'dl')).toHaveLength(1);
  }, 120_000);

  it('keeps a bundle under legal hold until it is released, recording who held and released it', async () => {
    const id = await cancelled();
    const at = `/bundles/${id}/legal_hold/`;
    const held = await call('PUT', at);
    expect(held.status, held.text).toBe(200);
    expect(held.body.legal_hold.set_by).toMatch(/^api_key:/);
    const due = new Date(Date.now() + 2 * DAY);
    await run(due);
    expect(await versionsLeft(id, 'originals')).toBeGreaterThan(0);
    expect((await call('GET', at)).body.deleted.originals).toBeNull();

    expect((await call('DELETE', at)).status).toBe(200);
    await run(due);
    expect(await versionsLeft(id, 'originals')).toBe(0);
    expect((await call('GET', at)).body.deleted.originals).toBe(due.toISOString());
    const seen = await kinds(id);
    expect(seen.indexOf('lh')).toBeLessThan(seen.indexOf('lx'));
    expect(seen.indexOf('lx')).toBeLessThan(seen.indexOf('dl'));
  });

  it('lets exactly one of a legal hold and a deletion that meet win', async () => {
    const ids = await Promise.all([cancelled(), cancelled(), cancelled()]);
    const due = new Date(Date.now() + 2 * DAY);
    const [holds] = await Promise.all([
      Promise.all(ids.map((id) => call('PUT', `/bundles/${id}/legal_hold/`))),
      run(due),
    ]);
    for (const [i, id] of ids.entries()) {
      await run(due);
      const state = (await call('GET', `/bundles/${id}/legal_hold/`)).body;
      const left = await versionsLeft(id, 'originals');
      const seen = await kinds(id);
      if (state.deleted.originals === null) {
        // The hold won: nothing deleted, not even by a run after it.
        expect([holds[i]!.status, state.legal_hold !== null, left > 0, seen.includes('dl')]).toEqual([
          200,
          true,
          true,
          false,
        ]);
      } else {
        // The deletion won: a hold during it is refused (409); one after it comes after in the trail.
        expect(left).toBe(0);
        if (holds[i]!.status === 200) expect(seen.indexOf('dl')).toBeLessThan(seen.indexOf('lh'));
        else expect([holds[i]!.status, state.legal_hold]).toEqual([409, null]);
      }
    }
  });
});
