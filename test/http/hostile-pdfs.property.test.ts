// Any hostile structure fast-check builds (trees that list themselves, long chains, deep nesting,
// compression bombs wherever a reader inflates, many signature dictionaries), sent to the public
// check: it answers, a report or 422 too_complex, and while it is at work the server answers
// the page and another visitor's check too. On the request's thread, some of these never ended.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import {
  bombAt,
  cyclicPageTree,
  deepArray,
  deepNameTree,
  manySignatures,
  selfReferencingNameTree,
} from '../helpers/hostile-pdfs';
import { aPdf } from '../helpers/pdfs';
import { sharedTestRuntime } from '../helpers/shared-runtime';

let runtime: TRuntime;
let plain: Buffer;
beforeAll(async () => {
  runtime = await sharedTestRuntime();
  plain = Buffer.from(await aPdf());
});
afterAll(async () => {
  await runtime?.stop();
});

const hostileArb: fc.Arbitrary<{ name: string; pdf: () => Buffer }> = fc.oneof(
  fc
    .integer({ min: 1, max: 64 })
    .map((n) => ({ name: `tree lists itself ${n}×`, pdf: () => selfReferencingNameTree(n) })),
  fc
    .integer({ min: 1, max: 64 })
    .map((n) => ({ name: `page tree lists itself ${n}×`, pdf: () => cyclicPageTree(n) })),
  fc
    .integer({ min: 1, max: 5_000 })
    .map((n) => ({ name: `name tree ${n} deep`, pdf: () => deepNameTree(n) })),
  fc.integer({ min: 1, max: 20_000 }).map((n) => ({ name: `arrays ${n} deep`, pdf: () => deepArray(n) })),
  fc
    .record({
      place: fc.constantFrom('attachment' as const, 'dss' as const, 'object stream' as const),
      megabytes: fc.integer({ min: 1, max: 1_500 }),
      levels: fc.integer({ min: 1, max: 3 }),
    })
    .map(({ place, megabytes, levels }) => ({
      name: `${megabytes} MB in ${levels} Flate in ${place}`,
      pdf: () => bombAt(place, megabytes * 1_000_000, levels),
    })),
  fc.integer({ min: 0, max: 3_000 }).map((n) => ({ name: `${n} signatures`, pdf: () => manySignatures(n) })),
);

const check = (pdf: Buffer) =>
  fetch(`${runtime.baseUrl}/verify/api/check`, {
    method: 'POST',
    headers: { 'content-type': 'application/pdf' },
    body: pdf,
  });

describe('the public check on hostile structures', () => {
  it('answers each with a report or 422 too_complex, and answers others meanwhile', async () => {
    await fc.assert(
      fc.asyncProperty(hostileArb, async ({ name, pdf }) => {
        const [hostile, page, other] = await Promise.all([
          check(pdf()),
          fetch(`${runtime.baseUrl}/verify`),
          check(plain),
        ]);
        expect(page.status, name).toBe(200);
        expect(other.status, name).toBe(200);
        const body = (await hostile.json()) as { code?: string; checks?: unknown };
        if (hostile.status === 422) expect(body.code, name).toBe('too_complex');
        else {
          expect(hostile.status, name).toBe(200);
          expect(body.checks, name).toBeDefined();
        }
      }),
      { numRuns: 12 },
    );
  }, 600_000);
});
