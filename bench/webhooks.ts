// Webhooks end to end: bundles sent over the local API, each firing one bundle_sent, delivered by
// the in-process dispatcher to a receiver on loopback that answers 200 at once. Two figures:
//
// - end to end: events per second from the first state change to the receiver's last answer, and
//   per event the time from the state change (the body's event_date) to the receiver's answer.
//   Creating the bundles is what limits the rate here: the dispatcher keeps up with them.
// - drain: the dispatcher stopped, the same bundles cancelled (one bundle_cancelled each, whose
//   jobs wait in the queue), the dispatcher started again: events per second from start() to the
//   last distinct arrival, which is what the dispatcher alone can deliver.
//
// Delivery is at least once, so an event arriving twice is counted (duplicates), not an error;
// an event that never arrives, or one nobody asked for, fails the run.

import http from 'node:http';
import { GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { TRuntime } from '#infra/local/runtime';
import { createSqsClient } from '#shared/adapters/aws/clients';
import { mark, ms, table } from './format';
import { httpClient, startWebhookReceiver, type TAnswer } from './http';
import { runLoad } from './load';
import { startBenchRuntime } from './runtime';
import { percentile, round } from './stats';

export interface TWebhooksOptions {
  /** Events in each of the two phases: bundles sent, then the same bundles cancelled. */
  events?: number;
  /** Bundles created at once. */
  createConcurrency?: number;
  /** Bundles sent and delivered before measuring, not counted. */
  warmup?: number;
  /** The whole section, creation and waiting included; what is not in by then is missing. */
  phaseMaxMs?: number;
}

/** One call the receiver answered. Times are Date.now(), the clock event_date is written with. */
export interface TArrival {
  eventId: string;
  eventType: string;
  /** Date.parse of the body's event_date: when the state change happened. */
  changedAt: number;
  bundleId: string;
  answeredAt: number;
}

export interface TArrivalSummary {
  expected: number;
  /** Distinct events of the expected bundles that arrived. */
  delivered: number;
  /** Expected bundles no event arrived for. */
  missing: number;
  /** Calls beyond the first for the same event_id (delivery is at least once). */
  duplicates: number;
  /** Calls bearing a second, different event_id for a bundle that should fire the type once. */
  unexpected: number;
  /** From `since` (or the first state change) to the last first arrival. */
  elapsedMs: number;
  eventsPerSecond: number;
  /** Per event, first arrival: receiver's answer − state change. */
  latencyMs: number[];
  /** When the last distinct event arrived, Date.now() time. */
  lastAt: number;
}

/**
 * What arrived of type `eventType` for the bundles in `bundleIds` (each should fire it once),
 * counting each event once, at its first arrival; calls of other types are not looked at.
 * `since` starts the clock for the rate; without it, the earliest state change does.
 * Pure: the bench and test/bench/webhooks.test.ts both call it.
 */
export function summarizeArrivals(
  arrivals: readonly TArrival[],
  bundleIds: ReadonlySet<string>,
  eventType: string,
  since?: number,
): TArrivalSummary {
  const first = new Map<string, TArrival>();
  const eventOfBundle = new Map<string, string>();
  let duplicates = 0;
  let unexpected = 0;
  for (const a of arrivals) {
    if (a.eventType !== eventType || !bundleIds.has(a.bundleId)) continue;
    const known = eventOfBundle.get(a.bundleId);
    if (known !== undefined && known !== a.eventId) {
      unexpected++;
      continue;
    }
    eventOfBundle.set(a.bundleId, a.eventId);
    if (first.has(a.eventId)) duplicates++;
    else first.set(a.eventId, a);
  }
  const delivered = [...first.values()];
  const lastAt = delivered.reduce((m, a) => Math.max(m, a.answeredAt), Number.NEGATIVE_INFINITY);
  const start = since ?? delivered.reduce((m, a) => Math.min(m, a.changedAt), Number.POSITIVE_INFINITY);
  const elapsedMs = delivered.length > 0 ? lastAt - start : 0;
  return {
    expected: bundleIds.size,
    delivered: delivered.length,
    missing: bundleIds.size - eventOfBundle.size,
    duplicates,
    unexpected,
    elapsedMs,
    eventsPerSecond: elapsedMs > 0 ? (delivered.length * 1000) / elapsedMs : 0,
    latencyMs: delivered.map((a) => a.answeredAt - a.changedAt),
    lastAt,
  };
}

export interface TWebhookPhase {
  expected: number;
  delivered: number;
  missing: number;
  duplicates: number;
  unexpected: number;
  elapsedMs: number;
  eventsPerSecond: number;
  /** State change → receiver's answer; NaN for the drain, whose events waited out the stop. */
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Making the phase's state changes: sending the bundles, then cancelling them. */
  changesMs: number;
  /** State changes that failed or were not made in time (each one event short). */
  changesFailed: number;
}

export interface TWebhookFigures {
  events: number;
  createConcurrency: number;
  pdfBytes: number;
  endToEnd: TWebhookPhase;
  drain: TWebhookPhase & {
    /** Jobs the queue held when the dispatcher was started again. */
    queued: number;
    /** Calls that reached the receiver while the dispatcher was stopped (should be none). */
    whileStopped: number;
    /** start() → first arrival. */
    firstArrivalMs: number;
  };
  /** Anything that makes the figures describe something else: the run fails. */
  failures: string[];
}

/** A real one-page PDF with something to sign on. */
async function onePagePdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  page.drawText('Webhook bench: one page, one signature.', { x: 72, y: 700, size: 14, font });
  page.drawText('Sign here', { x: 72, y: 120, size: 12, font });
  return doc.save();
}

