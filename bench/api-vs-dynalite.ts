// The local API against the database under it, in one process and at one concurrency: the ratio
// of the two throughputs is what the gateway stand-in, the authorizer cache, the proxy-event
// plumbing and the function code cost on top of the DynamoDB calls. Both sides go through the
// same SDK document client (runtime.db), so SDK overhead is on both sides of the ratio.
// Also counts the DynamoDB commands one API call makes, through a middleware on that client.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { TRuntime } from '#infra/local/runtime';
import { personKeys } from '#shared/adapters/dynamodb/entities/person';
import { runLoad, type TLoadResult } from './load';
import { startBenchRuntime } from './runtime';
import { summarize, type TLatencySummary } from './stats';

export interface TPhase extends TLatencySummary {
  /** Failure messages with counts (empty when every response was as expected). */
  failures: { message: string; count: number }[];
  timedOut: boolean;
}

export interface TApiVsDynaliteFigures {
  concurrency: number;
  api: { get: TPhase; post: TPhase };
  dynalite: { get: TPhase; put: TPhase };
  /** API requests/s divided by raw requests/s. */
  ratio: { get: number; post: number };
  /** DynamoDB commands one API call makes, authorizer cache warm. */
  dbCalls: {
    get: { commands: string[]; httpRequests: number };
    post: { commands: string[]; httpRequests: number };
  };
}

export interface TApiVsDynaliteOptions {
  concurrency?: number;
  getRequests?: number;
  postRequests?: number;
  /** Upper bound on each measured phase; a phase cut short is flagged. */
  phaseMaxMs?: number;
}

interface TAnswer {
  status: number;
  body: string;
}

/**
 * node:http with a keep-alive agent: fetch (undici) costs noticeably more CPU per request, and the
 * client shares the process, hence the cores, with the server under test.
 */
