// An account's own documents key through the operator's commands against a running local
// runtime: documents written under it (the S3 stand-in asks the KMS stand-in for each data key),
// its destruction refused while a bundle is held, then done, after which the account's documents
// answer 410 through the API and S3 refuses their links, as on AWS.
import { DescribeKeyCommand } from '@aws-sdk/client-kms';
import { describe, expect, it } from 'vitest';
import { createDocumentClient, createKmsClient } from '#shared/adapters/aws/clients';
import { createAccountStore } from '#shared/adapters/dynamodb/account-store';
import { createBulkStore } from '#shared/adapters/dynamodb/bulk-store';
import { createDocumentsKeyAdmin, documentsName } from '#shared/adapters/kms/documents-keys';
import { systemClock } from '#shared/adapters/system';
import { createAccountDocumentsKey } from '#shared/domain/bundles/account-documents-key';
import { ConflictError } from '#shared/domain/errors';
import { admin } from '../helpers/admin-cli';
import { aBundle, aPdfB64 } from '../helpers/bundles';
import { apiClient } from '../helpers/runtime';
import { runtimeOnDisk } from '../helpers/runtime-on-disk';

const onDisk = runtimeOnDisk('admin-documents-key-');

describe('account-key commands', () => {
  it("write an account's new documents under its own key, and shred them once no hold is left", async () => {
    const { accountId: id, apiKey } = await onDisk.runtime.seedAccount('Shred Co', 'owner@shred.example');
    const call = apiClient(onDisk.runtime, apiKey);
    const db = createDocumentClient(onDisk.runtime.config);
    await createAccountStore(db, onDisk.runtime.config.tableName).setFeatures(id, {
      early_file_access: true,
    });
    await onDisk.ok(
      'set-retention',
      '--account',
      id,
      '--originals-days',
      '0',
      '--finals-days',
      '0',
      '--images-days',
      '0',
    );

    // A document written before the account has a key of its own, under the stack's key.
    const before = await call('POST', '/bundles/', { json: aBundle({}, await aPdfB64()) });
    expect(before.status, before.text).toBe(201);
    const older = before.body.id as string;
    expect((await call('PUT', `/bundles/${older}/cancel/`)).status).toBe(200);

    const keyArn = (await onDisk.ok('account-key-create', '--account', id)).stdout.trim();
    // Still read as it was written, S3 asking the stack's key.
    const olderFiles = await call('GET', `/bundles/${older}/files/`);
    expect(olderFiles.status, olderFiles.text).toBe(200);
    expect((await fetch((olderFiles.body as { file_url: string }[])[0]!.file_url)).status).toBe(200);
    expect(
      onDisk.runtime.storedEncryption(`accounts/${id}/bundles/${older}/originals/lease.pdf`)?.keyId,
    ).toBe('alias/esign-local-documents');
    expect(keyArn).toMatch(/^arn:aws:kms:[^:]+:\d+:key\/[0-9a-f-]{36}$/);
    const made = await call('POST', '/bundles/', { json: aBundle({}, await aPdfB64()) });
    expect(made.status, made.text).toBe(201);
    const bundle = made.body.id as string;
    expect(
      onDisk.runtime.storedEncryption(`accounts/${id}/bundles/${bundle}/originals/lease.pdf`),
    ).toMatchObject({
      keyId: keyArn,
      context: { accountId: id },
    });
    expect((await call('PUT', `/bundles/${bundle}/cancel/`)).status).toBe(200);
    const files = await call('GET', `/bundles/${bundle}/files/`);
    expect(files.status, files.text).toBe(200);
    const link = (files.body as { file_url: string }[])[0]!.file_url;
    expect((await fetch(link)).status).toBe(200);

    await onDisk.ok('legal-hold', '--account', id, '--bundle', bundle);
    const destroy = ['account-key-destroy', '--account', id, '--days', '7', '--wait-seconds', '0'];
    const refused = await admin(onDisk.dir, ...destroy);
    expect(refused.code).toBe(1);
    const today = new Date().toISOString().slice(0, 10);
    expect(refused.stderr).toContain(`Bundle ${bundle} is under legal hold since ${today}`);
    expect((await fetch(link)).status).toBe(200);

    await onDisk.ok('release-legal-hold', '--account', id, '--bundle', bundle);
    const destroyed = await onDisk.ok(...destroy);
    expect(destroyed.stdout).toContain(`${keyArn} pending deletion`);
    const kms = createKmsClient(onDisk.runtime.config);
    const described = await kms.send(new DescribeKeyCommand({ KeyId: keyArn })).finally(() => kms.destroy());
    expect(described.KeyMetadata?.KeyState).toBe('PendingDeletion');

    const gone = await call('GET', `/bundles/${bundle}/files/`);
    expect(gone.status, gone.text).toBe(410);
    expect(gone.body).toMatchObject({ code: 'gone' });
    expect(gone.text).toContain('encryption key was destroyed');
    expect((await call('POST', '/bundles/', { json: aBundle({}, await aPdfB64()) })).status).toBe(410);
    expect((await call('GET', `/bundles/${older}/files/`)).status).toBe(410);
    // The link handed out before: S3 itself refuses it, KMS having refused the data key.
    const s3 = await fetch(link);
    expect(s3.status).toBe(400);
    expect(await s3.text()).toContain('KMS.KMSInvalidStateException');
  }, 120_000);

  it('waits for a bulk batch still making its bundles before it destroys the key', async () => {
    const { accountId: id, userId } = await onDisk.runtime.seedAccount('Batch Co', 'owner@batch.example');
    await onDisk.ok('account-key-create', '--account', id);
    const bulk = createBulkStore(onDisk.runtime.db, onDisk.runtime.config.tableName);
    const batch = { id: 'batch0001', accountId: id, userId, created: new Date().toISOString(), total: 3 };
    await bulk.create({ ...batch, requestKey: `accounts/${id}/bulk/batch0001/request.json` });
    const destroy = () =>
      admin(onDisk.dir, 'account-key-destroy', '--account', id, '--days', '7', '--wait-seconds', '0');
    const refused = await destroy();
    expect(refused.code, refused.stderr).toBe(1);
    expect(refused.stderr).toContain('Bulk batch batch0001 is still making its bundles');
    const stored = (await bulk.get(id, 'batch0001'))!;
    expect(await bulk.complete(stored, new Date().toISOString())).toBe(true);
    const destroyed = await destroy();
    expect(destroyed.code, destroyed.stderr).toBe(0);
    expect(destroyed.stdout).toContain('pending deletion');
  }, 60_000);

  it('records one key when two are made at once; the other is scheduled for deletion unused', async () => {
    const { accountId } = await onDisk.runtime.seedAccount('Race Co', 'owner@race.example');
    const accounts = createAccountStore(
      createDocumentClient(onDisk.runtime.config),
      onDisk.runtime.config.tableName,
    );
    const kms = createKmsClient(onDisk.runtime.config);
    const made: string[] = [];
    const keys = createDocumentsKeyAdmin(kms, documentsName('local'), onDisk.runtime.config.region);
    const recording = {
      ...keys,
      create: async (a: string) => {
        const out = await keys.create(a);
        made.push(out.keyArn);
        return out;
      },
    };
    const deps = { accounts, keys: recording, clock: systemClock };
    const [a, b] = await Promise.allSettled([
      createAccountDocumentsKey(deps, accountId),
      createAccountDocumentsKey(deps, accountId),
    ]);
    const outcomes = [a, b].map((r) => r.status);
    expect(outcomes.sort()).toEqual(['fulfilled', 'rejected']);
    const lost = [a, b].find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(lost.reason).toBeInstanceOf(ConflictError);
    const kept = (await accounts.getAccount(accountId))?.documentsKey?.keyArn;
    expect(made).toHaveLength(2);
    expect(made).toContain(kept);
    const unused = made.find((k) => k !== kept)!;
    const states = await Promise.all(
      made.map((k) => kms.send(new DescribeKeyCommand({ KeyId: k })).then((d) => d.KeyMetadata?.KeyState)),
    );
    kms.destroy();
    expect(states[made.indexOf(kept!)]).toBe('Enabled');
    expect(states[made.indexOf(unused)]).toBe('PendingDeletion');
  });
});
