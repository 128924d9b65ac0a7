// What the List Bundles figures run against: an account with many bundles whose statuses, tags
// and labels are mixed the way an account's would be, and whose items are exactly what the API
// writes. Kept free of I/O (ids and the clock are passed in) so it can be unit-tested; the
// bench writes each state with the bundle store's own create and save (bench/bundles-api.ts).
//
// A seeded bundle starts as a copy of a template bundle the API created (its signers are real
// Persons of the account, its document fields what the API derived from the PDF) with new ids
// and its own label and created time, then goes through the changes the API would make: sent
// at create (as a create without `status: "dr"` is), tags added, cancelled, or completed.
import { bundleTerms } from '#shared/adapters/dynamodb/bundle-terms';
import {
  bundleEntity,
  bundleSatelliteItems,
  bundleTermEntity,
} from '#shared/adapters/dynamodb/entities/bundle';
import { byApiKey } from '#shared/domain/bundles/actor';
import { event } from '#shared/domain/bundles/audit-event';
import type { TBundle, TBundleStatus, TDocument, TPacket } from '#shared/domain/bundles/bundle';
import { originalBlobKey } from '#shared/domain/bundles/create-bundle';
import { send } from '#shared/domain/bundles/lifecycle/transitions';

/** The seeded bundles are made, tagged and cancelled as a sender through the API would. */
const SEEDER = byApiKey('bench-seed');

export type TSeedStatus = Extract<TBundleStatus, 'dr' | 'se' | 'ca' | 'co'>;

export interface TSeedSpec {
  /** Position in the plan: 0 is the oldest bundle. */
  index: number;
  status: TSeedStatus;
  label: string;
  tags: string[];
  /** ISO timestamp; sent (all but drafts) is the same instant, as for a create that sends. */
  created: string;
  /** When a cancelled or completed bundle reached that state. */
  finished?: string;
  /** Which template bundle (signers, document) it copies. */
  template: number;
}

export interface TSeedPlanOptions {
  count: number;
  /** How many bundles carry `tag`, and how many labels contain `word`: exact counts. */
  tag: string;
  tagged: number;
  word: string;
  worded: number;
  /** Share of each status; rounded to exact counts that add up to `count`. */
  statusShares: Record<TSeedStatus, number>;
  templates: number;
  /** The newest bundle's created time; the others spread evenly over `spanDays` before it. */
  newest: Date;
  spanDays: number;
  seed: number;
}

/** Tags besides the measured one: about half of the bundles carry one or two of these. */
export const OTHER_TAGS = ['hr', 'sales', 'legal', 'q1', 'q2', 'q3', 'q4', 'west', 'east', 'vip'];
/** Label words besides the measured one (none starts with it; the bench checks). */
export const LABEL_WORDS = [
  'Lease',
  'Agreement',
  'Contract',
  'Offer',
  'Letter',
  'Consent',
  'Order',
  'Policy',
  'Addendum',
  'Amendment',
  'Services',
  'Employment',
  'Vendor',
  'Supply',
  'Annual',
];

/** mulberry32: a small seeded PRNG, so a plan is the same on every run. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffled<T>(items: T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Counts proportional to `shares` that add up to `total` exactly (largest remainders). */
export function apportion<K extends string>(total: number, shares: Record<K, number>): Record<K, number> {
  const keys = Object.keys(shares) as K[];
  const sum = keys.reduce((s, k) => s + shares[k], 0);
  if (!(sum > 0) || keys.some((k) => !(shares[k] >= 0)))
    throw new RangeError('shares must be ≥ 0, not all 0');
  const exact = keys.map((k) => ({ k, v: (total * shares[k]) / sum }));
  const out = Object.fromEntries(exact.map(({ k, v }) => [k, Math.floor(v)])) as Record<K, number>;
  let left = total - keys.reduce((s, k) => s + out[k], 0);
  for (const { k } of [...exact].sort((a, b) => (b.v % 1) - (a.v % 1))) {
    if (left-- <= 0) break;
    out[k]++;
  }
  return out;
}

/** Exactly `picked` of `count` indices, chosen at random. */
function pick(count: number, picked: number, random: () => number): Set<number> {
  if (picked > count) throw new RangeError(`cannot pick ${picked} of ${count}`);
  return new Set(shuffled([...Array(count).keys()], random).slice(0, picked));
}

export function seedPlan(o: TSeedPlanOptions): TSeedSpec[] {
  if (o.templates < 1) throw new RangeError('at least one template');
  const random = prng(o.seed);
  const counts = apportion(o.count, o.statusShares);
  const statuses = shuffled(
    (Object.keys(counts) as TSeedStatus[]).flatMap((s) => Array<TSeedStatus>(counts[s]).fill(s)),
    random,
  );
  const tagged = pick(o.count, o.tagged, random);
  const worded = pick(o.count, o.worded, random);
  const spanMs = o.spanDays * 86_400_000;
  const step = o.count > 1 ? spanMs / (o.count - 1) : 0;
  const newest = o.newest.getTime();
  return statuses.map((status, index) => {
    // Whole milliseconds, strictly increasing: list order is created order.
    const createdMs = Math.round(newest - (o.count - 1 - index) * step);
    const words = [0, 1].map(() => LABEL_WORDS[Math.floor(random() * LABEL_WORDS.length)]!);
    if (worded.has(index)) words.splice(1, 0, o.word);
    const label = `${words.join(' ')} ${1000 + index}`;
    const tags: string[] = [];
    const others = random();
    if (others < 0.5) tags.push(OTHER_TAGS[Math.floor(random() * OTHER_TAGS.length)]!);
    if (others < 0.15) tags.push(OTHER_TAGS[Math.floor(random() * OTHER_TAGS.length)]!);
    if (tagged.has(index)) tags.push(o.tag);
    const finishedAfterMs = Math.floor(random() * 7 * 86_400_000) + 60_000;
    return {
      index,
      status,
      label,
      tags: [...new Set(tags)],
      created: new Date(createdMs).toISOString(),
      ...(status === 'ca' || status === 'co'
        ? { finished: new Date(createdMs + finishedAfterMs).toISOString() }
        : {}),
      template: index % o.templates,
    };
  });
}

