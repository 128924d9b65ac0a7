// What one API call costs on DynamoDB, by the function that sent each request (the local runtime
// runs every invocation in its own scope, infra/local/invocation.ts): the call's own requests,
// read and write units as DynamoDB reports them, and what the workers its jobs started sent
// afterwards. Calls: POST /bundles/ (two signers, one document; signers new, then already
// Persons), GET /bundles/{id}/, and a signer's POST /sign/api/session (as the signing page opens
// it, with its first state) and POST /sign/api/complete.
import http from 'node:http';
import { currentInvocation } from '#infra/local/invocation';
import type { TRuntime } from '#infra/local/runtime';
import { aBundle, aPdfB64 } from '../test/helpers/bundles';
import { consumedUnits } from './capacity';
import { mark, table } from './format';
import { answerOf, embedToken, serviceClients } from './http';
import { startBenchRuntime } from './runtime';
import { round } from './stats';

export const REQUEST_COST_TARGETS = { createRequests: 15 } as const;

export interface TRequestCost {
  /** The calling function's own requests, in order. */
  commands: string[];
  readUnits: number;
  writeUnits: number;
  /** Requests the workers sent afterwards, by function (notifications, webhooks, documents). */
  afterwards: Record<string, number>;
}

export interface TRequestCostFigures {
  createNewSigners: TRequestCost;
  create: TRequestCost;
  retrieve: TRequestCost;
  open: TRequestCost;
  complete: TRequestCost;
}

const READS = new Set(['GetItem', 'BatchGetItem', 'Query', 'Scan']);
/** Quiet for this long after a call: the workers it started have finished. */
const QUIET_MS = 1500;

function recorder() {
  let session: { own: string; cost: TRequestCost; last: number } | undefined;
  return {
    instrument(db: TRuntime['db']) {
      db.middlewareStack.add(
        (next, context) => async (args) => {
          const s = session;
          if (!s) return next(args);
          const fn = currentInvocation()?.fn ?? 'bench';
          const command = String(context.commandName ?? 'unknown').replace(/Command$/, '');
          s.last = Date.now();
          const input = { ...(args.input as Record<string, unknown>), ReturnConsumedCapacity: 'TOTAL' };
          const result = await next({ ...args, input });
          if (fn !== s.own && fn !== 'authorizer') {
            s.cost.afterwards[fn] = (s.cost.afterwards[fn] ?? 0) + 1;
            return result;
          }
          s.cost.commands.push(command);
          const units = consumedUnits(result.output) ?? 0;
          if (READS.has(command)) s.cost.readUnits += units;
          else s.cost.writeUnits += units;
          return result;
        },
        { step: 'initialize', name: 'benchRequestCosts' },
      );
    },
    /** The cost of `call` on function `own`, with what ran after it until the runtime was quiet. */
    async around(own: string, call: () => Promise<void>): Promise<TRequestCost> {
      const cost: TRequestCost = { commands: [], readUnits: 0, writeUnits: 0, afterwards: {} };
      const s = { own, cost, last: Date.now() };
      session = s;
      try {
        await call();
        const until = Date.now() + 20_000;
        while (Date.now() - s.last < QUIET_MS && Date.now() < until)
          await new Promise((r) => setTimeout(r, 100));
      } finally {
        session = undefined;
      }
      return cost;
    },
  };
}

