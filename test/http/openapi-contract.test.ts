// Real answers of the local runtime, over HTTP, checked against the description it serves at
// /api/v2/openapi.json: each body against the documented schema of its operation and status, and
// the documented headers present. Objects are checked closed here (no undocumented field), which
// the published description leaves open so that a new field does not break generated clients.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '../../infra/local/runtime';
import { aBundle, aPdfB64 } from '../helpers/bundles';
import { eventually } from '../helpers/receiver';
import { apiClient, startTestRuntime, type TApiAnswer } from '../helpers/runtime';

// biome-ignore lint/suspicious/noExplicitAny: the description is arbitrary JSON
type TJson = any;
const BASE = 'https://esign.test/openapi.json';

let runtime: TRuntime;
let call: ReturnType<typeof apiClient>;
let doc: TJson;
let ajv: Ajv2020;
let b64: string;

/** Every object that names its properties admits no others (the test's stricter reading). */
function closed(schema: TJson): TJson {
  if (Array.isArray(schema)) return schema.map(closed);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: TJson = Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, closed(v)]));
  if (out.type === 'object' && out.properties && out.additionalProperties === undefined)
    out.additionalProperties = false;
  return out;
}

/** References into the description, made absolute so they resolve outside it. */
const absolute = (schema: TJson): TJson =>
  JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${BASE}#/components/`));

const deref = (node: TJson): TJson =>
  node?.$ref
    ? node.$ref
        .split('/')
        .slice(1)
        .reduce((n: TJson, k: string) => n[k], doc)
    : node;

function validatorFor(
  method: string,
  path: string,
  status: number,
): { check: ValidateFunction; response: TJson } {
  const op = doc.paths[path]?.[method.toLowerCase()];
  expect(op, `${method} ${path} is documented`).toBeDefined();
  const response = deref(op.responses[String(status)] ?? op.responses.default);
  expect(response, `${method} ${path} documents ${status}`).toBeDefined();
  const schema = response.content?.['application/json']?.schema ?? {};
  return { check: ajv.compile(absolute(schema)), response };
}

/** The answer's body matches the documented schema, and the documented headers are there. */
function expectDocumented(method: string, path: string, res: TApiAnswer) {
  const { check, response } = validatorFor(method, path, res.status);
  if (res.status !== 204) expect(check(res.body), JSON.stringify(check.errors, null, 1)).toBe(true);
  for (const name of Object.keys(response.headers ?? {})) {
    // Present on some answers only: a throttle's, a retry's replay.
    if (name === 'Retry-After' || name === 'Idempotent-Replayed') continue;
    expect(res.headers.get(name), `${method} ${path} ${res.status}: header ${name}`).not.toBeNull();
  }
}

beforeAll(async () => {
  runtime = await startTestRuntime();
  call = apiClient(runtime);
  b64 = await aPdfB64();
  const served = await call('GET', '/openapi.json', { key: null });
  expect(served.status).toBe(200);
  doc = served.body;
  ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: BASE, components: { schemas: closed(doc.components.schemas) } });
});
afterAll(() => runtime.stop());

describe('the served description', () => {
  it('needs no API key, names this runtime as its server and is JSON', async () => {
    const res = await call('GET', '/openapi.json', { key: null });
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(doc.servers).toEqual([{ url: `${runtime.baseUrl}/api/v2` }]);
    expect((await call('GET', '/openapi.json/')).status).toBe(200);
    expect((await call('POST', '/openapi.json', { key: null })).status).toBe(405);
  });
});