/** The API client of this section: the key on every call, `path` under /api/v2. */
function apiClient(baseUrl: string, apiKey: string, agent: http.Agent) {
  const request = httpClient(baseUrl, agent);
  return (method: string, path: string, payload: string): Promise<TAnswer> =>
    request(method, `/api/v2${path}`, { authorization: `Token ${apiKey}` }, payload);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** How long to keep listening after the last expected event, so late duplicates are counted. */
const DUPLICATE_GRACE_MS = 1000;

const SENT = 'bundle_sent';
const CANCELLED = 'bundle_cancelled';

export async function benchWebhooks(opts: TWebhooksOptions = {}): Promise<TWebhookFigures> {
  const events = opts.events ?? 1000;
  const concurrency = opts.createConcurrency ?? 8;
  const warmup = opts.warmup ?? 20;
  const deadline = Date.now() + (opts.phaseMaxMs ?? 240_000);
  const failures: string[] = [];

  const runtime: TRuntime = await startBenchRuntime(() => undefined);
  const receiver = await startWebhookReceiver('/bench-hook', (call) => ({
    eventId: call.eventId,
    eventType: call.eventType,
    changedAt: call.eventDate,
    bundleId: call.bundleId,
    answeredAt: call.answeredAt,
  }));
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const sqs = createSqsClient(runtime.config);
  try {
    const call = apiClient(runtime.baseUrl, runtime.demo.apiKey, agent);
    const hook = await call(
      'POST',
      '/webhooks/',
      JSON.stringify({ url: receiver.url, event_types: [SENT, CANCELLED] }),
    );
    if (hook.status !== 201)
      throw new Error(`POST /webhooks/: HTTP ${hook.status} ${hook.body.slice(0, 160)}`);

    const pdf = await onePagePdf();
    const b64 = Buffer.from(pdf).toString('base64');
    const body = (label: string) =>
      JSON.stringify({
        label,
        packets: [{ key: 'ann', name: 'Ann Lee', email: 'ann@example.com' }],
        documents: [
          {
            key: 'doc',
            file_b64: b64,
            fields: [{ kind: 'sig', page: 1, x: 10, y: 80, w: 30, h: 5, editors: ['ann'] }],
          },
        ],
      });

    /** `count` calls of `request` within the section's time; failures are the run's. */
    const load = async (what: string, count: number, request: (i: number) => Promise<void>) => {
      const run = await runLoad(request, {
        requests: count,
        concurrency,
        maxMs: Math.max(0, deadline - Date.now()),
      });
      for (const f of run.failures) failures.push(`${what} ×${f.count}: ${f.message}`);
      if (run.timedOut) failures.push(`${what}: only ${run.started} of ${count} calls made in time`);
      return { ms: run.elapsedMs, failed: run.failed + (count - run.started) };
    };
    /** Creates and sends `count` bundles: one bundle_sent each. Answers the ids created. */
    const sendBundles = async (count: number, label: string) => {
      const ids = new Set<string>();
      const run = await load('POST /bundles/', count, async (i) => {
        const answer = await call('POST', '/bundles/', body(`${label} ${i + 1}`));
        if (answer.status !== 201) throw new Error(`HTTP ${answer.status} ${answer.body.slice(0, 160)}`);
        ids.add((JSON.parse(answer.body) as { id: string }).id);
      });
      return { ids, ...run };
    };

    /** Waits until every bundle in `ids` has had its `type` event, or the section's time is up. */
    const arrived = async (ids: ReadonlySet<string>, type: string, what: string) => {
      const have = () => {
        const seen = new Set<string>();
        for (const a of receiver.arrivals)
          if (a.eventType === type && ids.has(a.bundleId)) seen.add(a.bundleId);
        return seen.size;
      };
      let n = have();
      while (n < ids.size && Date.now() < deadline) {
        await sleep(20);
        n = have();
      }
      if (n < ids.size) failures.push(`${what}: ${ids.size - n} of ${ids.size} events never arrived`);
    };

    // Warm-up: the dispatcher, the receiver's sockets and the code paths, none of it counted.
    const warm = await sendBundles(warmup, 'Webhook warm-up');
    await arrived(warm.ids, SENT, 'warm-up');

    // 1. End to end: each bundle sent is one state change; the dispatcher is running.
    const e2e = await sendBundles(events, 'Webhook bench');
    await arrived(e2e.ids, SENT, 'end to end');
    const e2eSummary = summarizeArrivals(receiver.arrivals, e2e.ids, SENT);

    // 2. Drain: with the dispatcher stopped, the same bundles are cancelled (one bundle_cancelled
    // each: a job in the queue like any other, and several times cheaper to make than sending
    // new bundles, which would only lengthen the run); then the dispatcher is started again.
    await runtime.workers.webhooks.stop();
    const before = receiver.arrivals.length;
    const toCancel = [...e2e.ids];
    const cancels = await load('PUT /bundles/{id}/cancel/', toCancel.length, async (i) => {
      const answer = await call('PUT', `/bundles/${toCancel[i]}/cancel/`, '');
      if (answer.status !== 200) throw new Error(`HTTP ${answer.status} ${answer.body.slice(0, 160)}`);
    });
    const cancelled = new Set(toCancel);
    // Each cancel queued its job before answering; what the queue holds says so.
    const attrs = await sqs.send(
      new GetQueueAttributesCommand({
        QueueUrl: runtime.config.queues!.webhookDeliveries!,
        AttributeNames: ['ApproximateNumberOfMessages'],
      }),
    );
    const queued = Number(attrs.Attributes?.ApproximateNumberOfMessages ?? 0);
    const whileStopped = receiver.arrivals.length - before;
    const restartedAt = Date.now();
    runtime.workers.webhooks.start();
    await arrived(cancelled, CANCELLED, 'drain');
    // Late duplicates of either phase arrive within this, or not at all as far as the bench knows.
    await sleep(Math.min(DUPLICATE_GRACE_MS, Math.max(0, deadline - Date.now())));
    const drainSummary = summarizeArrivals(receiver.arrivals, cancelled, CANCELLED, restartedAt);
    const firstArrival = receiver.arrivals
      .filter((a) => a.eventType === CANCELLED && cancelled.has(a.bundleId))
      .reduce((m, a) => Math.min(m, a.answeredAt), Number.POSITIVE_INFINITY);
    // Counted again now, so that duplicates of phase 1 arriving during phase 2 are in; the rate and
    // latencies stay those measured when phase 1 ended.
    const recount = summarizeArrivals(receiver.arrivals, e2e.ids, SENT);
    const e2eFinal = { ...e2eSummary, duplicates: recount.duplicates, unexpected: recount.unexpected };

    for (const [what, s] of [
      ['end to end', e2eFinal],
      ['drain', drainSummary],
    ] as const) {
      if (s.unexpected > 0) failures.push(`${what}: ${s.unexpected} calls with a second event for a bundle`);
    }
    const strays = receiver.arrivals.filter(
      (a) =>
        !(a.eventType === SENT && (warm.ids.has(a.bundleId) || e2e.ids.has(a.bundleId))) &&
        !(a.eventType === CANCELLED && cancelled.has(a.bundleId)),
    ).length;
    if (strays > 0) failures.push(`receiver: ${strays} calls for events the bench did not cause`);
    if (queued !== cancelled.size) {
      failures.push(`drain: the queue held ${queued} jobs for ${cancelled.size} bundles cancelled`);
    }
    if (whileStopped > 0) {
      failures.push(`drain: ${whileStopped} calls arrived while the dispatcher was stopped`);
    }
    for (const u of receiver.unreadable) failures.push(`receiver: unreadable call ${JSON.stringify(u)}`);

    const phase = (s: TArrivalSummary, made: { ms: number; failed: number }, latency: boolean) => ({
      expected: s.expected,
      delivered: s.delivered,
      missing: s.missing,
      duplicates: s.duplicates,
      unexpected: s.unexpected,
      elapsedMs: s.elapsedMs,
      eventsPerSecond: s.eventsPerSecond,
      p50Ms: latency && s.latencyMs.length > 0 ? percentile(s.latencyMs, 50) : Number.NaN,
      p99Ms: latency && s.latencyMs.length > 0 ? percentile(s.latencyMs, 99) : Number.NaN,
      maxMs: latency && s.latencyMs.length > 0 ? Math.max(...s.latencyMs) : Number.NaN,
      changesMs: made.ms,
      changesFailed: made.failed,
    });
    return {
      events,
      createConcurrency: concurrency,
      pdfBytes: pdf.length,
      endToEnd: phase(e2eFinal, e2e, true),
      drain: {
        ...phase(drainSummary, cancels, false),
        queued,
        whileStopped,
        firstArrivalMs: Number.isFinite(firstArrival) ? firstArrival - restartedAt : Number.NaN,
      },
      failures,
    };
  } finally {
    agent.destroy();
    sqs.destroy();
    await receiver.stop();
    await runtime.stop();
  }
}

/** Whether the run must fail: an event lost, unasked for, or a bundle not created. */
export const webhooksFailed = (f: TWebhookFigures) =>
  f.failures.length > 0 ||
  [f.endToEnd, f.drain].some((p) => p.missing > 0 || p.delivered < f.events || p.changesFailed > 0);

const int = (v: number) => v.toLocaleString('en-US');

/** The table `npm run bench` prints for webhooks. */
export function webhooksReport(f: TWebhookFigures): string {
  const all = (p: TWebhookPhase) => p.delivered === f.events && p.missing === 0;
  const row = (name: string, p: TWebhookPhase, note: string) => [
    `  ${name}`,
    p.eventsPerSecond.toFixed(1),
    ms(p.p50Ms),
    ms(p.p99Ms),
    ms(p.maxMs),
    String(p.duplicates),
    `${int(p.delivered)}/${int(f.events)} ${mark(all(p))}`,
    note,
  ];
  const e = f.endToEnd;
  const d = f.drain;
  const out = [
    '',
    `Webhooks (${int(f.events)} events, loopback receiver answering 200 at once; ` +
      `calls at concurrency ${f.createConcurrency}; latency = receiver's answer − event_date)`,
    table(
      [
        ['  phase', 'events/s', 'p50', 'p99', 'max', 'duplicates', 'delivered', ''],
        row(
          'end to end',
          e,
          `bundle_sent; POST /bundles/ at ${((f.events * 1000) / Math.max(e.changesMs, 1e-9)).toFixed(1)}/s`,
        ),
        row(
          'drain after restart',
          d,
          `bundle_cancelled; ${int(d.queued)} jobs queued; first call ${ms(d.firstArrivalMs)} after start()`,
        ),
      ],
      ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'l'],
    ),
    "  end to end: bundles created and sent, first state change → receiver's last answer (creating them is the limit);",
    "  drain: dispatcher stopped, the same bundles cancelled, then start() → receiver's last answer (the dispatcher alone).",
  ];
  for (const x of f.failures) out.push(`  FAILED ${x}`);
  return out.join('\n');
}

/** results.json's `webhooks`: keys in a fixed order, figures rounded. */
export function webhooksJson(f: TWebhookFigures) {
  const p = (x: TWebhookPhase) => ({
    expected: x.expected,
    delivered: x.delivered,
    missing: x.missing,
    duplicates: x.duplicates,
    eventsPerSecond: round(x.eventsPerSecond, 1),
    elapsedMs: Math.round(x.elapsedMs),
    changesMs: Math.round(x.changesMs),
  });
  return {
    events: f.events,
    createConcurrency: f.createConcurrency,
    pdfBytes: f.pdfBytes,
    endToEnd: {
      eventType: SENT,
      ...p(f.endToEnd),
      p50Ms: round(f.endToEnd.p50Ms),
      p99Ms: round(f.endToEnd.p99Ms),
      maxMs: round(f.endToEnd.maxMs),
    },
    drain: {
      eventType: CANCELLED,
      ...p(f.drain),
      queued: f.drain.queued,
      firstArrivalMs: round(f.drain.firstArrivalMs),
    },
    failed: webhooksFailed(f),
  };
}
