// What one complete envelope costs on AWS: a bundle of two signers and one document, created,
// each signer opening the emailed link (page, its scripts, the document), filling, finishing,
// then sealing, certificates, notifications, webhooks, and the final files downloaded once.
// Every AWS request the local runtime makes for it is counted on the wire (node:http's
// diagnostics channel: the SDK's requests to the stand-ins, by service and operation), DynamoDB
// units as it reports them, Lambda invocations and their measured durations by function, and the
// whole priced at the list prices below. SMS is left out (priced per country).
import dc from 'node:diagnostics_channel';
import http from 'node:http';
import { signingAssets } from '#functions/public-pages/assets';
import { DOCUMENT_WORKER_MEMORY_MB } from '#infra/constructs/functions';
import { observeInvocations } from '#infra/local/invocation';
import { dataPaths } from '#infra/local/layout';
import { listMailbox } from '#infra/local/mailbox/index';
import type { TRuntime } from '#infra/local/runtime';
import { aPdfB64 } from '../test/helpers/bundles';
import { consumedUnits } from './capacity';
import { mark, table } from './format';
import { answerOf, serviceClients, startWebhookReceiver } from './http';
import { startBenchRuntime } from './runtime';
import { round } from './stats';

/**
 * AWS list prices, us-east-1, as published on 2026-11-26 (USD). Lambda is arm64; API Gateway is
 * the REST API's first tier; DynamoDB on demand; S3 Standard; KMS asymmetric (RSA 3072) for Sign.
 */
export const PRICES = {
  date: '2026-11-26',
  region: 'us-east-1',
  apiGatewayPerMillion: 3.5,
  wafPerMillionRequests: 0.6,
  lambdaPerMillionRequests: 0.2,
  lambdaPerGbSecond: 0.0000133334,
  dynamoPerMillionWriteUnits: 0.625,
  dynamoPerMillionReadUnits: 0.125,
  s3PutPerThousand: 0.005,
  s3GetPerThousand: 0.0004,
  s3StoragePerGbMonth: 0.023,
  sqsPerMillion: 0.4,
  kmsAsymmetricPerTenThousand: 0.15,
  kmsSymmetricPerTenThousand: 0.03,
  sesPerThousand: 0.1,
  // CloudFront in front of everything (infra/constructs/edge.ts): HTTPS requests and data out in
  // North America and Europe, and the front door's CloudFront Function on every request to the API.
  cloudFrontHttpsPerTenThousand: 0.01,
  cloudFrontPerGbOut: 0.085,
  cloudFrontFunctionsPerMillion: 0.1,
} as const;

/** The target: what per-envelope services charge is 100 to 1,000 times this. */
export const ENVELOPE_COST_TARGET_USD = 0.002;

/** Memory of each function as deployed (infra/constructs/functions.ts; ApiFunction's default otherwise). */
const MEMORY_MB: Record<string, number> = { 'document-worker': DOCUMENT_WORKER_MEMORY_MB };
const DEFAULT_MEMORY_MB = 512;
/** Scheduled every minute whatever the traffic: a fixed cost of the stage, not of an envelope. */
const FIXED = new Set(['outbox-sweeper', 'scheduler']);

export interface TEnvelopeCost {
  /** AWS requests by service and operation. */
  requests: Record<string, Record<string, number>>;
  dynamo: { readUnits: number; writeUnits: number };
  s3: { bytesIn: number; bytesOut: number };
  lambda: Record<string, { invocations: number; ms: number; gbSeconds: number }>;
  /** Requests to the API and pages (API Gateway, WAF, behind CloudFront). */
  apiRequests: number;
  /** Requests for static files, answered by CloudFront from its cache (S3 behind it). */
  staticRequests: number;
  /** Bytes of every answer the distribution gives (API, pages and static files). */
  edgeBytesOut: number;
  sesMessages: number;
  costUsd: Record<string, number>;
  totalUsd: number;
}

type TRequestMeta = { service: string; op: string; bytesIn: number };

const READS = new Set(['GetItem', 'BatchGetItem', 'Query', 'Scan', 'TransactGetItems']);

