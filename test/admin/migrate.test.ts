// Upgrades that keep data: an envelope template disabled by version 2 of the code (stored as that
// code wrote it, test/fixtures/entities/) has no list keys, so the account's export does not find
// it. `npm run admin -- migrate`, run beside the running service, gives it them; run again, it
// changes nothing; and its write is conditional on the version it read.
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { envelopeTemplateListKeys } from '#infra/admin/upgrades/envelope-template-list-keys';
import { createAccountRecords } from '#shared/adapters/dynamodb/account-records';
import { adminOk } from '../helpers/admin-cli';
import { readFixtures } from '../helpers/entity-fixtures';
import { apiClient } from '../helpers/runtime';
import { runtimeOnDisk } from '../helpers/runtime-on-disk';

const onDisk = runtimeOnDisk('migrate-');

type TStoredTemplate = Record<string, unknown> & Record<'pk' | 'id' | 'name' | 'created' | 'owner', string>;
const disabledV2 = readFixtures().find(
  (f) => f.entity === 'envelope-template' && f.entityVersion === 2 && f.item.enabled === false,
)!.item as TStoredTemplate & { version: number };

describe('npm run admin -- migrate', { timeout: 120_000 }, () => {
  it('lists envelope templates disabled before version 3 for the export, once', async () => {
    const { accountId } = onDisk.runtime.demo;
    const table = onDisk.runtime.config.tableName;
    const item = { ...disabledV2, accountId };
    await onDisk.runtime.db.send(new PutCommand({ TableName: table, Item: item }));
    const exported = async () =>
      (await createAccountRecords(onDisk.runtime.db, table).read(accountId)).records.filter(
        (r) => r.pk === item.pk,
      );
    expect(await exported()).toEqual([]);

    const first = JSON.parse(await adminOk(onDisk.dir, 'migrate', '--json'));
    expect(first).toEqual([
      expect.objectContaining({ name: 'envelope-template-list-keys', found: 1, upgraded: 1 }),
    ]);
    const [listed] = await exported();
    expect(listed).toMatchObject({
      lpk: `ACCOUNT#${accountId}#ENVTEMPLATES_DISABLED`,
      lsk: `${item.created}#${item.id}#s#${item.owner}`,
      entityVersion: 3,
      version: item.version,
    });
    // Still disabled: the API's list does not show it; the template itself reads as before.
    const call = apiClient(onDisk.runtime);
    expect((await call('GET', '/envelope-templates/')).body).toEqual([]);
    const got = await call('GET', `/envelope-templates/${item.id}/`);
    expect(got.body).toMatchObject({ id: item.id, name: item.name, enabled: false });

    const second = JSON.parse(await adminOk(onDisk.dir, 'migrate', '--json'));
    expect(second).toEqual([expect.objectContaining({ found: 0, upgraded: 0 })]);
    expect(await exported()).toEqual([listed]);
  });

  it('leaves a template changed after it was read to the code that changed it', async () => {
    const table = onDisk.runtime.config.tableName;
    const item = { ...disabledV2, id: 'T-changedx', pk: 'ENVTEMPLATE#T-changedx' };
    await onDisk.runtime.db.send(new PutCommand({ TableName: table, Item: item }));
    const write = envelopeTemplateListKeys.update(item)!;
    // Saved meanwhile by a function still running the earlier code (a deploy under way).
    await onDisk.runtime.db.send(
      new UpdateCommand({
        TableName: table,
        Key: write.Key,
        UpdateExpression: 'SET #v = :v, created = :c',
        ExpressionAttributeNames: { '#v': 'version' },
        ExpressionAttributeValues: { ':v': item.version + 1, ':c': '2026-11-26T10:00:00.000Z' },
      }),
    );
    await expect(
      onDisk.runtime.db.send(new UpdateCommand({ TableName: table, ...write })),
    ).rejects.toMatchObject({
      name: 'ConditionalCheckFailedException',
    });
    const stored = (await onDisk.runtime.db.send(new GetCommand({ TableName: table, Key: write.Key }))).Item;
    expect(stored).not.toHaveProperty('lpk');
  });
});