export interface TSeedTemplate {
  /** A draft the API created, as the store returns it. */
  bundle: TBundle;
  /** Its documents with their fields, as the store returns them. */
  documents: TDocument[];
}

export interface TSeededBundle {
  documents: TDocument[];
  /** The state `create` writes, then each state `save` writes, in order (versions 1, 2, …). */
  states: TBundle[];
}

/**
 * A bundle of the plan, state by state. The changes are the ones the API applies: `applySend`
 * at create, then what add_tags and cancel do (shared/domain/bundles/change-tags.ts,
 * cancel-bundle.ts). Completion has no API yet; it is what signing will do: every packet and
 * the bundle `co` with their completion time, documents ready.
 */
export function seededBundle(
  template: TSeedTemplate,
  spec: TSeedSpec,
  ids: { slug: () => string },
): TSeededBundle {
  const t = template.bundle;
  if (t.status !== 'dr') throw new Error(`a template must be a draft, not "${t.status}"`);
  const id = ids.slug();
  const documents = template.documents.map((d) => ({
    ...d,
    blobKey: originalBlobKey(t.accountId, id, d.key),
  }));
  const packets = t.packets.map((p): TPacket => ({ ...p, id: ids.slug(), status: 'ne' }));
  const draft: TBundle = {
    ...t,
    id,
    label: spec.label,
    created: spec.created,
    packets,
    documents: documents.map(({ fields: _fields, ...d }) => d),
    tags: [],
    events: [event('created', spec.created, SEEDER), event('drafted', spec.created, SEEDER)],
    version: 1,
  };
  const first =
    spec.status === 'dr'
      ? draft
      : send({ ...draft, events: [event('created', spec.created, SEEDER)] }, spec.created, SEEDER);
  const states = [first];
  const next = (change: (b: TBundle) => TBundle) => {
    const previous = states[states.length - 1]!;
    states.push({ ...change(previous), version: previous.version + 1 });
  };
  if (spec.tags.length > 0) {
    next((b) => ({
      ...b,
      tags: spec.tags,
      events: [
        ...b.events,
        event('tagsChanged', spec.created, SEEDER, undefined, `added ${spec.tags.join(', ')}`),
      ],
    }));
  }
  const at = spec.finished ?? spec.created;
  if (spec.status === 'ca') {
    next((b) => ({
      ...b,
      status: 'ca',
      packets: b.packets.map((p) => (p.status === 'co' ? p : { ...p, status: 'ca' })),
      events: [...b.events, event('cancelled', at, SEEDER)],
    }));
  } else if (spec.status === 'co') {
    next((b) => ({
      ...b,
      status: 'co',
      completedAt: at,
      docsReady: true,
      packets: b.packets.map((p) => ({ ...p, status: 'co', completedAt: at })),
    }));
  }
  return { documents, states };
}

/** How many bundles of the plan a list with this filter returns (the API-created drafts apart). */
export function expectedTotal(
  plan: readonly TSeedSpec[],
  filter: { status?: TSeedStatus; tag?: string; word?: string },
): number {
  return plan.filter(
    (s) =>
      (filter.status === undefined || s.status === filter.status) &&
      (filter.tag === undefined || s.tags.includes(filter.tag)) &&
      (filter.word === undefined || s.label.split(' ').includes(filter.word)),
  ).length;
}

/**
 * The items the bundle store leaves in the table once it has written every state of a seeded
 * bundle (shared/adapters/dynamodb/bundle-store.ts: create, then save for each later state):
 * documents, packet references, person links, the bundle item as of its last state, and the
 * lookup terms of that state. No state change the seed makes removes a term, and the store keeps
 * no trace of earlier states (the events stay inline below 100), so these are all of them.
 * test/bench/bundle-seed.test.ts checks this against the store itself.
 */
export function storeItems(seeded: TSeededBundle): Record<string, unknown>[] {
  const last = seeded.states[seeded.states.length - 1]!;
  const { accountId, id } = last;
  return [
    // Not the create's own bundle-creation item: it goes by its TTL a day after the create, and
    // the seeded bundles stand for ones made before.
    ...bundleSatelliteItems(last, seeded.documents),
    bundleEntity.toItem(last),
    ...bundleTerms(last).map((term) =>
      bundleTermEntity.toItem({ accountId, term, id, created: last.created }),
    ),
  ];
}
