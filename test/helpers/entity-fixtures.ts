// Items as each version of an entity's code wrote them, kept for good in test/fixtures/entities/:
// `<entity>.v<version>.json` holds the stored item and the object the current code must read from
// it. `npm run fixtures:entities` writes the file of each entity's current version when it is
// missing, from its sample (entity-samples.ts); it never rewrites a file that exists.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SAMPLES } from './entity-samples';

export const FIXTURES_DIR = join(import.meta.dirname, '../fixtures/entities');

export interface TEntityFixture {
  entity: string;
  entityVersion: number;
  /** The item exactly as that version's code stored it (keys and markers included). */
  item: Record<string, unknown>;
  /** What the current code reads from it: when a new version changes the shape, say here how. */
  readsAs: Record<string, unknown>;
}

export const fixtureFile = (entity: string, version: number) =>
  join(FIXTURES_DIR, `${entity}.v${version}.json`);

export function readFixtures(): TEntityFixture[] {
  return readdirSync(FIXTURES_DIR)
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(join(FIXTURES_DIR, f), 'utf8')) as TEntityFixture);
}

/** Writes the missing fixtures of the entities' current versions; answers the files written. */
export function writeMissingFixtures(): string[] {
  const written: string[] = [];
  for (const { entity, object } of SAMPLES) {
    const file = fixtureFile(entity.name, entity.version);
    if (existsSync(file)) continue;
    const fixture: TEntityFixture = {
      entity: entity.name,
      entityVersion: entity.version,
      item: entity.toItem(object),
      readsAs: object,
    };
    writeFileSync(file, `${JSON.stringify(fixture, null, 2)}\n`);
    written.push(file);
  }
  return written;
}

if (process.argv[1] === import.meta.filename) {
  const written = writeMissingFixtures();
  console.log(
    written.length ? written.map((f) => `wrote ${f}`).join('\n') : 'Every current version has its fixture.',
  );
}
