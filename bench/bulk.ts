// Bulk send at scale: one POST /bundles/bulk/ of 1,000 rows (one signer each, one document, a
// field value per row) on a runtime throttled as a stage is by default (50 requests a second),
// so the worker keeps to its pace of half that. Measured: the time from the request to the batch
// completed (every row's bundle created and sent), the DynamoDB requests per row by the function
// that sent them (the bulk worker's creates, and the notification, webhook and other work they
// start), and whether every row went out.
import http from 'node:http';
import { currentInvocation } from '#infra/local/invocation';
import { startLocalRuntime } from '#infra/local/runtime';
import { DEFAULT_RATE_LIMITS } from '#infra/stage-config';
import { bulkRowsPerSecond } from '#shared/domain/bulk/bulk-batch';
import { aBundle, aPdfB64 } from '../test/helpers/bundles';
import { mark, table } from './format';
import { answerOf, serviceClients } from './http';
import { round } from './stats';

export const BULK_TARGETS = { rows: 1000, maxRequestsPerRow: 40 } as const;

export interface TBulkFigures {
  rows: number;
  created: number;
  failed: number;
  rowsPerSecondPace: number;
  acceptMs: number;
  completedMs: number;
  /** DynamoDB requests, by the function that sent them, while the batch ran. */
  dynamoRequests: Record<string, number>;
  dynamoRequestsPerRow: number;
}

export async function benchBulk(rows = BULK_TARGETS.rows): Promise<TBulkFigures> {
  const counts: Record<string, number> = {};
  let counting = false;
  const runtime = await startLocalRuntime({
    port: 0,
    memory: true,
    logLevel: 'silent',
    limits: { quotaLimit: 1e9, rateLimit: DEFAULT_RATE_LIMITS.throttleRatePerSecond, burstLimit: 1e9 },
    publicPathLimit: 1e9,
    authorizerTtlSeconds: 3600,
    instrumentDb: (db) =>
      db.middlewareStack.add(
        (next) => async (args) => {
          if (counting) {
            const fn = currentInvocation()?.fn ?? 'bench';
            counts[fn] = (counts[fn] ?? 0) + 1;
          }
          return next(args);
        },
        { step: 'initialize', name: 'benchBulk' },
      ),
  });
  const agent = new http.Agent({ keepAlive: true });
  try {
    const { api } = serviceClients(runtime.baseUrl, runtime.demo.apiKey, agent);
    const b64 = await aPdfB64();
    const bundle = aBundle(
      {
        label: 'Bulk',
        packets: [{ key: 'ann' }],
        documents: [
          {
            key: 'lease',
            file_b64: b64,
            fields: [
              { kind: 'sig', page: 1, x: 10, y: 70, w: 30, h: 5, editors: ['ann'] },
              { kind: 'inp', key: 'unit', page: 1, x: 10, y: 50, w: 30, h: 5, editors: ['ann'] },
            ],
          },
        ],
      },
      b64,
    );
    const list = Array.from({ length: rows }, (_, i) => ({
      signers: { ann: { name: `Signer ${i}`, email: `signer${i}@example.com` } },
      fields: { unit: `Unit ${i}` },
    }));
    counting = true;
    const t0 = performance.now();
    const accepted = answerOf(
      'POST /bundles/bulk/',
      await api('POST', '/bundles/bulk/', { bundle, rows: list }),
      202,
    );
    const acceptMs = performance.now() - t0;
    let batch: Record<string, unknown> = accepted;
    const deadline = Date.now() + 10 * 60_000;
    while (batch.status !== 'completed') {
      if (Date.now() > deadline) throw new Error('bulk: the batch did not complete within 10 minutes');
      await new Promise((r) => setTimeout(r, 500));
      batch = answerOf('GET /bundles/bulk/{id}/', await api('GET', `/bundles/bulk/${accepted.id}/`), 200);
    }
    const completedMs = performance.now() - t0;
    counting = false;
    const c = batch.counts as { created: number; failed: number };
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    return {
      rows,
      created: c.created,
      failed: c.failed,
      rowsPerSecondPace: bulkRowsPerSecond(DEFAULT_RATE_LIMITS.throttleRatePerSecond),
      acceptMs: round(acceptMs),
      completedMs: round(completedMs),
      dynamoRequests: Object.fromEntries(Object.entries(counts).sort(([a], [b]) => a.localeCompare(b))),
      dynamoRequestsPerRow: round(total / rows, 1),
    };
  } finally {
    agent.destroy();
    await runtime.stop();
  }
}

export const bulkFailed = (f: TBulkFigures) => f.created !== f.rows;

export const bulkJson = (f: TBulkFigures) => f;

export function bulkReport(f: TBulkFigures): string {
  const perRow = (n: number) => (n / f.rows).toFixed(1);
  return [
    '',
    `Bulk send: ${f.rows} rows, paced at ${f.rowsPerSecondPace} rows/s (half the default throttle)`,
    table(
      [
        ['  accepted (202)', `${f.acceptMs.toFixed(0)} ms`, ''],
        [
          '  all bundles sent',
          `${(f.completedMs / 1000).toFixed(1)} s`,
          `${f.created} created, ${f.failed} failed ${mark(f.created === f.rows)}`,
        ],
        [
          '  DynamoDB requests per row',
          f.dynamoRequestsPerRow.toFixed(1),
          `target ≤ ${BULK_TARGETS.maxRequestsPerRow} ${mark(f.dynamoRequestsPerRow <= BULK_TARGETS.maxRequestsPerRow)}`,
        ],
        ...Object.entries(f.dynamoRequests).map(([fn, n]) => [`    ${fn}`, perRow(n), '']),
      ],
      ['l', 'r', 'l'],
    ),
  ].join('\n');
}
