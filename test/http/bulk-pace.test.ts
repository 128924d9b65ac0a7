// Bulk sends keep to half their API key's throttle together: two batches sent at once by one
// key share that pace, rather than each going at it (and the two at the whole throttle).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { aPdfB64 } from '../helpers/bundles';
import { eventually } from '../helpers/receiver';
import { apiClient, startTestRuntime, TEST_LIMITS } from '../helpers/runtime';

// A throttle of 1 request a second: bulk rows at one every 2 seconds.
const ROWS_PER_SECOND = 0.5;
const ROWS = 4;

let runtime: TRuntime;
let call: ReturnType<typeof apiClient>;
let pdf: string;

beforeAll(async () => {
  runtime = await startTestRuntime({ limits: { ...TEST_LIMITS, rateLimit: 2 * ROWS_PER_SECOND } });
  call = apiClient(runtime);
  pdf = await aPdfB64();
});
afterAll(() => runtime.stop());

const batch = (label: string) => ({
  bundle: {
    label,
    packets: [{ key: 'emp' }],
    documents: [
      {
        key: 'offer',
        file_b64: pdf,
        fields: [{ kind: 'sig', page: 1, x: 10, y: 70, w: 30, h: 5, editors: ['emp'] }],
      },
    ],
  },
  rows: Array.from({ length: ROWS }, (_, i) => ({
    signers: { emp: { name: `${label} ${i}`, email: `${label.toLowerCase()}${i}@example.com` } },
  })),
});

async function createdTimes(batchId: string): Promise<number[]> {
  await eventually(
    async () => (await call('GET', `/bundles/bulk/${batchId}/`)).body.status === 'completed',
    120_000,
    `batch ${batchId} to complete`,
  );
  const tagged = await call('GET', `/bundles/?tag=${batchId}`);
  expect(tagged.body).toHaveLength(ROWS);
  return tagged.body
    .map((b: { created: string }) => Date.parse(b.created))
    .sort((a: number, b: number) => a - b);
}

describe('two bulk sends of one key at once', () => {
  it('go out at the pace of their key together: the second batch waits for the rows of the first', {
    timeout: 180_000,
  }, async () => {
    const sent = Date.now();
    const [a, b] = await Promise.all([
      call('POST', '/bundles/bulk/', { json: batch('Alpha') }),
      call('POST', '/bundles/bulk/', { json: batch('Beta') }),
    ]);
    expect([a.status, b.status]).toEqual([202, 202]);
    const [alpha, beta] = await Promise.all([createdTimes(a.body.id), createdTimes(b.body.id)]);
    // Whichever batch reserved first, the other's rows could not start before the first one's
    // ROWS rows had their time at ROWS_PER_SECOND, counted from no earlier than the sends.
    const later = Math.max(alpha[0]!, beta[0]!);
    expect(later - sent).toBeGreaterThanOrEqual((ROWS * 1000) / ROWS_PER_SECOND);
  });
});
