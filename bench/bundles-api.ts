// Bundles over the local API: creating one (a 10-page PDF, two signers) under load, listing an
// account that holds many bundles, and what each call costs in DynamoDB requests and read units.
//
// Read units are what the table reports: a middleware on the functions' DynamoDB client sets
// ReturnConsumedCapacity: 'TOTAL' on every command of a measured call and sums ConsumedCapacity.
// dynalite computes it by DynamoDB's rules (per item rounded up to 4 KB for Get/BatchGet, summed
// sizes rounded up to 4 KB for Query, index entries for an index, half for eventually consistent
// reads); bench/capacity.ts recomputes it from the answers wherever they carry whole items, and
// the report says how many commands agreed.

import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { StandardFonts } from 'pdf-lib';
import { FIRST_QUERY } from '#functions/console-app/web/bundle-query';
import { currentInvocation } from '#infra/local/invocation';
import { dataPaths } from '#infra/local/layout';
import type { TRuntime } from '#infra/local/runtime';
import { batchWrite } from '#shared/adapters/dynamodb/batch';
import { createBundleStore } from '#shared/adapters/dynamodb/bundle-store';
import { randomIds } from '#shared/adapters/system';
import { aBundle } from '../test/helpers/bundles';
import { aPdf } from '../test/helpers/pdfs';
import {
  expectedTotal,
  LABEL_WORDS,
  seededBundle,
  seedPlan,
  storeItems,
  type TSeedSpec,
  type TSeedTemplate,
} from './bundle-seed';
import { consumedUnits, describeCommands, ownReadUnits, pageCostRatio } from './capacity';
import { benchConsoleScreens, consoleScreensJson, type TConsoleScreens } from './console-screens';
import { kb, mark, ms, table } from './format';
import { runLoad, type TLoadResult } from './load';
import { startBenchRuntime } from './runtime';
import { median, summarize, type TLatencySummary } from './stats';

/** The list account's user, who also signs in to the console. */
const LISTS_EMAIL = 'lists@example.test';

export interface TBundlesApiOptions {
  createConcurrency?: number;
  createWarmup?: number;
  createRequests?: number;
  /** Bundles the list account holds in all (the API-created templates included). */
  listBundles?: number;
  templates?: number;
  seedConcurrency?: number;
  /** Timed calls per list variant and page (after one untimed call). */
  listReps?: number;
  perPage?: number;
  deepPage?: number;
  phaseMaxMs?: number;
  /** How many of the seeded bundles go through the store's create and save (the rest as items). */
  storeSample?: number;
}

export interface TCallCost {
  /** Command names in the order sent (retries not repeated). */
  commands: string[];
  /** HTTP requests to DynamoDB, retries included. */
  httpRequests: number;
  /** Read units reported for GetItem, BatchGetItem, Query (and Scan). */
  readUnits: number;
  /** Read commands whose units could be recomputed from the answer, and those that disagreed. */
  checked: number;
  mismatches: string[];
}

export interface TCreatePhase extends TLatencySummary {
  failures: { message: string; count: number }[];
  timedOut: boolean;
  concurrency: number;
  pdfPages: number;
  pdfBytes: number;
  requestBytes: number;
}

export interface TListPage {
  page: number;
  /** Timed calls, in ms. */
  runsMs: number[];
  p50Ms: number;
  cost: TCallCost;
}

export interface TListVariant {
  name: string;
  query: string;
  /** Bundles the filter matches (the pagination header's total, checked against the seed plan). */
  total: number;
  first: TListPage;
  deep: TListPage;
  readUnitsRatio: { ratio: number; ok: boolean };
  requestsRatio: { ratio: number; ok: boolean };
}

export interface TSeeding {
  bundles: number;
  /** The whole seeding, templates included. */
  ms: number;
  concurrency: number;
  /** Template drafts created through the API (a 10-page PDF each). */
  viaApi: number;
  viaApiMs: number;
  /** Bundles written by the store's create, then save for each later state. */
  viaStore: number;
  viaStoreMs: number;
  viaStoreSaves: number;
  /** Bundles written as the store's items (`storeItems`), 25 items a BatchWriteItem. */
  viaItems: number;
  viaItemsMs: number;
  items: number;
  batchWrites: number;
  statuses: Record<string, number>;
}