export async function benchRequestCosts(): Promise<TRequestCostFigures> {
  const costs = recorder();
  const runtime = await startBenchRuntime((db) => costs.instrument(db));
  const agent = new http.Agent({ keepAlive: true });
  try {
    const { api, signApi } = serviceClients(runtime.baseUrl, runtime.demo.apiKey, agent);
    const b64 = await aPdfB64();
    const create = async (body: unknown) =>
      answerOf('POST /bundles/', await api('POST', '/bundles/', body), 201) as {
        id: string;
        packets: { id: string }[];
      };
    // Warm: the authorizer's cache, and Ann and Bob as Persons of the account.
    await create(aBundle({ label: 'Warm-up' }, b64));
    const unique = Date.now().toString(36);
    const newSigners = aBundle(
      {
        label: 'New signers',
        packets: [
          { key: 'ann', name: 'Ann New', email: `ann.${unique}@example.com` },
          { key: 'bob', name: 'Bob New', phone: '+1 555 010 4000', deliver_via: 'phone' },
        ],
      },
      b64,
    );
    const createNewSigners = await costs.around('bundles', async () => void (await create(newSigners)));
    let id = '';
    const createCost = await costs.around('bundles', async () => {
      id = (await create(aBundle({ label: 'Known signers' }, b64))).id;
    });
    const retrieve = await costs.around('bundles', async () => {
      answerOf('GET /bundles/{id}/', await api('GET', `/bundles/${id}/`), 200);
    });

    // A signer finishes: Ann of two embedded signers, with her one field filled.
    const embedded = await create({
      label: 'Complete',
      packets: [
        { key: 'ann', name: 'Ann Lee', email: 'ann@example.com', deliver_via: 'embed' },
        { key: 'bob', name: 'Bob Roe', email: 'bob@example.com', deliver_via: 'embed' },
      ],
      documents: [
        {
          key: 'doc',
          file_b64: b64,
          fields: [{ key: 'name', kind: 'inp', page: 1, x: 10, y: 10, w: 30, h: 4, editors: ['ann'] }],
        },
      ],
    });
    const token = await embedToken({ api }, embedded.packets[0]!.id);
    let session = '';
    const open = await costs.around('public-pages', async () => {
      const opened = answerOf(
        'POST /sign/api/session',
        await signApi('POST', '/session', undefined, { token, state: true }),
        201,
      );
      session = String(opened.session);
    });
    answerOf(
      'PUT /sign/api/values',
      await signApi('PUT', '/values', session, {
        values: [{ doc_key: 'doc', field_key: 'name', value: 'Ann' }],
      }),
      200,
    );
    const complete = await costs.around('public-pages', async () => {
      answerOf(
        'POST /sign/api/complete',
        await signApi('POST', '/complete', session, { consent: true }),
        200,
      );
    });
    return { createNewSigners, create: createCost, retrieve, open, complete };
  } finally {
    agent.destroy();
    await runtime.stop();
  }
}

const ROWS = [
  ['POST /bundles/ (new signers)', 'createNewSigners'],
  ['POST /bundles/ (known signers)', 'create'],
  ['GET /bundles/{id}/', 'retrieve'],
  ['POST /sign/api/session (state)', 'open'],
  ['POST /sign/api/complete', 'complete'],
] as const;

const afterwardsText = (c: TRequestCost) =>
  Object.entries(c.afterwards)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([fn, n]) => `${fn} ${n}`)
    .join(', ') || 'none';

export function requestCostsReport(f: TRequestCostFigures): string {
  const target = (key: string, c: TRequestCost) =>
    key.startsWith('create')
      ? `≤ ${REQUEST_COST_TARGETS.createRequests} ${mark(c.commands.length <= REQUEST_COST_TARGETS.createRequests)}`
      : '';
  return [
    '',
    'DynamoDB per call, by the function that sent it (two signers, one document; authorizer cache warm)',
    table(
      [
        ['  call', 'requests', 'read units', 'write units', 'target', 'then, by workers'],
        ...ROWS.map(([label, key]) => {
          const c = f[key];
          return [
            `  ${label}`,
            String(c.commands.length),
            String(round(c.readUnits, 1)),
            String(round(c.writeUnits, 1)),
            target(key, c),
            afterwardsText(c),
          ];
        }),
      ],
      ['l', 'r', 'r', 'r', 'l', 'l'],
    ),
  ].join('\n');
}

export function requestCostsJson(f: TRequestCostFigures) {
  return Object.fromEntries(
    ROWS.map(([, key]) => {
      const c = f[key];
      return [
        key,
        {
          requests: c.commands.length,
          commands: c.commands,
          readUnits: round(c.readUnits, 1),
          writeUnits: round(c.writeUnits, 1),
          afterwards: c.afterwards,
          ...(key.startsWith('create')
            ? { met: c.commands.length <= REQUEST_COST_TARGETS.createRequests }
            : {}),
        },
      ];
    }),
  );
}
