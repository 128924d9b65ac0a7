// Upgrades that keep data: every item an earlier version of the code stored (the fixtures in
// test/fixtures/entities/) still reads as it should and writes back in the current shape, and an
// entity whose stored shape changes without a new version (and a fixture of it) fails here.
import { describe, expect, it } from 'vitest';
import { fixtureFile, readFixtures } from '../helpers/entity-fixtures';
import { SAMPLES } from '../helpers/entity-samples';
import { shapeChanges, shapeOf } from '../helpers/item-shape';

const fixtures = readFixtures();
const entities = new Map(SAMPLES.map((s) => [s.entity.name, s]));
const fixtureOf = (name: string, version: number) =>
  fixtures.find((f) => f.entity === name && f.entityVersion === version);

describe('entity versions', () => {
  it('keeps a fixture of every entity at its current version, and none of a version to come', () => {
    const missing = SAMPLES.filter((s) => !fixtureOf(s.entity.name, s.entity.version)).map((s) =>
      fixtureFile(s.entity.name, s.entity.version),
    );
    expect(missing, 'run `npm run fixtures:entities` to record them').toEqual([]);
    for (const f of fixtures) {
      const sample = entities.get(f.entity);
      expect(sample, `${f.entity}: a fixture of an entity that no longer exists`).toBeDefined();
      expect(f.entityVersion).toBeLessThanOrEqual(sample!.entity.version);
      expect(f.item.entity).toBe(f.entity);
      expect(f.item.entityVersion).toBe(f.entityVersion);
    }
  });

  describe.each(SAMPLES.map((s) => [s.entity.name, s] as const))('%s', (name, { entity, object }) => {
    const current = shapeOf(entity.toItem(object));

    it('stores the shape recorded for its version', () => {
      const recorded = fixtureOf(name, entity.version);
      if (!recorded) return; // reported by the first test, with the command that records it
      const changes = shapeChanges(shapeOf(recorded.item), current);
      expect(
        changes,
        `${name}'s stored shape changed without a new version. Raise \`version\` of its entity (shared/adapters/dynamodb/entities/) to ${entity.version + 1}, teach its \`decode\` to read version ${entity.version} items, set \`readsAs\` of test/fixtures/entities/${name}.v${entity.version}.json to what it now reads, then run \`npm run fixtures:entities\``,
      ).toEqual([]);
    });

    it('reads the items of every earlier version as it should, and writes them back in its shape', () => {
      const own = fixtures.filter((f) => f.entity === name);
      expect(own.length).toBeGreaterThan(0);
      for (const f of own) {
        const read = entity.fromItem(structuredClone(f.item));
        expect(read, `${name} v${f.entityVersion}`).toEqual(f.readsAs);
        const rewritten = entity.toItem(read);
        expect(rewritten.entityVersion).toBe(entity.version);
        // An older item may lack attributes added since, but may keep none that are gone.
        const strays = shapeChanges(current, shapeOf(rewritten)).filter((c) => c.startsWith('+'));
        expect(strays, `${name} v${f.entityVersion} read and written again`).toEqual([]);
      }
    });
  });
});
