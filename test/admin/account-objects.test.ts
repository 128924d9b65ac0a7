// Every object a bundle's life writes lives under its account's folder and is sealed with the
// account's context under its own key, so destroying that key shreds all of them. The S3
// stand-in encrypts a write without SSE headers as the bucket's default does on AWS, which the
// documents key's policy refuses: an object keyed outside accounts/ fails here as it would there.
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { createDocumentClient, createS3Client } from '#shared/adapters/aws/clients';
import { createAccountStore } from '#shared/adapters/dynamodb/account-store';
import { aPdfB64 } from '../helpers/bundles';
import { docsReady, signWithToken } from '../helpers/completed-bundle';
import { eventually } from '../helpers/receiver';
import { apiClient } from '../helpers/runtime';
import { runtimeOnDisk } from '../helpers/runtime-on-disk';
import { embedToken, signerClient } from '../helpers/signer';

const onDisk = runtimeOnDisk('admin-account-objects-');

const signer = (key: string, field: string) => ({
  key,
  name: `${key} Lee`,
  email: `${key}@layout.example`,
  deliver_via: 'embed',
  field,
});

describe("a bundle's objects", () => {
  it('are all under its account, sealed with its context and key, and shredded with the key', async () => {
    const { accountId: id, apiKey } = await onDisk.runtime.seedAccount('Layout Co', 'owner@layout.example');
    const call = apiClient(onDisk.runtime, apiKey);
    const sign = signerClient(onDisk.runtime);
    const accounts = createAccountStore(
      createDocumentClient(onDisk.runtime.config),
      onDisk.runtime.config.tableName,
    );
    await accounts.setFeatures(id, { early_file_access: true });
    const keyArn = (await onDisk.ok('account-key-create', '--account', id)).stdout.trim();
    // A key is destroyed only once no bundle keeps its documents any longer (the scheduler,
    // which would delete them, does not run here on its own).
    const days = ['--originals-days', '--finals-days', '--images-days'].flatMap((o) => [o, '0']);
    await onDisk.ok('set-retention', '--account', id, ...days);

    const [ann, bob] = [signer('ann', 'sa'), signer('bob', 'sb')];
    const created = await call('POST', '/bundles/', {
      json: {
        label: 'Layout',
        packets: [ann, bob].map(({ field: _f, ...p }) => p),
        documents: [
          {
            key: 'lease',
            file_b64: await aPdfB64(),
            fields: [ann, bob].map((s, i) => ({
              key: s.field,
              kind: 'sig',
              page: 1,
              x: 10,
              y: 20 + 40 * i,
              w: 30,
              h: 6,
              editors: [s.key],
            })),
          },
        ],
      },
    });
    expect(created.status, created.text).toBe(201);
    const b = created.body.id as string;
    const packets = created.body.packets as { id: string }[];
    await signWithToken(sign, await embedToken(call, packets[0]!.id), 'lease', ['sa']);
    // Interim files while bob has yet to sign, then the final set once he has.
    expect((await call('PUT', `/bundles/${b}/files/`)).status).toBe(202);
    const isInterim = async () =>
      (await call('GET', `/bundles/${b}/files/`)).body[0]?.kind === 'interim' || undefined;
    await eventually(isInterim, 60_000, 'interim files');
    await signWithToken(sign, await embedToken(call, packets[1]!.id), 'lease', ['sb']);
    await docsReady(call, b);
    const files = (await call('GET', `/bundles/${b}/files/`)).body as { kind: string; file_url: string }[];
    const sealed = files.filter((f) => f.kind === 'final' || f.kind === 'certificate');
    expect(sealed.map((f) => f.kind).sort()).toEqual(['certificate', 'certificate', 'final']);

    const s3 = createS3Client(onDisk.runtime.config);
    const listed = await s3
      .send(new ListObjectsV2Command({ Bucket: onDisk.runtime.config.bucketName }))
      .finally(() => s3.destroy());
    const keys = (listed.Contents ?? []).map((o) => o.Key!).filter((k) => k.includes(b));
    const base = `accounts/${id}/bundles/${b}/`;
    for (const k of keys) {
      expect(k.startsWith(base), k).toBe(true);
      expect(onDisk.runtime.storedEncryption(k), k).toMatchObject({
        keyId: keyArn,
        context: { accountId: id },
      });
    }
    const kinds = new Set(keys.map((k) => k.slice(base.length).split('/')[0]));
    expect([...kinds].sort()).toEqual(['coe', 'final', 'interim', 'originals', 'signing']);

    await onDisk.ok('account-key-destroy', '--account', id, '--days', '7', '--wait-seconds', '0');
    const gone = await call('GET', `/bundles/${b}/files/`);
    expect(gone.status, gone.text).toBe(410);
    // The final's and certificates' links handed out before: S3 itself refuses them now.
    for (const f of sealed) {
      const res = await fetch(f.file_url);
      expect(res.status, f.kind).toBe(400);
      expect(await res.text()).toContain('KMS.KMSInvalidStateException');
    }
  }, 180_000);
});