function recorder(runtime: TRuntime) {
  const services = new Map<string, string>();
  const add = (url: string | undefined, name: string) => {
    if (url) services.set(new URL(url).host, name);
  };
  const e = runtime.config.endpoints;
  add(e.dynamodb, 'dynamodb');
  add(e.s3, 's3');
  add(e.sqs, 'sqs');
  add(e.sesv2, 'ses/sns');
  add(e.kms, 'kms');
  add(e.secretsmanager, 'secretsmanager');
  add(runtime.baseUrl, 'api');

  let cost: TEnvelopeCost | undefined;
  const meta = new WeakMap<object, TRequestMeta>();
  const count = (service: string, op: string) => {
    if (!cost) return;
    const of = cost.requests[service] ?? {};
    of[op] = (of[op] ?? 0) + 1;
    cost.requests[service] = of;
  };
  const onStart = (message: unknown) => {
    if (!cost) return;
    const { request } = message as { request: http.ClientRequest };
    const service = services.get(String(request.getHeader('host') ?? ''));
    if (!service) return;
    const target = String(request.getHeader('x-amz-target') ?? '');
    let name = service;
    let op = target ? target.split('.').pop()! : (request.method ?? 'GET');
    if (service === 'ses/sns') {
      // One stand-in plays both: SESv2 is REST under /v2/email, SNS the query protocol.
      name = request.path.startsWith('/v2/email/outbound-emails') ? 'ses' : 'sns';
      op = name === 'ses' ? 'SendEmail' : 'Publish';
      if (name === 'ses') cost.sesMessages++;
    } else if (service === 'api') {
      cost.apiRequests++;
      op = request.path.startsWith('/api/v2/') ? 'API' : 'pages';
    }
    const bytesIn = Number(request.getHeader('content-length') ?? 0);
    meta.set(request, { service: name, op, bytesIn });
    count(name, op);
    if (name === 's3' && op === 'PUT') cost.s3.bytesIn += bytesIn;
  };
  const onFinish = (message: unknown) => {
    if (!cost) return;
    const { request, response } = message as { request: http.ClientRequest; response: http.IncomingMessage };
    const m = meta.get(request);
    if (m?.service === 's3' && m.op === 'GET')
      cost.s3.bytesOut += Number(response.headers['content-length'] ?? 0);
    if (m?.service === 'api') cost.edgeBytesOut += Number(response.headers['content-length'] ?? 0);
  };
  dc.subscribe('http.client.request.start', onStart);
  dc.subscribe('http.client.response.finish', onFinish);
  runtime.db.middlewareStack.add(
    (next, context) => async (args) => {
      const c = cost;
      if (!c) return next(args);
      const input = { ...(args.input as Record<string, unknown>), ReturnConsumedCapacity: 'TOTAL' };
      const result = await next({ ...args, input });
      const units = consumedUnits(result.output) ?? 0;
      if (READS.has(String(context.commandName).replace(/Command$/, ''))) c.dynamo.readUnits += units;
      else c.dynamo.writeUnits += units;
      return result;
    },
    { step: 'initialize', name: 'benchEnvelopeUnits' },
  );
  const stopObserving = observeInvocations((fn, ms) => {
    if (!cost || FIXED.has(fn)) return;
    const l = cost.lambda[fn] ?? { invocations: 0, ms: 0, gbSeconds: 0 };
    cost.lambda[fn] = l;
    l.invocations++;
    l.ms += ms;
    l.gbSeconds += ((MEMORY_MB[fn] ?? DEFAULT_MEMORY_MB) / 1024) * (Math.ceil(ms) / 1000);
  });
  return {
    start() {
      cost = {
        requests: {},
        dynamo: { readUnits: 0, writeUnits: 0 },
        s3: { bytesIn: 0, bytesOut: 0 },
        lambda: {},
        apiRequests: 0,
        staticRequests: 0,
        edgeBytesOut: 0,
        sesMessages: 0,
        costUsd: {},
        totalUsd: 0,
      };
      return cost;
    },
    stop() {
      const done = cost;
      cost = undefined;
      return done;
    },
    close() {
      dc.unsubscribe('http.client.request.start', onStart);
      dc.unsubscribe('http.client.response.finish', onFinish);
      stopObserving();
    },
  };
}

/** A GET with node:http (so the diagnostics channel sees it); answers the body. */
function get(url: string, agent: http.Agent): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/**
 * What a browser fetches for the page, once each: the scripts and styles it names, and the modules
 * those import (static and dynamic), followed from each script's own address. On AWS the signing
 * pages' assets come from CloudFront's cache (infra/constructs/edge.ts), never from a function:
 * they are read here from the same files and counted as the distribution's answers.
 */