describe('answers of the local runtime match the description', () => {
  it('bundles: create, list, retrieve with extras, events, validate, packet, an error', async () => {
    const created = await call('POST', '/bundles/', { json: aBundle({}, b64) });
    expect(created.status, created.text).toBe(201);
    expectDocumented('POST', '/bundles', created);
    const id = created.body.id;

    expectDocumented('GET', '/bundles', await call('GET', '/bundles/?per_page=1'));
    expectDocumented('GET', '/bundles/{id}', await call('GET', `/bundles/${id}/?include=events,data,files`));
    expectDocumented('GET', '/bundles/{id}/events', await call('GET', `/bundles/${id}/events/`));
    expectDocumented('PUT', '/bundles/{id}/validate', await call('PUT', `/bundles/${id}/validate/`));
    expectDocumented(
      'PUT',
      '/bundles/{id}/add_tags',
      await call('PUT', `/bundles/${id}/add_tags/`, { json: { tags: ['x'] } }),
    );
    expectDocumented('GET', '/packets/{id}', await call('GET', `/packets/${created.body.packets[0].id}/`));

    const conflict = await call('GET', `/bundles/${id}/data/`);
    expect(conflict.status).toBe(409);
    expectDocumented('GET', '/bundles/{id}/data', conflict);
    const invalid = await call('POST', '/bundles/', { json: { packets: [] } });
    expect(invalid.status).toBe(400);
    expectDocumented('POST', '/bundles', invalid);
  });

  it('bulk send: accepted, its progress once done, a bad request, not found', async () => {
    const bundle = aBundle({}, b64);
    const rows = [{ signers: { ann: { name: 'Ann Row' } } }, { signers: { ann: { email: 'bad' } } }];
    const accepted = await call('POST', '/bundles/bulk/', { json: { bundle, rows } });
    expect(accepted.status, accepted.text).toBe(202);
    expectDocumented('POST', '/bundles/bulk', accepted);
    const done = await eventually(async () => {
      const res = await call('GET', `/bundles/bulk/${accepted.body.id}/`);
      return res.body.status === 'completed' && res;
    });
    expect(done.body.counts).toMatchObject({ created: 1, failed: 1 });
    expectDocumented('GET', '/bundles/bulk/{id}', done);
    expectDocumented(
      'POST',
      '/bundles/bulk',
      await call('POST', '/bundles/bulk/', { json: { bundle, rows: [] } }),
    );
    const missing = await call('GET', '/bundles/bulk/00000000-0000-4000-8000-000000000000/');
    expect(missing.status).toBe(404);
    expectDocumented('GET', '/bundles/bulk/{id}', missing);
  });

  it('persons: create, list, retrieve, delete, not found', async () => {
    const created = await call('POST', '/persons/', {
      json: { name: 'Ann Lee', metadata: { team: 'a' }, channels: [{ email: 'ann@example.com' }] },
    });
    expect(created.status, created.text).toBe(201);
    expectDocumented('POST', '/persons', created);
    expectDocumented('GET', '/persons', await call('GET', '/persons/?search=ann'));
    expectDocumented('GET', '/persons/{id}', await call('GET', `/persons/${created.body.id}/`));
    const deleted = await call('DELETE', `/persons/${created.body.id}/`);
    expect(deleted.status).toBe(204);
    expectDocumented('DELETE', '/persons/{id}', deleted);
    const missing = await call('GET', `/persons/${created.body.id}/`);
    expect(missing.status).toBe(404);
    expectDocumented('GET', '/persons/{id}', missing);
  });

  it('webhooks: create, list, headers, secret, events', async () => {
    const created = await call('POST', '/webhooks/', {
      json: { url: 'https://hooks.example.com/x', event_types: ['bundle_sent'] },
    });
    expect(created.status, created.text).toBe(201);
    expectDocumented('POST', '/webhooks', created);
    const header = await call('POST', '/webhooks/headers/', {
      json: { webhook: created.body.id, name: 'X-Extra', value: '1' },
    });
    expect(header.status, header.text).toBe(201);
    expectDocumented('POST', '/webhooks/headers', header);
    expectDocumented('GET', '/webhooks', await call('GET', '/webhooks/'));
    expectDocumented('GET', '/webhooks/{id}', await call('GET', `/webhooks/${created.body.id}/`));
    expectDocumented('GET', '/webhooks/secret', await call('GET', '/webhooks/secret/'));
    // A bundle sent now is logged as an event of the webhook (delivered or not).
    expect((await call('POST', '/bundles/', { json: aBundle({}, b64) })).status).toBe(201);
    const events = await call('GET', '/webhooks/events/');
    expect(events.body.length).toBeGreaterThan(0);
    expectDocumented('GET', '/webhooks/events', events);
    const event = events.body[0].id;
    expectDocumented('GET', '/webhooks/events/{id}', await call('GET', `/webhooks/events/${event}/`));
  });

  it('templates, envelope templates and the rate limit', async () => {
    expectDocumented('GET', '/templates', await call('GET', '/templates/'));
    expectDocumented('GET', '/envelope-templates', await call('GET', '/envelope-templates/'));
    expectDocumented('GET', '/rate_limit', await call('GET', '/rate_limit/'));
    const noKey = await call('GET', '/rate_limit/', { key: null });
    expect(noKey.status).toBe(401);
    expectDocumented('GET', '/rate_limit', noKey);
  });
});
