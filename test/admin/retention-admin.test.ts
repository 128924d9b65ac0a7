// The operator's retention commands against a running local runtime: the policy a new bundle
// takes, a legal hold set and released as the operator, recorded in the audit trail, and the
// due deletions run at once, a bulk batch's shared documents with its last bundle.
import { ListObjectVersionsCommand } from '@aws-sdk/client-s3';
import { beforeAll, describe, expect, it } from 'vitest';
import { createS3Client } from '#shared/adapters/aws/clients';
import { createBulkStore } from '#shared/adapters/dynamodb/bulk-store';
import { admin } from '../helpers/admin-cli';
import { aBundle, aPdfB64 } from '../helpers/bundles';
import { eventually } from '../helpers/receiver';
import { apiClient } from '../helpers/runtime';
import { runtimeOnDisk } from '../helpers/runtime-on-disk';

const onDisk = runtimeOnDisk('admin-retention-');

let call: ReturnType<typeof apiClient>;

beforeAll(async () => {
  call = apiClient(onDisk.runtime);
}, 60_000);

describe('retention commands', { timeout: 120_000 }, () => {
  it('set the policy new bundles carry, and hold and release a bundle as the operator', async () => {
    const account = onDisk.runtime.demo.accountId;
    const set = await onDisk.ok(
      'set-retention',
      '--account',
      account,
      '--finals-days',
      '3650',
      '--images-days',
      '7',
    );
    expect(set.stdout).toContain('finals_days 3650');
    expect((await call('GET', '/account/retention/')).body).toEqual({
      originals_days: null,
      finals_days: 3650,
      images_days: 7,
    });
    const refused = await admin(onDisk.dir, 'set-retention', '--account', account, '--images-days', 'soon');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('whole number');

    const made = await call('POST', '/bundles/', { json: aBundle({}, await aPdfB64()) });
    expect(made.status, made.text).toBe(201);
    const bundle = made.body.id as string;
    await onDisk.ok('legal-hold', '--account', account, '--bundle', bundle);
    const held = (await call('GET', `/bundles/${bundle}/legal_hold/`)).body;
    expect(held.legal_hold.set_by).toBe('operator');
    expect(held.policy).toEqual({ originals_days: null, finals_days: 3650, images_days: 7 });
    await onDisk.ok('release-legal-hold', '--account', account, '--bundle', bundle);
    expect((await call('GET', `/bundles/${bundle}/legal_hold/`)).body.legal_hold).toBeNull();
    const events = (await call('GET', `/bundles/${bundle}/events/?include_actor=true`)).body as {
      kind: string;
      actor?: unknown;
    }[];
    expect(events.filter((e) => e.kind === 'lh' || e.kind === 'lx').map((e) => e.kind)).toEqual(['lh', 'lx']);
  });
});

/** Every object version (and delete marker) under the prefix, in the local S3. */
async function versionsUnder(prefix: string): Promise<string[]> {
  const page = await createS3Client(onDisk.runtime.config).send(
    new ListObjectVersionsCommand({ Bucket: onDisk.runtime.config.bucketName, Prefix: prefix }),
  );
  return [...(page.Versions ?? []), ...(page.DeleteMarkers ?? [])].map((v) => v.Key!);
}

/** A completed bulk send of two rows sharing one inline PDF: the batch's id and its bundles'. */
async function aCompletedBatch(): Promise<{ id: string; bundles: string[] }> {
  const document = {
    key: 'offer',
    file_b64: await aPdfB64(),
    fields: [{ kind: 'sig', page: 1, x: 10, y: 70, w: 30, h: 5, editors: ['emp'] }],
  };
  const rows = [0, 1].map((i) => ({
    signers: { emp: { name: `Employee ${i}`, email: `emp${i}@example.com` } },
  }));
  const sent = await call('POST', '/bundles/bulk/', {
    json: { bundle: { packets: [{ key: 'emp' }], documents: [document] }, rows },
  });
  expect(sent.status, sent.text).toBe(202);
  const done = await eventually(
    async () => {
      const b = await call('GET', `/bundles/bulk/${sent.body.id}/`);
      return b.body.status === 'completed' && b.body;
    },
    60_000,
    'the batch to complete',
  );
  return { id: sent.body.id, bundles: done.rows.map((r: { bundle_id: string }) => r.bundle_id) };
}

describe('run-retention', { timeout: 180_000 }, () => {
  it("deletes what is due now, and a batch's shared documents with its last bundle only", async () => {
    const account = onDisk.runtime.demo.accountId;
    await onDisk.ok('set-retention', '--account', account, '--originals-days', '0');
    const batch = await aCompletedBatch();
    const prefix = `accounts/${account}/bulk/${batch.id}/`;
    expect((await versionsUnder(prefix)).filter((k) => k.includes('/documents/sha256/'))).toHaveLength(1);
    const [held, other] = batch.bundles as [string, string];
    expect((await call('PUT', `/bundles/${held}/legal_hold/`)).status).toBe(200);
    for (const id of batch.bundles) expect((await call('PUT', `/bundles/${id}/cancel/`)).status).toBe(200);

    // The held bundle keeps its originals, so the batch keeps the documents they share.
    const first = await onDisk.ok('run-retention', '--account', account, '--json');
    expect(JSON.parse(first.stdout)).toMatchObject({ deleted: 1, failed: [], batchesErased: [] });
    const kinds = async (id: string) =>
      ((await call('GET', `/bundles/${id}/events/`)).body as { kind: string }[]).map((e) => e.kind);
    expect(await kinds(other)).toContain('dl');
    expect(await kinds(held)).not.toContain('dl');
    expect((await versionsUnder(prefix)).length).toBeGreaterThan(0);

    expect((await call('DELETE', `/bundles/${held}/legal_hold/`)).status).toBe(200);
    const second = await onDisk.ok('run-retention', '--account', account);
    expect(second.stdout).toContain(`batch erased ${batch.id}`);
    expect(await versionsUnder(prefix)).toEqual([]);
    const kept = await createBulkStore(onDisk.runtime.db, onDisk.runtime.config.tableName).get(
      account,
      batch.id,
    );
    expect(kept?.documentsDeleted?.sha256).toEqual([expect.stringMatching(/^[0-9a-f]{64}$/)]);
    const answered = (await call('GET', `/bundles/bulk/${batch.id}/`)).body;
    expect(answered.documents_deleted).toEqual({
      deleted_at: kept?.documentsDeleted?.at,
      sha256: kept?.documentsDeleted?.sha256,
    });
    expect(await kinds(held)).toContain('dl');

    // Nothing more is due: a second run deletes nothing and says so.
    const again = await onDisk.ok('run-retention', '--account', account);
    expect(again.stdout).toContain('bundles deleted 0');
    expect(again.stderr).toContain('Nothing was due');
  });
});
