// A required field filled with characters nobody can see is still empty: the service refuses to
// finish on it, and refuses a typed signature of them outright, over real HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { aPdfB64 } from '../helpers/bundles';
import { apiClient } from '../helpers/runtime';
import { sharedTestRuntime } from '../helpers/shared-runtime';
import { openSession, signerClient } from '../helpers/signer';

let runtime: TRuntime;
let call: ReturnType<typeof apiClient>;
let sign: ReturnType<typeof signerClient>;
let pdf: string;

beforeAll(async () => {
  runtime = await sharedTestRuntime();
  call = apiClient(runtime);
  sign = signerClient(runtime);
  pdf = await aPdfB64();
});
afterAll(() => runtime.stop());

const INVISIBLE = [
  '\u3164',
  '\u2800',
  '\u115F',
  '\uFFA0',
  '\u17B4',
  '\uFE0F',
  '\u0301',
  '\u3164\u2800 \u200B',
];

async function annSession() {
  const res = await call('POST', '/bundles/', {
    json: {
      label: 'Invisible values',
      packets: [{ key: 'ann', name: 'Ann Lee', email: 'ann@example.com', deliver_via: 'embed' }],
      documents: [
        {
          key: 'doc',
          file_b64: pdf,
          fields: [
            { key: 'name', kind: 'inp', label: 'Name', page: 1, x: 10, y: 10, w: 30, h: 4, required: true },
            { key: 'sig', kind: 'sig', page: 1, x: 10, y: 70, w: 30, h: 5, required: true },
          ],
        },
      ],
    },
  });
  expect(res.status, res.text).toBe(201);
  return openSession(sign, call, res.body.packets[0].id);
}

describe('invisible characters in required fields', () => {
  it.each(INVISIBLE.map((v) => [JSON.stringify(v), v]))(
    'a typed signature of %s is refused with a message for the field',
    async (_name, value) => {
      const ann = await annSession();
      const res = await sign('PUT', '/values', ann, {
        values: [{ doc_key: 'doc', field_key: 'sig', value: `typed:${value}` }],
      });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['doc.sig']);
    },
  );

  it.each(INVISIBLE.map((v) => [JSON.stringify(v), v]))(
    'a required text field holding only %s does not let the signer finish',
    async (_name, value) => {
      const ann = await annSession();
      const saved = await sign('PUT', '/values', ann, {
        values: [
          { doc_key: 'doc', field_key: 'name', value },
          { doc_key: 'doc', field_key: 'sig', value: 'typed:Ann Lee' },
        ],
      });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      const finish = await sign('POST', '/complete', ann, { consent: true });
      expect(finish.status, JSON.stringify(finish.body)).toBe(400);
      expect(finish.body.errors.map((e: { field: string }) => e.field)).toEqual(['doc.name']);
      // A visible value then finishes.
      await sign('PUT', '/values', ann, { values: [{ doc_key: 'doc', field_key: 'name', value: 'Ann' }] });
      expect((await sign('POST', '/complete', ann, { consent: true })).status).toBe(200);
    },
  );
});
