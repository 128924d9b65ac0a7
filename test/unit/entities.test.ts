// Every entity of the table, through its declaration: an object written and read back is the
// same object, every item says what it is, and reading strips exactly the declared keys.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleEntity, packetRefEntity } from '#shared/adapters/dynamodb/entities/bundle';
import type { TEntity } from '#shared/adapters/dynamodb/entity';
import { INDEXES } from '#shared/adapters/dynamodb/table';
import { aBundleItem } from '../helpers/bundle-items';
import { aBundle, at, later, SAMPLES } from '../helpers/entity-samples';

/** Every attribute name the table keys anything by: an item may set these only as declared. */
const TABLE_KEY_ATTRIBUTES = new Set([
  'pk',
  'sk',
  ...Object.values(INDEXES).flatMap((i) => [i.partitionKey, i.sortKey]),
]);
const MARKERS = ['entity', 'entityVersion'];

async function declaredEntities(): Promise<TEntity<unknown>[]> {
  const folder = join(__dirname, '../../shared/adapters/dynamodb/entities');
  const modules = await Promise.all(
    readdirSync(folder)
      .filter((f) => f.endsWith('.ts'))
      .map((f) => import(join(folder, f)) as Promise<Record<string, unknown>>),
  );
  return modules
    .flatMap((m) => Object.values(m))
    .filter((v): v is TEntity<unknown> => typeof v === 'object' && v !== null && 'keyAttributes' in v);
}

describe('entity declarations', () => {
  it('every declared entity has a sample here, and names are unique', async () => {
    const declared = await declaredEntities();
    expect(declared.map((e) => e.name).sort()).toEqual(SAMPLES.map((s) => s.entity.name).sort());
    expect(new Set(declared.map((e) => e.name)).size).toBe(declared.length);
  });

  describe.each(SAMPLES.map((s) => [s.entity.name, s] as const))('%s', (_name, { entity, object }) => {
    const item = entity.toItem(object);

    it('reads back the object it wrote', () => {
      expect(entity.fromItem(item)).toEqual(object);
    });

    it('writes its entity name and item-shape version', () => {
      expect(item.entity).toBe(entity.name);
      expect(item.entityVersion).toBe(entity.version);
      expect(Number.isInteger(entity.version) && entity.version > 0).toBe(true);
    });

    it('sets key attributes only as declared, and reads without any of them', () => {
      const declared = new Set(entity.keyAttributes);
      for (const name of Object.keys(item).filter((a) => TABLE_KEY_ATTRIBUTES.has(a))) {
        expect(declared, `${name} is set but not declared`).toContain(name);
      }
      const read = entity.fromItem(item) as Record<string, unknown>;
      for (const name of [...TABLE_KEY_ATTRIBUTES, ...MARKERS]) expect(read).not.toHaveProperty(name);
    });

    it('strips every declared key attribute, also those this object leaves unset', () => {
      const full = { ...item, ...Object.fromEntries(entity.keyAttributes.map((a) => [a, 'x'])) };
      expect(entity.fromItem(full)).toEqual(object);
    });

    it('reads an item written before items carried their version', () => {
      const { entityVersion: _v, ...older } = item;
      expect(entity.fromItem(older)).toEqual(object);
    });
  });

  it('strips nothing but keys and markers', () => {
    const read = packetRefEntity.fromItem({
      ...packetRefEntity.toItem({ packetId: 'P1', accountId: 'A1', bundleId: 'B1' }),
      note: 'kept',
    });
    expect(read).toEqual({ packetId: 'P1', accountId: 'A1', bundleId: 'B1', note: 'kept' });
  });

  it('keeps the key values items were stored under', () => {
    const item = bundleEntity.toItem(aBundle);
    expect(item).toMatchObject({
      pk: 'ACCOUNT#A1',
      sk: 'BUNDLE#B1',
      lpk: 'ACCOUNT#A1#BUNDLES',
      lsk: `${at}#B1`,
      statusPk: 'ACCOUNT#A1#BUNDLES#se',
      statusSk: `${at}#B1`,
      sentPk: 'ACCOUNT#A1#BUNDLES_SENT',
      sentSk: `${at}#${at}#B1`,
      completedPk: 'ACCOUNT#A1#BUNDLES_COMPLETED',
      completedSk: `${later}#${at}#B1`,
      outboxSk: `${at}#A1#B1`,
    });
    expect(item.outboxPk).toMatch(/^OUTBOX#[0-3]$/);
    expect(item.duePk).toMatch(/^DUE#[0-3]$/);
    expect(item.dueSk).toMatch(/#A1#B1$/);
    expect(bundleEntity.toItem(aBundleItem())).not.toHaveProperty('sentPk');
  });
});