export interface TBundlesApiFigures {
  create: TCreatePhase;
  seeding: TSeeding;
  perPage: number;
  deepPage: number;
  list: TListVariant[];
  calls: { retrieve: TCallCost; create: TCallCost };
  /** The console's first usable screens over the seeded account (bench/console-screens.ts). */
  console?: TConsoleScreens;
  /** Wrong answers outside the create load (lists, retrieve, templates): each makes the run fail. */
  failures: string[];
}

interface TAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** node:http with a keep-alive agent (as bench/api-vs-dynalite.ts: fetch costs more CPU). */
function httpClient(baseUrl: string, agent: http.Agent) {
  const { hostname, port } = new URL(baseUrl);
  return (apiKey: string, method: string, path: string, payload?: string): Promise<TAnswer> =>
    new Promise((resolve, reject) => {
      const headers: http.OutgoingHttpHeaders = {
        authorization: `Token ${apiKey}`,
        accept: 'application/json',
      };
      if (payload !== undefined) {
        headers['content-type'] = 'application/json';
        headers['content-length'] = Buffer.byteLength(payload);
      }
      const req = http.request({ agent, hostname, port, method, path: `/api/v2${path}`, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        );
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(payload);
    });
}

const unexpected = (what: string, a: TAnswer) =>
  new Error(`${what}: HTTP ${a.status} ${a.body.slice(0, 160)}`);

const READS = new Set(['GetItem', 'BatchGetItem', 'Query', 'Scan']);

/**
 * Whether a request is the measured call's own: sent by the bundles function (or its authorizer),
 * not by a worker its jobs started meanwhile, nor by the load before it still draining.
 */
const ofTheCall = () => {
  const fn = currentInvocation()?.fn;
  return fn === 'bundles' || fn === 'authorizer';
};

/**
 * Records, for the one API call in flight, the commands its function sends, the HTTP attempts,
 * and the read units DynamoDB reports. Outside a recorded call nothing is changed or counted.
 */
function costRecorder() {
  let session: TCallCost | undefined;
  return {
    instrument(db: TRuntime['db']) {
      db.middlewareStack.add(
        (next, context) => async (args) => {
          const cost = session;
          if (!cost || !ofTheCall()) return next(args);
          const command = String(context.commandName ?? 'unknown').replace(/Command$/, '');
          cost.commands.push(command);
          const input = { ...(args.input as Record<string, unknown>), ReturnConsumedCapacity: 'TOTAL' };
          const result = await next({ ...args, input });
          if (READS.has(command)) {
            const output = result.output as Record<string, unknown>;
            const reported = consumedUnits(output);
            if (reported === undefined) {
              cost.mismatches.push(`${command}: no ConsumedCapacity in the answer`);
            } else {
              cost.readUnits += reported;
              const own = ownReadUnits({ command, input, output });
              if (own !== undefined) {
                cost.checked++;
                if (own !== reported)
                  cost.mismatches.push(`${command}: reported ${reported}, computed ${own}`);
              }
            }
          }
          return result;
        },
        { step: 'initialize', name: 'benchCostRecorder' },
      );
      // The deserialize step runs inside the retry loop, once per attempt.
      db.middlewareStack.add(
        (next) => async (args) => {
          if (session && ofTheCall()) session.httpRequests++;
          return next(args);
        },
        { step: 'deserialize', name: 'benchCostAttempts' },
      );
    },
    /** The cost of `call`, which must be the only thing using the client meanwhile. */
    async around(call: () => Promise<void>): Promise<TCallCost> {
      const cost: TCallCost = { commands: [], httpRequests: 0, readUnits: 0, checked: 0, mismatches: [] };
      session = cost;
      try {
        await call();
        // Anything the function left running after answering is still its cost: let it land.
        await new Promise((r) => setTimeout(r, 50));
      } finally {
        session = undefined;
      }
      return cost;
    },
  };
}

/** Ten pages of running text, as a contract would have, with "Sign here" on the last. */
async function tenPagePdf(): Promise<Uint8Array> {
  const line = (p: number, l: number) =>
    `${p}.${l} The parties agree to the terms set out in this section, clause ${p * 100 + l}.`;
  return aPdf({
    pages: Array.from({ length: 10 }, (_, p) => ({
      size: 'Letter' as const,
      text: [
        {
          value: `Agreement, page ${p + 1} of 10`,
          x: 72,
          y: 740,
          size: 16,
          font: StandardFonts.HelveticaBold,
        },
        ...Array.from({ length: 20 }, (_, l) => ({
          value: line(p + 1, l + 1),
          x: 72,
          y: 700 - l * 28,
          size: 11,
        })),
        ...(p === 9 ? [{ value: 'Sign here', x: 72, y: 100, size: 12 }] : []),
      ],
    })),
  });
}

/** The measured tag (on exactly 10% of the bundles) and label word (in exactly 10% of labels). */
const TAG = 'priority';
const WORD = 'Renewal';

const FIRST = ['Ann', 'Bob', 'Cleo', 'Dev', 'Eva', 'Finn', 'Gus', 'Hana', 'Ivo', 'Jun', 'Kim', 'Lea'];
const LAST = ['Lee', 'Roe', 'Diaz', 'Okafor', 'Novak', 'Berg', 'Sato', 'Moreau', 'Kaur', 'Silva'];

/** Template k's two signers: one by email, one by phone, so both kinds of search token exist. */
function templateSigners(k: number) {
  const a = `${FIRST[k % FIRST.length]} ${LAST[k % LAST.length]}`;
  const b = `${FIRST[(k + 5) % FIRST.length]} ${LAST[(k + 3) % LAST.length]}`;
  return [
    { key: 'client', name: a, email: `${a.toLowerCase().replace(' ', '.')}.${k}@example.test` },
    {
      key: 'agent',
      name: b,
      phone: `+1 555 01${String(k).padStart(2, '0')} ${String(3000 + k)}`,
      deliver_via: 'phone',
    },
  ];
}

export async function benchBundlesApi(opts: TBundlesApiOptions = {}): Promise<TBundlesApiFigures> {
  const createConcurrency = opts.createConcurrency ?? 8;
  const createWarmup = opts.createWarmup ?? 20;
  const createRequests = opts.createRequests ?? 200;
  const listBundles = opts.listBundles ?? 10_000;
  const templates = opts.templates ?? 20;
  const seedConcurrency = opts.seedConcurrency ?? 16;
  const listReps = opts.listReps ?? 5;
  const perPage = opts.perPage ?? 50;
  const deepPage = opts.deepPage ?? 20;
  const maxMs = opts.phaseMaxMs ?? 60_000;
  const storeSample = opts.storeSample ?? 1000;
  const recorder = costRecorder();
  const failures: string[] = [];

  const runtime = await startBenchRuntime((db) => recorder.instrument(db));
  const agent = new http.Agent({ keepAlive: true, maxSockets: Math.max(createConcurrency, seedConcurrency) });
  try {
    const call = httpClient(runtime.baseUrl, agent);
    const table = runtime.config.tableName;
    const store = createBundleStore(runtime.db, table);

    // 1. Create under load, on the demo account.
    const pdf = await tenPagePdf();
    const b64 = Buffer.from(pdf).toString('base64');
    const demoKey = runtime.demo.apiKey;
    const createBody = (i: number) => JSON.stringify(aBundle({ label: `Bench create ${i}` }, b64));
    const createOne = async (i: number) => {
      const answer = await call(demoKey, 'POST', '/bundles/', createBody(i));
      if (answer.status !== 201) throw unexpected('POST /bundles/', answer);
    };
    const strict = (r: TLoadResult, what: string) => {
      if (r.failed > 0) throw new Error(`${what} failed: ${JSON.stringify(r.failures.slice(0, 3))}`);
    };
    strict(
      await runLoad(createOne, { requests: createWarmup, concurrency: createConcurrency }),
      'warm-up create',
    );
    const createRun = await runLoad((i) => createOne(1000 + i), {
      requests: createRequests,
      concurrency: createConcurrency,
      maxMs,
    });
    const createCost = await recorder.around(() => createOne(99_999));

    // 2. The list account: templates through the API, the bulk through the bundle store.
    const lists = await runtime.seedAccount('Bench Lists', LISTS_EMAIL);
    const accountId = lists.accountId;
    const t0 = performance.now();
    const templateIds: string[] = [];
    strict(
      await runLoad(
        async (k) => {
          const body = aBundle(
            { label: `Template ${k + 1}`, status: 'dr', packets: templateSigners(k) },
            b64,
          ) as Record<string, unknown>;
          // aBundle's field names its own signer "ann"; the templates' first signer is "client".
          (body.documents as { fields: { editors: string[] }[] }[])[0]!.fields[0]!.editors = ['client'];
          const answer = await call(lists.apiKey, 'POST', '/bundles/', JSON.stringify(body));
          if (answer.status !== 201) throw unexpected('POST /bundles/ (template)', answer);
          templateIds[k] = (JSON.parse(answer.body) as { id: string }).id;
        },
        { requests: templates, concurrency: 4 },
      ),
      'template create',
    );
    const templatesMs = performance.now() - t0;
    const seedTemplates: TSeedTemplate[] = [];
    for (const id of templateIds) {
      const bundle = (await store.get(accountId, id))!;
      seedTemplates.push({ bundle, documents: await store.documents(bundle) });
    }

    const plan: TSeedSpec[] = seedPlan({
      count: listBundles - templates,
      tag: TAG,
      tagged: Math.round(listBundles / 10),
      word: WORD,
      worded: Math.round(listBundles / 10),
      statusShares: { dr: 0.2, se: 0.4, ca: 0.15, co: 0.25 },
      templates,
      // Older than the templates, which the API created a moment ago.
      newest: new Date(Date.now() - 3_600_000),
      spanDays: 365,
      seed: 20_240_601,
    });
    if (LABEL_WORDS.some((w) => w.toLowerCase().startsWith(WORD.toLowerCase()))) {
      throw new Error(
        'a label word other than the measured one starts with it: the search total would be off',
      );
    }
    // A sample through the store itself (its rate is reported), the rest as the very items the
    // store leaves behind (storeItems; test/bench/bundle-seed.test.ts holds it to the store),
    // written with BatchWriteItem: several times faster, as it skips the intermediate states.
    const viaStore = Math.min(plan.length, storeSample);
    let saves = 0;
    const tStore = performance.now();
    strict(
      await runLoad(
        async (i) => {
          const spec = plan[i]!;
          const { documents, states } = seededBundle(seedTemplates[spec.template]!, spec, randomIds);
          await store.create(states[0]!, documents);
          for (let s = 1; s < states.length; s++) {
            await store.save(states[s]!, states[s - 1]!);
            saves++;
          }
        },
        { requests: viaStore, concurrency: seedConcurrency },
      ),
      'seeding through the store',
    );
    const storeMs = performance.now() - tStore;
    const tItems = performance.now();
    const items = plan
      .slice(viaStore)
      .flatMap((spec) => storeItems(seededBundle(seedTemplates[spec.template]!, spec, randomIds)));
    const chunks: Record<string, unknown>[][] = [];
    for (let i = 0; i < items.length; i += 25) chunks.push(items.slice(i, i + 25));
    strict(
      await runLoad(
        (i) =>
          batchWrite(
            runtime.db,
            table,
            chunks[i]!.map((put) => ({ put })),
          ),
        {
          requests: chunks.length,
          concurrency: seedConcurrency,
        },
      ),
      'seeding items',
    );
    const itemsMs = performance.now() - tItems;
    const seedMs = performance.now() - t0;
    const statuses: Record<string, number> = { dr: templates };
    for (const s of plan) statuses[s.status] = (statuses[s.status] ?? 0) + 1;

    // 3. Lists: each variant's page 1 and deep page, timed, then one call recorded for its cost.
    const variants: { name: string; query: string; expected: number; check: (b: TListed) => boolean }[] = [
      { name: 'plain', query: '', expected: listBundles, check: () => true },
      {
        name: 'status=se',
        query: 'status=se',
        expected: expectedTotal(plan, { status: 'se' }),
        check: (b) => b.status === 'se',
      },
      {
        name: `tag=${TAG}`,
        query: `tag=${TAG}`,
        expected: expectedTotal(plan, { tag: TAG }),
        check: (b) => b.tags.includes(TAG),
      },
      {
        name: `search=${WORD.toLowerCase()}`,
        query: `search=${WORD.toLowerCase()}`,
        expected: expectedTotal(plan, { word: WORD }),
        check: (b) => b.label.split(' ').includes(WORD),
      },
    ];
    const listOnce = async (v: (typeof variants)[number], page: number) => {
      const q = `${v.query ? `${v.query}&` : ''}page=${page}&per_page=${perPage}`;
      const answer = await call(lists.apiKey, 'GET', `/bundles/?${q}`);
      const what = `GET /bundles/?${q}`;
      if (answer.status !== 200) throw unexpected(what, answer);
      const total = Number(String(answer.headers['x-blueink-pagination'] ?? '').split(',')[3]);
      const items = JSON.parse(answer.body) as TListed[];
      const wanted = Math.max(0, Math.min(perPage, v.expected - (page - 1) * perPage));
      if (total !== v.expected) throw new Error(`${what}: total ${total}, the seed plan says ${v.expected}`);
      if (items.length !== wanted) throw new Error(`${what}: ${items.length} bundles, expected ${wanted}`);
      if (!items.every(v.check)) throw new Error(`${what}: a bundle that does not match the filter`);
      return total;
    };
    /**
     * Page 1 and the deep page alternately, so both see the same state of the heap (the seeding
     * leaves plenty for the collector), after one untimed call each; then one recorded call each.
     */
    const measurePages = async (v: (typeof variants)[number]): Promise<[TListPage, TListPage]> => {
      const pages = [1, deepPage] as const;
      for (const page of pages) await listOnce(v, page); // untimed: JIT and caches
      const runs: number[][] = [[], []];
      for (let r = 0; r < listReps; r++) {
        for (const [i, page] of pages.entries()) {
          const t = performance.now();
          await listOnce(v, page);
          runs[i]!.push(performance.now() - t);
        }
      }
      const measured: TListPage[] = [];
      for (const [i, page] of pages.entries()) {
        const cost = await recorder.around(async () => {
          await listOnce(v, page);
        });
        measured.push({ page, runsMs: runs[i]!, p50Ms: median(runs[i]!), cost });
      }
      return [measured[0]!, measured[1]!];
    };
    const list: TListVariant[] = [];
    for (const v of variants) {
      try {
        const [first, deep] = await measurePages(v);
        list.push({
          name: v.name,
          query: v.query,
          total: v.expected,
          first,
          deep,
          readUnitsRatio: pageCostRatio(first.cost.readUnits, deep.cost.readUnits, deepPage),
          requestsRatio: pageCostRatio(first.cost.commands.length, deep.cost.commands.length, deepPage),
        });
      } catch (err) {
        failures.push(`list ${v.name}: ${(err as Error).message}`);
      }
    }

    // 4. Retrieve: a completed bundle with tags, the largest kind the seed made (ids are random:
    // the newest such bundle, found through a list).
    const sample = plan.findLast((s) => s.status === 'co' && s.tags.length > 0);
    let retrieveId = templateIds[0]!;
    if (sample) {
      const answer = await call(lists.apiKey, 'GET', `/bundles/?status=co&tag=${sample.tags[0]}&per_page=1`);
      const found = answer.status === 200 ? (JSON.parse(answer.body) as TListed[])[0] : undefined;
      if (found) retrieveId = found.id;
      else
        failures.push(
          `finding a completed bundle to retrieve: ${unexpected('GET /bundles/', answer).message}`,
        );
    }
    await call(lists.apiKey, 'GET', `/bundles/${retrieveId}/`); // untimed warm-up
    const retrieveCost = await recorder.around(async () => {
      const answer = await call(lists.apiKey, 'GET', `/bundles/${retrieveId}/`);
      if (answer.status !== 200) failures.push(unexpected('GET /bundles/{id}/', answer).message);
      else if ((JSON.parse(answer.body) as TListed).id !== retrieveId)
        failures.push('GET /bundles/{id}/: wrong bundle');
    });

    for (const cost of [createCost, retrieveCost, ...list.flatMap((v) => [v.first.cost, v.deep.cost])]) {
      for (const m of cost.mismatches) failures.push(`read units: ${m}`);
    }

    // 5. The console over the same account, in Chromium: its first usable screens.
    let consoleScreens: TConsoleScreens | undefined;
    try {
      consoleScreens = await benchConsoleScreens({
        baseUrl: runtime.baseUrl,
        mailboxDir: dataPaths(runtime.dataDir).mailbox,
        email: LISTS_EMAIL,
        bundles: listBundles,
      });
      if (consoleScreens.rows !== Math.min(FIRST_QUERY.perPage, listBundles))
        failures.push(`console: the list showed ${consoleScreens.rows} rows`);
    } catch (err) {
      failures.push(`console: ${(err as Error).message}`);
    }

    return {
      create: {
        ...summarize(createRun.latenciesMs, createRun.failed, createRun.elapsedMs),
        failures: createRun.failures,
        timedOut: createRun.timedOut,
        concurrency: createConcurrency,
        pdfPages: 10,
        pdfBytes: pdf.length,
        requestBytes: Buffer.byteLength(createBody(0)),
      },
      seeding: {
        bundles: listBundles,
        ms: seedMs,
        concurrency: seedConcurrency,
        viaApi: templates,
        viaApiMs: templatesMs,
        viaStore,
        viaStoreMs: storeMs,
        viaStoreSaves: saves,
        viaItems: plan.length - viaStore,
        viaItemsMs: itemsMs,
        items: items.length,
        batchWrites: chunks.length,
        statuses,
      },
      perPage,
      deepPage,
      list,
      calls: { retrieve: retrieveCost, create: createCost },
      ...(consoleScreens ? { console: consoleScreens } : {}),
      failures,
    };
  } finally {
    agent.destroy();
    await runtime.stop();
  }
}

interface TListed {
  id: string;
  status: string;
  tags: string[];
  label: string;
}

export const BUNDLES_API_TARGETS = {
  /** GET /bundles/{id}/ is one GetItem (ARCHITECTURE.md, access patterns). */
  retrieveDbCalls: 1,
} as const;

const s = (v: number) => `${(v / 1000).toFixed(1)} s`;
const units = (v: number) => String(Number(v.toFixed(2)));
const int = (v: number) => v.toLocaleString('en-US');

/** The commands, and the HTTP requests when retries made them more. */
const requestsOf = (c: TCallCost) =>
  `${describeCommands(c.commands)}${
    c.httpRequests !== c.commands.length ? `, ${c.httpRequests} HTTP requests with retries` : ''
  }`;

const readsOf = (c: TCallCost) => c.commands.filter((x) => READS.has(x)).length;

function allCosts(f: TBundlesApiFigures): TCallCost[] {
  return [f.calls.retrieve, f.calls.create, ...f.list.flatMap((v) => [v.first.cost, v.deep.cost])];
}

/** The tables `npm run bench` prints for bundles. */
export function bundlesApiReport(f: TBundlesApiFigures): string {
  const out: string[] = [];
  const c = f.create;
  out.push(
    '',
    `Create a bundle over HTTP (POST /bundles/: one ${c.pdfPages}-page PDF as file_b64, ${kb(c.pdfBytes)}; ` +
      `2 signers; body ${kb(c.requestBytes)}; concurrency ${c.concurrency})`,
    table(
      [
        ['  phase', 'ok', 'failed', 'req/s', 'p50', 'p99', ''],
        [
          '  POST /bundles/ → 201',
          String(c.ok),
          String(c.failed),
          c.rps.toFixed(1),
          ms(c.p50Ms),
          ms(c.p99Ms),
          c.timedOut ? 'cut short by the time bound' : '',
        ],
      ],
      ['l', 'r', 'r', 'r', 'r', 'r', 'l'],
    ),
  );
  for (const x of c.failures) out.push(`  FAILED POST /bundles/ ×${x.count}: ${x.message}`);

  const sd = f.seeding;
  const storeRate = sd.viaStoreMs > 0 ? (sd.viaStore * 1000) / sd.viaStoreMs : 0;
  const itemsRate = sd.viaItemsMs > 0 ? (sd.viaItems * 1000) / sd.viaItemsMs : 0;
  const reps = f.list[0]?.first.runsMs.length ?? 0;
  out.push(
    '',
    `List Bundles, account holding ${int(sd.bundles)} bundles (per_page ${f.perPage}; p50 of ${reps} calls; ` +
      'DynamoDB requests and read units of one call)',
    table(
      [
        ['  filter', 'matches', 'page', 'p50', 'DynamoDB requests', 'read units'],
        ...f.list.flatMap((v) =>
          [v.first, v.deep].map((p, i) => [
            i === 0 ? `  ${v.query || '(none)'}` : '',
            i === 0 ? int(v.total) : '',
            String(p.page),
            ms(p.p50Ms),
            requestsOf(p.cost),
            units(p.cost.readUnits),
          ]),
        ),
      ],
      ['l', 'r', 'r', 'r', 'l', 'r'],
    ),
    `  statuses: ${Object.entries(sd.statuses)
      .map(([k, n]) => `${k} ${int(n)}`)
      .join(', ')}`,
    `  seeded in ${s(sd.ms)} (concurrency ${sd.concurrency}): ${int(sd.viaApi)} drafts via the API (${s(sd.viaApiMs)}); ` +
      `${int(sd.viaStore)} through the store's create + save (${int(sd.viaStoreSaves)} saves; ${s(sd.viaStoreMs)}, ` +
      `${storeRate.toFixed(0)} bundles/s, so all ${int(sd.bundles)} this way ≈ ${s((sd.bundles * 1000) / Math.max(storeRate, 1e-9))}); ` +
      `${int(sd.viaItems)} as the store's items, ${int(sd.items)} in ${int(sd.batchWrites)} BatchWriteItem ` +
      `(${s(sd.viaItemsMs)}, ${itemsRate.toFixed(0)} bundles/s)`,
  );

  const rows: string[][] = [['  call', 'DynamoDB requests', 'read units', 'target']];
  const r = f.calls.retrieve;
  rows.push([
    '  GET /bundles/{id}/',
    requestsOf(r),
    units(r.readUnits),
    `${BUNDLES_API_TARGETS.retrieveDbCalls} request ${mark(r.commands.length <= BUNDLES_API_TARGETS.retrieveDbCalls)}`,
  ]);
  for (const v of f.list) {
    const q = v.query ? `${v.query}&` : '';
    rows.push([`  GET /bundles/?${q}page=1`, requestsOf(v.first.cost), units(v.first.cost.readUnits), '']);
    rows.push([
      `  GET /bundles/?${q}page=${f.deepPage}`,
      requestsOf(v.deep.cost),
      units(v.deep.cost.readUnits),
      `÷ page 1: units ${v.readUnitsRatio.ratio.toFixed(2)}, requests ${v.requestsRatio.ratio.toFixed(2)}; ` +
        `≤ ${f.deepPage} ${mark(v.readUnitsRatio.ok && v.requestsRatio.ok)}`,
    ]);
  }
  rows.push(['  POST /bundles/', requestsOf(f.calls.create), units(f.calls.create.readUnits), '']);
  const costs = allCosts(f);
  const reads = costs.reduce((n, x) => n + readsOf(x), 0);
  const checked = costs.reduce((n, x) => n + x.checked, 0);
  const mismatches = costs.reduce((n, x) => n + x.mismatches.length, 0);
  out.push(
    '',
    `DynamoDB requests and read units per API call (authorizer cache warm; list per_page ${f.perPage})`,
    table(rows, ['l', 'l', 'r', 'l']),
    '  read units: ConsumedCapacity as dynalite reports it (ReturnConsumedCapacity TOTAL on every command);',
    `  recomputed from the answers by DynamoDB's rules for ${checked} of ${reads} read commands ` +
      `(the others project attributes): ${mismatches === 0 ? 'all agree' : `${mismatches} differ`}`,
  );
  if (f.console) {
    const c = consoleScreensJson(f.console);
    out.push(
      '',
      `Console in Chromium, first visit, median of ${c.reps} (navigation start to usable controls)`,
      table(
        [
          ['  screen', 'ms'],
          ['  sign-in (signed out)', String(c.signInScreenMedianMs)],
          [
            `  bundle list (${c.rows} rows of ${c.bundles.toLocaleString('en')} bundles)`,
            String(c.bundleListMedianMs),
          ],
        ],
        ['l', 'r'],
      ),
    );
  }
  for (const x of f.failures) out.push(`  FAILED ${x}`);
  return out.join('\n');
}

const rounded = (v: number, digits = 2) =>
  Number.isFinite(v) ? Math.round(v * 10 ** digits) / 10 ** digits : v;

function costJson(c: TCallCost) {
  return {
    requests: c.commands.length,
    httpRequests: c.httpRequests,
    commands: c.commands,
    readUnits: rounded(c.readUnits),
  };
}

/** results.json's `bundlesApi`: keys in a fixed order, figures rounded. */
export function bundlesApiJson(f: TBundlesApiFigures) {
  const c = f.create;
  const sd = f.seeding;
  const costs = allCosts(f);
  return {
    create: {
      concurrency: c.concurrency,
      pdfPages: c.pdfPages,
      pdfBytes: c.pdfBytes,
      requestBytes: c.requestBytes,
      ok: c.ok,
      failed: c.failed,
      rps: rounded(c.rps, 1),
      p50Ms: rounded(c.p50Ms),
      p99Ms: rounded(c.p99Ms),
    },
    list: {
      bundles: sd.bundles,
      perPage: f.perPage,
      deepPage: f.deepPage,
      seeding: {
        ms: Math.round(sd.ms),
        concurrency: sd.concurrency,
        viaApi: sd.viaApi,
        viaApiMs: Math.round(sd.viaApiMs),
        viaStore: sd.viaStore,
        viaStoreMs: Math.round(sd.viaStoreMs),
        viaStoreSaves: sd.viaStoreSaves,
        viaItems: sd.viaItems,
        viaItemsMs: Math.round(sd.viaItemsMs),
        items: sd.items,
        batchWrites: sd.batchWrites,
        statuses: sd.statuses,
      },
      variants: Object.fromEntries(
        f.list.map((v) => [
          v.name,
          {
            query: v.query,
            total: v.total,
            page1: { p50Ms: rounded(v.first.p50Ms), ...costJson(v.first.cost) },
            [`page${f.deepPage}`]: { p50Ms: rounded(v.deep.p50Ms), ...costJson(v.deep.cost) },
            ratio: { readUnits: rounded(v.readUnitsRatio.ratio), requests: rounded(v.requestsRatio.ratio) },
            met: v.readUnitsRatio.ok && v.requestsRatio.ok,
          },
        ]),
      ),
    },
    dbCallsPerRequest: {
      retrieve: {
        ...costJson(f.calls.retrieve),
        met: f.calls.retrieve.commands.length <= BUNDLES_API_TARGETS.retrieveDbCalls,
      },
      create: costJson(f.calls.create),
    },
    ...(f.console ? { console: consoleScreensJson(f.console) } : {}),
    readUnits: {
      method:
        'dynalite ConsumedCapacity (ReturnConsumedCapacity TOTAL), recomputed where answers carry whole items',
      readCommands: costs.reduce((n, x) => n + readsOf(x), 0),
      recomputed: costs.reduce((n, x) => n + x.checked, 0),
      mismatches: costs.reduce((n, x) => n + x.mismatches.length, 0),
    },
  };
}

/** Whether the run must fail: a wrong answer anywhere, whose figures would describe something else. */
export const bundlesApiFailed = (f: TBundlesApiFigures) => f.create.failed > 0 || f.failures.length > 0;