async function loadAssets(
  html: string,
  pageUrl: string,
  agent: http.Agent,
  cost?: TEnvelopeCost,
): Promise<number> {
  const seen = new Set<string>();
  const queue = [...html.matchAll(/(?:src|href)="([^"]+\.(?:m?js|css))"/g)].map(
    (m) => new URL(m[1]!, pageUrl).href,
  );
  const assets = signingAssets();
  const prefix = `/sign/assets/${assets.version}/`;
  while (queue.length > 0) {
    const url = queue.shift()!;
    if (seen.has(url) || new URL(url).origin !== new URL(pageUrl).origin) continue;
    seen.add(url);
    const { pathname } = new URL(url);
    let body: Buffer | undefined;
    if (pathname.startsWith(prefix)) {
      body = assets.read(pathname.slice(prefix.length));
      if (cost && body) {
        cost.staticRequests++;
        cost.edgeBytesOut += body.length;
      }
    } else {
      const got = await get(url, agent);
      if (got.status === 200) body = got.body;
    }
    if (!body || !/\.m?js$/.test(pathname)) continue;
    const text = body.toString('utf8');
    for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g))
      queue.push(new URL(m[1]!, url).href);
  }
  return seen.size;
}

/** Waits until `check` holds, polling; fails after `ms`. */
async function until<T>(what: string, check: () => Promise<T | undefined>, ms = 120_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`envelope cost: ${what} did not happen within ${ms / 1000} s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** One envelope from create to files downloaded, as two signers and the sender would. */
async function oneEnvelope(
  runtime: TRuntime,
  agent: http.Agent,
  label: string,
  receiver: { arrivals: { type: string; bundleId: string }[] },
  counted: () => TEnvelopeCost | undefined,
) {
  const { api, signApi } = serviceClients(runtime.baseUrl, runtime.demo.apiKey, agent);
  const stamp = `${label.toLowerCase().replace(/\W+/g, '-')}-${Date.now().toString(36)}`;
  const emails = [`ann.${stamp}@example.com`, `bob.${stamp}@example.com`];
  const created = answerOf(
    'POST /bundles/',
    await api('POST', '/bundles/', {
      label,
      packets: [
        { key: 'ann', name: 'Ann Lee', email: emails[0] },
        { key: 'bob', name: 'Bob Roe', email: emails[1] },
      ],
      documents: [
        {
          key: 'doc',
          file_b64: await aPdfB64(),
          fields: [
            {
              key: 'ann_sig',
              kind: 'sig',
              page: 1,
              x: 10,
              y: 70,
              w: 30,
              h: 5,
              editors: ['ann'],
              required: true,
            },
            {
              key: 'bob_sig',
              kind: 'sig',
              page: 1,
              x: 50,
              y: 70,
              w: 30,
              h: 5,
              editors: ['bob'],
              required: true,
            },
          ],
        },
      ],
    }),
    201,
  ) as { id: string };
  const mailbox = dataPaths(runtime.dataDir).mailbox;
  for (const [i, email] of emails.entries()) {
    // The signer opens the link in the email: the page, its scripts and styles, the document.
    const link = await until(`the signing email to ${email}`, async () => {
      const mail = (await listMailbox(mailbox)).find((m) => m.kind === 'email' && m.to.includes(email));
      const m = mail && /\/sign\/([A-Za-z0-9_-]{20,})/.exec(JSON.stringify(mail));
      return m?.[1];
    });
    const page = await get(`${runtime.baseUrl}/sign/${link}`, agent);
    if (page.status !== 200) throw new Error(`GET /sign/<token>: HTTP ${page.status}`);
    const html = page.body.toString('utf8');
    await loadAssets(html, `${runtime.baseUrl}/sign/${link}`, agent, counted());
    const session = String(
      answerOf('POST /sign/api/session', await signApi('POST', '/session', undefined, { token: link }), 201)
        .session,
    );
    answerOf('GET /sign/api/state', await signApi('GET', '/state', session, undefined), 200);
    const doc = await get(`${runtime.baseUrl}/sign/api/documents/doc`, agent);
    void doc;
    answerOf(
      'PUT /sign/api/values',
      await signApi('PUT', '/values', session, {
        values: [
          { doc_key: 'doc', field_key: i === 0 ? 'ann_sig' : 'bob_sig', value: `typed:Signer ${i + 1}` },
        ],
      }),
      200,
    );
    answerOf('POST /sign/api/complete', await signApi('POST', '/complete', session, { consent: true }), 200);
  }
  // The sender learns from the webhook that the documents are ready, then downloads each once.
  await until('the bundle_docs_ready webhook', async () =>
    receiver.arrivals.some((a) => a.type === 'bundle_docs_ready' && a.bundleId === created.id)
      ? true
      : undefined,
  );
  const files = answerOf(
    'GET /bundles/{id}/files/',
    await api('GET', `/bundles/${created.id}/files/`),
    200,
  ) as unknown as { file_url: string }[];
  for (const f of files) {
    const got = await get(f.file_url, agent);
    if (got.status !== 200) throw new Error(`a final file: HTTP ${got.status}`);
  }
  return created.id;
}

/** The SQS consumers of the local runtime and the Lambdas their batches invoke. */
const QUEUE_WORKERS = ['notifications-worker', 'webhook-dispatcher', 'document-worker'];

/**
 * SQS requests of the envelope: its sends, deletes and visibility changes, and one receive per
 * batch a worker got. Empty long polls are the event source mappings' steady cost whatever the
 * traffic (and the local consumers poll every second, not every 20 s), so they are not counted.
 */
function sqsRequests(c: TEnvelopeCost): number {
  const all = Object.entries(c.requests.sqs ?? {});
  const others = all.filter(([op]) => op !== 'ReceiveMessage').reduce((s, [, v]) => s + v, 0);
  const batches = QUEUE_WORKERS.reduce((s, fn) => s + (c.lambda[fn]?.invocations ?? 0), 0);
  return others + batches;
}

function priced(c: TEnvelopeCost): void {
  const p = PRICES;
  const n = (service: string, op?: string) =>
    Object.entries(c.requests[service] ?? {})
      .filter(([o]) => op === undefined || o === op)
      .reduce((sum, [, v]) => sum + v, 0);
  const lambdaRequests = Object.values(c.lambda).reduce((s, l) => s + l.invocations, 0);
  const gbSeconds = Object.values(c.lambda).reduce((s, l) => s + l.gbSeconds, 0);
  const storedGb = c.s3.bytesIn / 1024 ** 3;
  c.costUsd = {
    apiGateway: (c.apiRequests * p.apiGatewayPerMillion) / 1e6,
    waf: (c.apiRequests * p.wafPerMillionRequests) / 1e6,
    lambda: (lambdaRequests * p.lambdaPerMillionRequests) / 1e6 + gbSeconds * p.lambdaPerGbSecond,
    dynamodb:
      (c.dynamo.writeUnits * p.dynamoPerMillionWriteUnits) / 1e6 +
      (c.dynamo.readUnits * p.dynamoPerMillionReadUnits) / 1e6,
    s3:
      ((n('s3') - n('s3', 'GET') - n('s3', 'HEAD')) * p.s3PutPerThousand) / 1000 +
      ((n('s3', 'GET') + n('s3', 'HEAD')) * p.s3GetPerThousand) / 1000,
    s3StorageMonth: storedGb * p.s3StoragePerGbMonth,
    sqs: (sqsRequests(c) * p.sqsPerMillion) / 1e6,
    kms:
      ((n('kms', 'Sign') + n('kms', 'GetPublicKey')) * p.kmsAsymmetricPerTenThousand) / 1e4 +
      ((n('kms') - n('kms', 'Sign') - n('kms', 'GetPublicKey')) * p.kmsSymmetricPerTenThousand) / 1e4,
    ses: (c.sesMessages * p.sesPerThousand) / 1000,
    cloudFront:
      ((c.apiRequests + c.staticRequests) * p.cloudFrontHttpsPerTenThousand) / 1e4 +
      (c.edgeBytesOut / 1024 ** 3) * p.cloudFrontPerGbOut +
      (c.apiRequests * p.cloudFrontFunctionsPerMillion) / 1e6,
  };
  c.totalUsd = Object.values(c.costUsd).reduce((a, b) => a + b, 0);
}

/** A warm-up envelope (caches, the seal identity), then the measured one. */
export async function benchEnvelopeCost(): Promise<TEnvelopeCost> {
  const runtime = await startBenchRuntime(() => undefined);
  const counting = recorder(runtime);
  const receiver = await startWebhookReceiver('/cost-hook', (call) => ({
    type: call.eventType,
    bundleId: call.bundleId,
  }));
  const agent = new http.Agent({ keepAlive: true });
  try {
    const { api } = serviceClients(runtime.baseUrl, runtime.demo.apiKey, agent);
    // A sender's integration: told of every step of the envelope.
    const events = [
      'bundle_sent',
      'packet_viewed',
      'packet_complete',
      'bundle_complete',
      'bundle_docs_ready',
    ];
    answerOf(
      'POST /webhooks/',
      await api('POST', '/webhooks/', { url: receiver.url, event_types: events }),
      201,
    );
    await oneEnvelope(runtime, agent, 'Warm-up envelope', receiver, () => undefined);
    const cost = counting.start();
    await oneEnvelope(runtime, agent, 'Measured envelope', receiver, () => cost);
    // What the workers still do for it (notifications of completion, webhooks) lands too.
    await new Promise((r) => setTimeout(r, 3000));
    counting.stop();
    priced(cost);
    return cost;
  } finally {
    counting.close();
    agent.destroy();
    await receiver.stop();
    await runtime.stop();
  }
}

const usd = (v: number) => `$${v.toFixed(v < 0.0001 ? 7 : 6)}`;

export function envelopeCostReport(c: TEnvelopeCost): string {
  const ops = (service: string) =>
    Object.entries(c.requests[service] ?? {})
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([op, v]) => `${op} ${v}`)
      .join(', ') || 'none';
  const total = (service: string) => Object.values(c.requests[service] ?? {}).reduce((a, b) => a + b, 0);
  const lambda = Object.entries(c.lambda)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([fn, l]) => `${fn} ${l.invocations}× ${Math.round(l.ms)} ms`)
    .join(', ');
  const rows = [
    [
      '  CloudFront',
      `${c.apiRequests + c.staticRequests} requests (${c.staticRequests} static files from its cache), ${Math.round(c.edgeBytesOut / 1024)} KB out`,
      usd(c.costUsd.cloudFront!),
    ],
    ['  API Gateway + WAF', `${c.apiRequests} requests`, usd(c.costUsd.apiGateway! + c.costUsd.waf!)],
    ['  Lambda', `${lambda}`, usd(c.costUsd.lambda!)],
    [
      '  DynamoDB',
      `${total('dynamodb')} requests, ${round(c.dynamo.readUnits, 1)} RRU, ${round(c.dynamo.writeUnits, 1)} WRU`,
      usd(c.costUsd.dynamodb!),
    ],
    [
      '  S3',
      `${ops('s3')}; ${Math.round(c.s3.bytesIn / 1024)} KB in, ${Math.round(c.s3.bytesOut / 1024)} KB out`,
      usd(c.costUsd.s3!),
    ],
    ['  S3 storage, a month', `${Math.round(c.s3.bytesIn / 1024)} KB`, usd(c.costUsd.s3StorageMonth!)],
    [
      '  SQS',
      `${sqsRequests(c)} requests (seen: ${ops('sqs')}; empty polls not counted)`,
      usd(c.costUsd.sqs!),
    ],
    ['  KMS', ops('kms'), usd(c.costUsd.kms!)],
    ['  SES', `${c.sesMessages} messages`, usd(c.costUsd.ses!)],
    [
      '  total',
      '',
      `${usd(c.totalUsd)}  target ≤ $${ENVELOPE_COST_TARGET_USD} ${mark(c.totalUsd <= ENVELOPE_COST_TARGET_USD)}`,
    ],
  ];
  return [
    '',
    `One envelope on AWS (two signers, one document, sealed; ${PRICES.region} list prices of ${PRICES.date}; Lambda time as measured locally)`,
    table([['  part', 'what it used', 'cost'], ...rows], ['l', 'l', 'r']),
  ].join('\n');
}

export function envelopeCostJson(c: TEnvelopeCost) {
  return {
    prices: PRICES,
    requests: c.requests,
    apiRequests: c.apiRequests,
    staticRequests: c.staticRequests,
    edgeBytesOut: c.edgeBytesOut,
    dynamo: { readUnits: round(c.dynamo.readUnits, 1), writeUnits: round(c.dynamo.writeUnits, 1) },
    s3: c.s3,
    lambda: Object.fromEntries(
      Object.entries(c.lambda).map(([fn, l]) => [
        fn,
        { invocations: l.invocations, ms: Math.round(l.ms), gbSeconds: round(l.gbSeconds, 3) },
      ]),
    ),
    sesMessages: c.sesMessages,
    costUsd: Object.fromEntries(Object.entries(c.costUsd).map(([k, v]) => [k, round(v, 7)])),
    totalUsd: round(c.totalUsd, 6),
    targetUsd: ENVELOPE_COST_TARGET_USD,
    met: c.totalUsd <= ENVELOPE_COST_TARGET_USD,
  };
}