function httpClient(baseUrl: string, apiKey: string, agent: http.Agent) {
  const { hostname, port } = new URL(baseUrl);
  const auth = `Token ${apiKey}`;
  return (method: string, path: string, json?: unknown): Promise<TAnswer> =>
    new Promise((resolve, reject) => {
      const payload = json === undefined ? undefined : JSON.stringify(json);
      const headers: http.OutgoingHttpHeaders = { authorization: auth, accept: 'application/json' };
      if (payload !== undefined) {
        headers['content-type'] = 'application/json';
        headers['content-length'] = Buffer.byteLength(payload);
      }
      const req = http.request({ agent, hostname, port, method, path: `/api/v2${path}`, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(payload);
    });
}

/** A failure message that groups well: status and the start of the body, never the whole thing. */
function unexpected(what: string, answer: TAnswer): Error {
  return new Error(`${what}: HTTP ${answer.status} ${answer.body.slice(0, 160)}`);
}

const personBody = (i: number) => ({
  name: `Bench Person ${i}`,
  metadata: { source: 'bench', n: i },
  channels: [{ email: `bench.person.${i}@example.test` }],
});

function phase(result: TLoadResult): TPhase {
  return {
    ...summarize(result.latenciesMs, result.failed, result.elapsedMs),
    failures: result.failures,
    timedOut: result.timedOut,
  };
}

/** Records the names of the commands sent (once per command) and the HTTP attempts (with retries). */
function commandRecorder() {
  let commands: string[] | undefined;
  let attempts = 0;
  return {
    instrument(db: TRuntime['db']) {
      db.middlewareStack.add(
        (next, context) => async (args) => {
          commands?.push(String(context.commandName ?? 'unknown').replace(/Command$/, ''));
          return next(args);
        },
        { step: 'initialize', name: 'benchCommandRecorder' },
      );
      // The deserialize step runs inside the retry loop (finalizeRequest), once per attempt.
      db.middlewareStack.add(
        (next) => async (args) => {
          if (commands) attempts++;
          return next(args);
        },
        { step: 'deserialize', name: 'benchAttemptRecorder' },
      );
    },
    async around(call: () => Promise<void>) {
      commands = [];
      attempts = 0;
      await call();
      // Anything the function left running after answering is still its cost: let it land.
      await new Promise((r) => setTimeout(r, 50));
      const seen = { commands, httpRequests: attempts };
      commands = undefined;
      return seen;
    },
  };
}

export async function benchApiVsDynalite(opts: TApiVsDynaliteOptions = {}): Promise<TApiVsDynaliteFigures> {
  const concurrency = opts.concurrency ?? 16;
  const getRequests = opts.getRequests ?? 3000;
  const postRequests = opts.postRequests ?? 1500;
  const maxMs = opts.phaseMaxMs ?? 45_000;
  const recorder = commandRecorder();

  const runtime = await startBenchRuntime((db) => recorder.instrument(db));
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  try {
    const call = httpClient(runtime.baseUrl, runtime.demo.apiKey, agent);
    const { accountId } = runtime.demo;
    const table = runtime.config.tableName;
    const db = runtime.db;
    const ids: string[] = [];

    const apiPost = async (i: number) => {
      const answer = await call('POST', '/persons/', personBody(i));
      if (answer.status !== 201) throw unexpected('POST /persons/', answer);
      ids.push((JSON.parse(answer.body) as { id: string }).id);
    };
    const apiGet = async (i: number) => {
      const id = ids[i % ids.length]!;
      const answer = await call('GET', `/persons/${id}`);
      if (answer.status !== 200) throw unexpected('GET /persons/{id}', answer);
      if ((JSON.parse(answer.body) as { id: string }).id !== id)
        throw new Error('GET /persons/{id}: wrong person');
    };
    const rawGet = async (i: number) => {
      const id = ids[i % ids.length]!;
      const out = await db.send(new GetCommand({ TableName: table, Key: personKeys.item(accountId, id) }));
      if (out.Item?.id !== id) throw new Error('GetItem: item missing');
    };

    // Warm-up: JIT, sockets, the authorizer cache; it also creates the persons the GETs read.
    const strict = (r: TLoadResult, what: string) => {
      if (r.failed > 0) throw new Error(`${what} failed: ${JSON.stringify(r.failures.slice(0, 3))}`);
    };
    strict(await runLoad((i) => apiPost(1_000_000 + i), { requests: 200, concurrency }), 'warm-up POST');
    strict(await runLoad(apiGet, { requests: 500, concurrency }), 'warm-up GET');
    strict(await runLoad(rawGet, { requests: 500, concurrency }), 'warm-up GetItem');

    // A raw item like a person's, under a prefix no API call reads, written as the API writes
    // a person (conditional PutItem, also maintaining the list-order index).
    const template = (
      await db.send(new GetCommand({ TableName: table, Key: personKeys.item(accountId, ids[0]!) }))
    ).Item!;
    const rawPut = async (i: number) => {
      const id = randomUUID();
      await db.send(
        new PutCommand({
          TableName: table,
          Item: {
            ...template,
            pk: `BENCH#${i % 64}`,
            sk: `PERSON#${id}`,
            ...(template.lpk ? { lpk: 'BENCH#PERSONS', lsk: `${new Date().toISOString()}#${id}` } : {}),
            id,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    };
    strict(await runLoad(rawPut, { requests: 200, concurrency }), 'warm-up PutItem');

    // One request each, alone, after warm-up: the authorizer's answer is cached by now.
    const dbCalls = {
      get: await recorder.around(() => apiGet(0)),
      post: await recorder.around(() => apiPost(2_000_000)),
    };

    // Measured phases, GET pair then write pair, so each pair sees the same table size.
    const apiGetRun = phase(await runLoad(apiGet, { requests: getRequests, concurrency, maxMs }));
    const rawGetRun = phase(await runLoad(rawGet, { requests: getRequests, concurrency, maxMs }));
    const apiPostRun = phase(await runLoad(apiPost, { requests: postRequests, concurrency, maxMs }));
    const rawPutRun = phase(await runLoad(rawPut, { requests: postRequests, concurrency, maxMs }));

    return {
      concurrency,
      api: { get: apiGetRun, post: apiPostRun },
      dynalite: { get: rawGetRun, put: rawPutRun },
      ratio: {
        get: rawGetRun.rps > 0 ? apiGetRun.rps / rawGetRun.rps : 0,
        post: rawPutRun.rps > 0 ? apiPostRun.rps / rawPutRun.rps : 0,
      },
      dbCalls,
    };
  } finally {
    agent.destroy();
    await runtime.stop();
  }
}
