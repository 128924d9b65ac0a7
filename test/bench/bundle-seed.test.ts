import {
  BatchGetCommand,
  BatchWriteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { createBundleStore } from '#shared/adapters/dynamodb/bundle-store';
import { bundleSearchTokens } from '#shared/adapters/dynamodb/bundle-terms';
import { personKeys } from '#shared/adapters/dynamodb/entities/person';
import type { TBundle, TDocument, TPacket } from '#shared/domain/bundles/bundle';
import {
  apportion,
  expectedTotal,
  LABEL_WORDS,
  OTHER_TAGS,
  prng,
  seededBundle,
  seedPlan,
  storeItems,
  type TSeedPlanOptions,
  type TSeedSpec,
  type TSeedTemplate,
} from '../../bench/bundle-seed';
import { aBundleItem, aPacketItem } from '../helpers/bundle-items';
import { event } from '../helpers/stored-events';

const OPTIONS: TSeedPlanOptions = {
  count: 2000,
  tag: 'priority',
  tagged: 200,
  word: 'Renewal',
  worded: 200,
  statusShares: { dr: 0.2, se: 0.4, ca: 0.15, co: 0.25 },
  templates: 3,
  newest: new Date('2026-06-01T12:00:00.000Z'),
  spanDays: 365,
  seed: 7,
};

/** A draft as the API creates it (two signers, one document with a field), as the store returns it. */
function aTemplate(): TSeedTemplate {
  const created = '2026-06-01T13:00:00.000Z';
  const document: TDocument = {
    key: 'lease',
    name: 'lease.pdf',
    blobKey: 'accounts/acc1/bundles/tmpl000001/originals/lease.pdf',
    sha256: 'ab'.repeat(32),
    size: 11_721,
    pages: Array.from({ length: 10 }, () => ({ width: 612, height: 792 })),
    fields: [
      {
        key: 'f1',
        kind: 'sig',
        label: '',
        required: true,
        page: 1,
        x: 10,
        y: 70,
        w: 30,
        h: 5,
        format: '',
        editors: ['client'],
      },
    ],
  };
  const { fields: _fields, ...documentHead } = document;
  const bundle: TBundle = aBundleItem({
    id: 'tmpl000001',
    accountId: 'acc1',
    label: 'Template 1',
    requesterName: 'Bench Lists',
    requesterEmail: 'lists@example.test',
    created,
    packets: [
      aPacketItem('pkt0000001', {
        key: 'client',
        name: 'Ann Lee',
        email: 'ann.lee.0@example.test',
        order: 0,
        personId: 'person-ann',
      }),
      withoutEmail(
        aPacketItem('pkt0000002', {
          key: 'agent',
          name: 'Finn Okafor',
          phone: '+1 555 0100 3000',
          deliverVia: 'phone',
          order: 0,
          personId: 'person-finn',
        }),
      ),
    ],
    documents: [documentHead],
    events: [event('created', created), event('drafted', created)],
    version: 1,
  });
  return { bundle, documents: [document] };
}

/** A signer reached by phone only. */
function withoutEmail({ email: _email, ...packet }: TPacket): TPacket {
  return packet;
}

function counterIds() {
  let n = 0;
  return { slug: () => `id${String(++n).padStart(8, '0')}` };
}

const spec = (over: Partial<TSeedSpec>): TSeedSpec => ({
  index: 0,
  status: 'dr',
  label: 'Lease Renewal Offer 1000',
  tags: [],
  created: '2025-09-01T10:00:00.000Z',
  template: 0,
  ...over,
});

describe('apportion and prng', () => {
  it('splits a total exactly, in proportion', () => {
    expect(apportion(10, { a: 1, b: 1, c: 1 })).toEqual({ a: 4, b: 3, c: 3 });
    const counts = apportion(9980, OPTIONS.statusShares);
    expect(Object.values(counts).reduce((s, n) => s + n, 0)).toBe(9980);
    expect(counts.se).toBe(3992);
    expect(() => apportion(5, { a: 0 })).toThrow(RangeError);
  });

  it('repeats its sequence for a seed and stays within [0, 1)', () => {
    const a = prng(42);
    const b = prng(42);
    const xs = Array.from({ length: 1000 }, () => a());
    expect(xs).toEqual(Array.from({ length: 1000 }, () => b()));
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(new Set(xs).size).toBeGreaterThan(990);
    expect(prng(43)()).not.toBe(xs[0]);
  });
});

describe('seedPlan', () => {
  const plan = seedPlan(OPTIONS);

  it('has exactly the counts asked for', () => {
    expect(plan).toHaveLength(2000);
    expect(expectedTotal(plan, { tag: 'priority' })).toBe(200);
    expect(expectedTotal(plan, { word: 'Renewal' })).toBe(200);
    expect(expectedTotal(plan, { status: 'se' })).toBe(800);
    expect(expectedTotal(plan, { status: 'dr' })).toBe(400);
    expect(expectedTotal(plan, { status: 'ca' })).toBe(300);
    expect(expectedTotal(plan, { status: 'co' })).toBe(500);
    expect(expectedTotal(plan, {})).toBe(2000);
  });

  it('mixes filters independently: tagged bundles have every status, some labels both', () => {
    const tagged = plan.filter((s) => s.tags.includes('priority'));
    expect(new Set(tagged.map((s) => s.status))).toEqual(new Set(['dr', 'se', 'ca', 'co']));
    expect(expectedTotal(plan, { tag: 'priority', word: 'Renewal' })).toBeGreaterThan(0);
    expect(plan.filter((s) => s.tags.some((t) => OTHER_TAGS.includes(t))).length).toBeGreaterThan(600);
  });

  it('is the same plan for the same seed, another for another', () => {
    expect(seedPlan(OPTIONS)).toEqual(plan);
    expect(seedPlan({ ...OPTIONS, seed: 8 }).map((s) => s.status)).not.toEqual(plan.map((s) => s.status));
  });

  it('spreads created times over the span, strictly increasing, newest last', () => {
    const times = plan.map((s) => Date.parse(s.created));
    expect(times.every((t, i) => i === 0 || t > times[i - 1]!)).toBe(true);
    expect(plan.at(-1)!.created).toBe(OPTIONS.newest.toISOString());
    expect(times.at(-1)! - times[0]!).toBe(365 * 86_400_000);
  });

  it('finishes only cancelled and completed bundles, after their creation', () => {
    for (const s of plan) {
      expect(s.finished !== undefined).toBe(s.status === 'ca' || s.status === 'co');
      if (s.finished) expect(s.finished > s.created).toBe(true);
      expect(s.template).toBe(s.index % OPTIONS.templates);
    }
  });

  it('puts the measured word in no label by accident: no other label word starts with it', () => {
    const word = OPTIONS.word.toLowerCase();
    expect(LABEL_WORDS.some((w) => w.toLowerCase().startsWith(word))).toBe(false);
    expect(OTHER_TAGS).not.toContain(OPTIONS.tag);
  });
});

describe('seededBundle', () => {
  const template = aTemplate();

  it('copies the template with new ids, its own label and created time, and documents under its id', () => {
    const { states, documents } = seededBundle(template, spec({}), counterIds());
    expect(states).toHaveLength(1);
    const b = states[0]!;
    expect(b.id).toBe('id00000001');
    expect(b.packets.map((p) => p.id)).toEqual(['id00000002', 'id00000003']);
    expect(b.packets.map((p) => p.personId)).toEqual(['person-ann', 'person-finn']);
    expect(b).toMatchObject({ status: 'dr', label: 'Lease Renewal Offer 1000', version: 1, tags: [] });
    expect(b.created).toBe('2025-09-01T10:00:00.000Z');
    expect(documents[0]!.blobKey).toBe('accounts/acc1/bundles/id00000001/originals/lease.pdf');
    expect(documents[0]!.fields).toEqual(template.documents[0]!.fields);
    expect(b.documents[0]).not.toHaveProperty('fields');
    expect(template.bundle.id).toBe('tmpl000001'); // the template is left alone
  });

  it('sends at create, then adds tags and cancels, one version each', () => {
    const { states } = seededBundle(
      template,
      spec({ status: 'ca', tags: ['priority', 'hr'], finished: '2025-09-03T10:00:00.000Z' }),
      counterIds(),
    );
    expect(states.map((s) => [s.status, s.version])).toEqual([
      ['se', 1],
      ['se', 2],
      ['ca', 3],
    ]);
    expect(states[0]!.sent).toBe('2025-09-01T10:00:00.000Z');
    expect(states[0]!.packets.map((p) => p.status)).toEqual(['se', 'se']);
    expect(states[1]!.tags).toEqual(['priority', 'hr']);
    const last = states[2]!;
    expect(last.packets.map((p) => p.status)).toEqual(['ca', 'ca']);
    expect(last.events.map((e) => e.kind)).toEqual(['cr', 'se', 'ps', 'ps', 'tg', 'ca']);
    expect(last.events.at(-1)!.timestamp).toBe('2025-09-03T10:00:00.000Z');
  });

  it('completes a bundle: every packet and the bundle co with the time, documents ready', () => {
    const at = '2025-09-02T10:00:00.000Z';
    const { states } = seededBundle(template, spec({ status: 'co', finished: at }), counterIds());
    const last = states.at(-1)!;
    expect(last).toMatchObject({ status: 'co', completedAt: at, docsReady: true, version: 2 });
    expect(last.packets.every((p) => p.status === 'co' && p.completedAt === at)).toBe(true);
  });

  it('refuses a template that is not a draft', () => {
    const sent = { ...template, bundle: { ...template.bundle, status: 'se' as const } };
    expect(() => seededBundle(sent, spec({}), counterIds())).toThrow(/draft/);
  });

  it('finds the measured word among the search tokens of a worded label', () => {
    const { states } = seededBundle(template, spec({}), counterIds());
    expect([...bundleSearchTokens(states[0]!)]).toContain('renewal');
  });
});

/**
 * A table in memory that answers what the bundle store sends on create and save, with the
 * conditions it relies on (a new bundle must not exist; a save must match the version read; the
 * create's item is confirmed unless an erasure withdrew it).
 */
function memoryTable() {
  const items = new Map<string, Record<string, unknown>>();
  const keyOf = (k: Record<string, unknown>) => `${k.pk}\u0000${k.sk}`;
  const conditionFailed = () =>
    Object.assign(new Error('condition'), { name: 'ConditionalCheckFailedException' });
  const db = {
    async send(command: unknown) {
      if (command instanceof PutCommand) {
        const { Item, ConditionExpression, ExpressionAttributeValues } = command.input;
        const current = items.get(keyOf(Item!));
        if (ConditionExpression === 'attribute_not_exists(pk)' && current) throw conditionFailed();
        if (
          ConditionExpression === 'version = :v' &&
          current?.version !== ExpressionAttributeValues?.[':v']
        ) {
          throw conditionFailed();
        }
        items.set(keyOf(Item!), structuredClone(Item!));
        return {};
      }
      if (command instanceof BatchWriteCommand) {
        for (const writes of Object.values(command.input.RequestItems!)) {
          for (const w of writes) {
            if (w.PutRequest) items.set(keyOf(w.PutRequest.Item!), structuredClone(w.PutRequest.Item!));
            if (w.DeleteRequest) items.delete(keyOf(w.DeleteRequest.Key!));
          }
        }
        return {};
      }
      if (command instanceof GetCommand) return { Item: items.get(keyOf(command.input.Key!)) };
      if (command instanceof BatchGetCommand) {
        const [table, asked] = Object.entries(command.input.RequestItems!)[0]!;
        const keys = (asked.Keys ?? []) as Record<string, unknown>[];
        return { Responses: { [table]: keys.map((k) => items.get(keyOf(k))).filter(Boolean) } };
      }
      if (
        command instanceof UpdateCommand &&
        command.input.UpdateExpression?.startsWith('SET confirmed = :t')
      ) {
        // The create's item, made or marked confirmed unless an erasure withdrew it.
        const key = command.input.Key!;
        const current = items.get(keyOf(key));
        if (current?.withdrawn) throw conditionFailed();
        const v = command.input.ExpressionAttributeValues!;
        items.set(keyOf(key), {
          ...key,
          ...current,
          entity: v[':entity'],
          entityVersion: v[':entityVersion'],
          confirmed: true,
        });
        return {};
      }
      throw new Error(`unexpected command ${(command as object).constructor.name}`);
    },
  };
  return { db: db as unknown as DynamoDBDocumentClient, items };
}

const byKey = (list: Record<string, unknown>[]) =>
  [...list].sort((a, b) => `${a.pk}\u0000${a.sk}`.localeCompare(`${b.pk}\u0000${b.sk}`));

describe('storeItems', () => {
  it('is exactly what the bundle store leaves after create and each save, for every kind of bundle', async () => {
    const plan = seedPlan({ ...OPTIONS, count: 60, tagged: 20, worded: 20, templates: 1 });
    const kinds = new Set(plan.map((s) => `${s.status}/${s.tags.length > 0}`));
    expect(kinds.size).toBe(8); // every status, with and without tags
    for (const s of plan) {
      const seeded = seededBundle(aTemplate(), s, counterIds());
      const { db, items } = memoryTable();
      // The signers' Persons, which a create finds before it confirms (not the bundle's items).
      const first = seeded.states[0]!;
      const persons = first.packets.map((p) => personKeys.item(first.accountId, p.personId));
      for (const key of persons) items.set(`${key.pk}\u0000${key.sk}`, { ...key });
      const store = createBundleStore(db, 'table');
      await store.create(first, seeded.documents);
      for (const key of persons) items.delete(`${key.pk}\u0000${key.sk}`);
      for (let i = 1; i < seeded.states.length; i++)
        await store.save(seeded.states[i]!, seeded.states[i - 1]!);
      // The create's bundle-creation item goes by its TTL a day on; the seed leaves it out.
      const left = [...items.values()].filter((i) => i.entity !== 'bundle-creation');
      expect(left.length).toBe(items.size - 1);
      expect(byKey(storeItems(seeded))).toEqual(byKey(left));
    }
  });

  it('writes the lookup terms the list filters query', () => {
    const seeded = seededBundle(aTemplate(), spec({ status: 'se', tags: ['priority'] }), counterIds());
    const sks = storeItems(seeded)
      .filter((i) => i.entity === 'bundle-term')
      .map((i) => i.sk);
    expect(sks).toContain('t:priority#id00000001');
    expect(sks).toContain('s:renewal#id00000001');
    const bundle = storeItems(seeded).find((i) => i.entity === 'bundle')!;
    expect(bundle.statusPk).toBe('ACCOUNT#acc1#BUNDLES#se');
    expect(bundle.version).toBe(2);
  });
});
