import { createHash, randomUUID } from 'node:crypto';
// Real answers of the local runtime, over HTTP, checked against the description it serves at
// /api/v2/openapi.json: each body against the documented schema of its operation and status, and
// the documented headers present. Objects are checked closed here (no undocumented field), which
// the published description leaves open so that a new field does not break generated clients.
// Every operation the description lists gets at least one real answer checked, the success one
// where a step can reach it; the last test fails when an operation has none.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { createAccountStore } from '#shared/adapters/dynamodb/account-store';
import * as examples from '#shared/openapi/examples';
import { aBundle, anEmbeddedBundle, aPdfB64 } from '../helpers/bundles';
import { eventually, startReceiver } from '../helpers/receiver';
import { apiClient, type TApiAnswer } from '../helpers/runtime';
import { sharedTestRuntime } from '../helpers/shared-runtime';
import { openSession, signerClient } from '../helpers/signer';

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

/** The answer, once it has the status the step expects: so the schema checked is that status's. */
function having(status: number, res: TApiAnswer): TApiAnswer {
  expect(res.status, res.text).toBe(status);
  return res;
}

/** Each operation (`METHOD /path`) some real answer of this file was checked against. */
const answered = new Set<string>();

/** The answer's body matches the documented schema, and the documented headers are there. */
function expectDocumented(method: string, path: string, res: TApiAnswer) {
  answered.add(`${method.toUpperCase()} ${path}`);
  const { check, response } = validatorFor(method, path, res.status);
  if (res.status !== 204) expect(check(res.body), JSON.stringify(check.errors, null, 1)).toBe(true);
  for (const name of Object.keys(response.headers ?? {})) {
    // Present on some answers only: a throttle's, a retry's replay.
    if (name === 'Retry-After' || name === 'Idempotent-Replayed') continue;
    expect(res.headers.get(name), `${method} ${path} ${res.status}: header ${name}`).not.toBeNull();
  }
}

beforeAll(async () => {
  runtime = await sharedTestRuntime();
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
    expectDocumented('GET', '/openapi.json', res);
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

  it('the create example, its file given inline: an approver, two signers as one step, a viewer', async () => {
    const { file_url: _, ...document } = examples.bundleRequest.documents[0]!;
    const created = await call('POST', '/bundles/', {
      json: { ...examples.bundleRequest, documents: [{ ...document, file_b64: b64 }] },
    });
    expect(created.status, created.text).toBe(201);
    expectDocumented('POST', '/bundles', created);
    expect(created.body.packets.map((p: { role?: string; order: number }) => [p.role, p.order])).toEqual([
      ['approver', 1],
      [undefined, 2],
      [undefined, 2],
      ['viewer', 3],
    ]);
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
    // A bundle sent now is logged as an event of the webhook (delivered or not), by the outbox
    // relay once the create is written.
    expect((await call('POST', '/bundles/', { json: aBundle({}, b64) })).status).toBe(201);
    await runtime.workers.outboxRelay.idle();
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

  describe('bundles and packets: change, send, tags, cancel, interim and final files, verify, packet links, remind, certificate', () => {
    let id: string;
    let ann: { id: string };
    let kim: { id: string };

    it('a draft and its packets: change, send, tags, remind, kiosk link, hand over', async () => {
      const draft = await call('POST', '/bundles/', {
        json: aBundle(
          {
            status: 'dr',
            packets: [
              { key: 'ann', name: 'Ann Lee', email: 'ann@example.com' },
              { key: 'kim', name: 'Kim Desk', email: 'kim@example.com', deliver_via: 'kiosk' },
            ],
          },
          b64,
        ),
      });
      expect(draft.status, draft.text).toBe(201);
      id = draft.body.id;
      [ann, kim] = draft.body.packets;
      expectDocumented(
        'PATCH',
        '/bundles/{id}',
        having(200, await call('PATCH', `/bundles/${id}/`, { json: { label: 'Lease 2' } })),
      );
      expectDocumented(
        'PATCH',
        '/packets/{id}',
        having(200, await call('PATCH', `/packets/${ann.id}/`, { json: { name: 'Ann Lee-Roe' } })),
      );
      expectDocumented(
        'POST',
        '/bundles/{id}/prepare_url',
        having(201, await call('POST', `/bundles/${id}/prepare_url/`)),
      );
      expectDocumented('POST', '/bundles/{id}/send', having(200, await call('POST', `/bundles/${id}/send/`)));
      expectDocumented(
        'PUT',
        '/bundles/{id}/remove_tags',
        having(200, await call('PUT', `/bundles/${id}/remove_tags/`, { json: { tags: ['x'] } })),
      );
      expectDocumented(
        'PUT',
        '/packets/{id}/remind',
        having(200, await call('PUT', `/packets/${ann.id}/remind/`)),
      );
      expectDocumented(
        'POST',
        '/packets/{id}/kiosk_url',
        having(201, await call('POST', `/packets/${kim.id}/kiosk_url/`, { json: {} })),
      );
      const to = { name: 'Ann Other', email: 'ann.other@example.com' };
      expectDocumented(
        'POST',
        '/packets/{id}/reassign',
        having(200, await call('POST', `/packets/${ann.id}/reassign/`, { json: to })),
      );
    });

    it('before signing: interim files only with early file access, no files or certificate yet; cancel', async () => {
      // Not yet signed: interim files are for accounts with early file access (403 here), and
      // neither the files nor the certificate are there yet (409).
      expectDocumented('PUT', '/bundles/{id}/files', having(403, await call('PUT', `/bundles/${id}/files/`)));
      expectDocumented('GET', '/bundles/{id}/files', having(409, await call('GET', `/bundles/${id}/files/`)));
      expectDocumented('GET', '/packets/{id}/coe', having(409, await call('GET', `/packets/${ann.id}/coe/`)));
      const early = await runtime.seedAccount('Early', 'early@example.com');
      await createAccountStore(runtime.db, runtime.config.tableName).setFeatures(early.accountId, {
        early_file_access: true,
      });
      const theirs = apiClient(runtime, early.apiKey);
      const sent = await theirs('POST', '/bundles/', { json: aBundle({}, b64) });
      expect(sent.status, sent.text).toBe(201);
      expectDocumented(
        'PUT',
        '/bundles/{id}/files',
        having(202, await theirs('PUT', `/bundles/${sent.body.id}/files/`)),
      );
      expectDocumented(
        'PUT',
        '/bundles/{id}/cancel',
        having(200, await call('PUT', `/bundles/${id}/cancel/`)),
      );
    });

    it('signed through: the embed link, the final files, the certificate and the verify answer', async () => {
      // Signed through to its final files: the certificate, the files and the verify answer.
      const sign = signerClient(runtime);
      const signed = await call('POST', '/bundles/', {
        json: anEmbeddedBundle(b64),
      });
      expect(signed.status, signed.text).toBe(201);
      const packet = signed.body.packets[0].id;
      const embed = await call('POST', `/packets/${packet}/embed_url/`);
      expectDocumented('POST', '/packets/{id}/embed_url', having(201, embed));
      const session = await openSession(sign, call, packet);
      expect(
        (
          await sign('PUT', '/values', session, {
            values: [{ doc_key: 'lease', field_key: 'sig', value: 'typed:Ann Lee' }],
          })
        ).status,
      ).toBe(200);
      expect((await sign('POST', '/complete', session, { consent: true })).status).toBe(200);
      await eventually(
        async () => (await call('GET', `/bundles/${signed.body.id}/`)).body.docs_ready,
        90_000,
        'documents ready',
      );
      const files = await call('GET', `/bundles/${signed.body.id}/files/`);
      expectDocumented('GET', '/bundles/{id}/files', having(200, files));
      expectDocumented('GET', '/packets/{id}/coe', having(200, await call('GET', `/packets/${packet}/coe/`)));
      const final = files.body.find((f: { kind: string }) => f.kind === 'final');
      const bytes = Buffer.from(await (await fetch(final.file_url)).arrayBuffer());
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      expectDocumented('POST', '/verify', having(200, await call('POST', '/verify/', { json: { sha256 } })));
    });
  });

  it('persons: replace and change', async () => {
    const created = await call('POST', '/persons/', {
      json: { name: 'Bo Chen', channels: [{ email: 'bo@example.com' }] },
    });
    expect(created.status, created.text).toBe(201);
    const person = `/persons/${created.body.id}/`;
    expectDocumented(
      'PUT',
      '/persons/{id}',
      having(
        200,
        await call('PUT', person, { json: { name: 'Bo Chen', channels: [{ email: 'bo@example.org' }] } }),
      ),
    );
    expectDocumented(
      'PATCH',
      '/persons/{id}',
      having(200, await call('PATCH', person, { json: { name: 'Bo Chen-Li' } })),
    );
  });

  it('document and envelope templates: create, retrieve, change, send from, preparation session, delete', async () => {
    const template = await call('POST', '/templates/', {
      json: {
        name: 'Lease',
        file_b64: b64,
        roles: [{ key: 'tenant', label: 'Tenant' }],
        fields: [{ key: 'sig-t', kind: 'sig', page: 1, x: 10, y: 70, w: 30, h: 5, editor_roles: ['tenant'] }],
      },
    });
    expectDocumented('POST', '/templates', template);
    expect(template.status, template.text).toBe(201);
    const t = `/templates/${template.body.id}/`;
    expectDocumented('GET', '/templates/{id}', having(200, await call('GET', t)));
    expectDocumented(
      'PATCH',
      '/templates/{id}',
      having(200, await call('PATCH', t, { json: { name: 'Lease 2' } })),
    );
    expectDocumented(
      'POST',
      '/templates/preparation_session',
      having(
        201,
        await call('POST', '/templates/preparation_session/', { json: { name: 'Prepared', file_b64: b64 } }),
      ),
    );

    const envelope = await call('POST', '/envelope-templates/', {
      json: {
        name: 'Rental',
        documents: [{ key: 'lease', template_id: template.body.id, name: 'Lease', order: 0 }],
        signers: [{ key: 'tenant', label: 'Tenant', order: 0 }],
      },
    });
    expectDocumented('POST', '/envelope-templates', envelope);
    expect(envelope.status, envelope.text).toBe(201);
    const e = `/envelope-templates/${envelope.body.id}/`;
    expectDocumented('GET', '/envelope-templates/{id}', having(200, await call('GET', e)));
    expectDocumented(
      'PATCH',
      '/envelope-templates/{id}',
      having(200, await call('PATCH', e, { json: { name: 'Rental 2' } })),
    );
    expectDocumented(
      'POST',
      '/bundles/create_from_envelope_template',
      having(
        201,
        await call('POST', '/bundles/create_from_envelope_template/', {
          json: {
            envelope_template: { template_id: envelope.body.id },
            packets: [{ key: 'tenant', name: 'Ann Lee', email: 'ann@example.com' }],
          },
        }),
      ),
    );
    expectDocumented('DELETE', '/envelope-templates/{id}', having(204, await call('DELETE', e)));
    // A document template a bundle was made from may still be deleted, or refused as in use.
    expectDocumented('DELETE', '/templates/{id}', having(204, await call('DELETE', t)));
  });

  it('webhooks: change, replace, headers one by one, secret regenerated, redelivery, deliveries, delete', async () => {
    const receiver = await startReceiver();
    try {
      const hook = await call('POST', '/webhooks/', {
        json: { url: receiver.url('/contract'), event_types: ['bundle_sent'] },
      });
      expect(hook.status, hook.text).toBe(201);
      const w = `/webhooks/${hook.body.id}/`;
      expectDocumented(
        'PATCH',
        '/webhooks/{id}',
        having(200, await call('PATCH', w, { json: { enabled: true } })),
      );
      expectDocumented(
        'PUT',
        '/webhooks/{id}',
        having(
          200,
          await call('PUT', w, { json: { url: receiver.url('/contract'), event_types: ['bundle_sent'] } }),
        ),
      );
      const header = await call('POST', '/webhooks/headers/', {
        json: { webhook: hook.body.id, name: 'X-Extra', value: '1' },
      });
      expect(header.status, header.text).toBe(201);
      const h = `/webhooks/headers/${header.body.id}/`;
      expectDocumented('GET', '/webhooks/headers', having(200, await call('GET', '/webhooks/headers/')));
      expectDocumented('GET', '/webhooks/headers/{id}', having(200, await call('GET', h)));
      expectDocumented(
        'PUT',
        '/webhooks/headers/{id}',
        having(200, await call('PUT', h, { json: { webhook: hook.body.id, name: 'X-Extra', value: '2' } })),
      );
      expectDocumented(
        'PATCH',
        '/webhooks/headers/{id}',
        having(200, await call('PATCH', h, { json: { value: '3' } })),
      );
      expectDocumented('DELETE', '/webhooks/headers/{id}', having(204, await call('DELETE', h)));
      expectDocumented(
        'POST',
        '/webhooks/secret/regenerate',
        having(200, await call('POST', '/webhooks/secret/regenerate/')),
      );
      expectDocumented(
        'GET',
        '/webhooks/secret/regenerate',
        having(200, await call('GET', '/webhooks/secret/regenerate/')),
      );

      expect((await call('POST', '/bundles/', { json: aBundle({}, b64) })).status).toBe(201);
      await eventually(() => receiver.callsTo('/contract').length > 0, 30_000, 'a delivery');
      const deliveries = await eventually(async () => {
        const res = await call('GET', '/webhooks/deliveries/');
        return res.body.length > 0 && res;
      });
      expectDocumented('GET', '/webhooks/deliveries', deliveries);
      expectDocumented(
        'GET',
        '/webhooks/deliveries/{id}',
        having(200, await call('GET', `/webhooks/deliveries/${deliveries.body[0].id}/`)),
      );
      const event = (await call('GET', '/webhooks/events/')).body[0].id;
      expectDocumented(
        'POST',
        '/webhooks/events/{id}/redeliver',
        having(202, await call('POST', `/webhooks/events/${event}/redeliver/`)),
      );
      expectDocumented('DELETE', '/webhooks/{id}', having(204, await call('DELETE', w)));
    } finally {
      await receiver.stop();
    }
  });
});

describe("answers of the account's settings match the description", () => {
  it('API keys, signing brands and the account: list, create, retrieve, change, revoke, delete', async () => {
    const key = having(201, await call('POST', '/api-keys/', { json: { name: 'Contract' } }));
    expectDocumented('POST', '/api-keys', key);
    expectDocumented('GET', '/api-keys', having(200, await call('GET', '/api-keys/')));
    const keyId = key.body.id as string;
    expectDocumented('DELETE', '/api-keys/{id}', having(200, await call('DELETE', `/api-keys/${keyId}/`)));

    const brand = {
      name: 'Contract Co',
      primary_color: '#0b5cad',
      logo_url: 'https://cdn.example.com/l.png',
    };
    const made = having(201, await call('POST', '/signing-brands/', { json: brand }));
    expectDocumented('POST', '/signing-brands', made);
    const at = `/signing-brands/${made.body.id}/`;
    expectDocumented('GET', '/signing-brands', having(200, await call('GET', '/signing-brands/')));
    expectDocumented('GET', '/signing-brands/{id}', having(200, await call('GET', at)));
    const changed = await call('PATCH', at, { json: { redirect_url: null, primary_color: null } });
    expectDocumented('PATCH', '/signing-brands/{id}', having(200, changed));
    expectDocumented('DELETE', '/signing-brands/{id}', having(204, await call('DELETE', at)));

    expectDocumented('GET', '/account', having(200, await call('GET', '/account/')));
    const reminders = { reminders: { send_reminders: true, reminder_offset: 3 } };
    expectDocumented('PATCH', '/account', having(200, await call('PATCH', '/account/', { json: reminders })));
  });
});

describe('answers of retention match the description', () => {
  it("the account's policy, and a bundle's legal hold: retrieve, set, release", async () => {
    const policy = { originals_days: 30, finals_days: 3650, images_days: 7 };
    const set = having(200, await call('PUT', '/account/retention/', { json: policy }));
    expectDocumented('PUT', '/account/retention', set);
    expect(set.body).toEqual(policy);
    expectDocumented('GET', '/account/retention', having(200, await call('GET', '/account/retention/')));
    const erased = await call('POST', '/account/erasures/', { json: { email: 'nobody@contract.example' } });
    expectDocumented('POST', '/account/erasures', having(200, erased));
    // Back to no policy, so the other tests' bundles are kept as before.
    having(200, await call('PUT', '/account/retention/', { json: {} }));

    const b = having(201, await call('POST', '/bundles/', { json: aBundle({ status: 'dr' }, b64) }));
    const at = `/bundles/${b.body.id}/legal_hold/`;
    const held = having(200, await call('PUT', at));
    expectDocumented('PUT', '/bundles/{id}/legal_hold', held);
    expectDocumented('GET', '/bundles/{id}/legal_hold', having(200, await call('GET', at)));
    expectDocumented('DELETE', '/bundles/{id}/legal_hold', having(200, await call('DELETE', at)));
  });
});

describe("answers of an account's export match the description", () => {
  it('start, and follow it to its link', async () => {
    // An account of its own: its export is small, and the demo account's is no other test's business.
    const own = apiClient(
      runtime,
      (await runtime.seedAccount('Export Co', 'export@contract.example')).apiKey,
    );
    const started = having(202, await own('POST', '/account/exports/'));
    expectDocumented('POST', '/account/exports', started);
    const at = `/account/exports/${started.body.id}/`;
    const done = await eventually(async () => {
      const got = having(200, await own('GET', at));
      return got.body.status === 'done' ? got : undefined;
    }, 30_000);
    expectDocumented('GET', '/account/exports/{id}', done);
  });
});

describe("answers of the account's people match the description", () => {
  it('users, invitations, teams and the security log', async () => {
    const team = having(201, await call('POST', '/teams/', { json: { name: 'Contract team' } }));
    expectDocumented('POST', '/teams', team);
    expectDocumented('GET', '/teams', having(200, await call('GET', '/teams/')));
    const teamAt = `/teams/${team.body.id}/`;
    expectDocumented(
      'PATCH',
      '/teams/{id}',
      having(200, await call('PATCH', teamAt, { json: { name: 'Renamed' } })),
    );

    const invited = { email: 'invited@contract.example', name: 'Ivy Invited', teams: [team.body.id] };
    const invitation = having(201, await call('POST', '/invitations/', { json: invited }));
    expectDocumented('POST', '/invitations', invitation);
    expectDocumented('GET', '/invitations', having(200, await call('GET', '/invitations/')));
    const revoked = await call('DELETE', `/invitations/${invitation.body.id}/`);
    expectDocumented('DELETE', '/invitations/{id}', having(204, revoked));

    // A second user of the account, as the operator's add-user makes one, to change and remove.
    const id = randomUUID();
    await createAccountStore(runtime.db, runtime.config.tableName).addUser({
      id,
      accountId: runtime.demo.accountId,
      name: 'Cy Contract',
      email: 'cy@contract.example',
      isAdmin: false,
      created: new Date().toISOString(),
    });
    expectDocumented('GET', '/users', having(200, await call('GET', '/users/')));
    expectDocumented('GET', '/users/{id}', having(200, await call('GET', `/users/${id}/`)));
    const moved = await call('PATCH', `/users/${id}/`, { json: { teams: [team.body.id] } });
    expectDocumented('PATCH', '/users/{id}', having(200, moved));
    expectDocumented('DELETE', '/users/{id}', having(200, await call('DELETE', `/users/${id}/`)));
    expectDocumented('DELETE', '/teams/{id}', having(204, await call('DELETE', teamAt)));
    expectDocumented('GET', '/security_log', having(200, await call('GET', '/security_log/')));
  });
});

describe('the contract test', () => {
  it('has checked a real answer of every operation the description lists', () => {
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(
      ([path, ops]) =>
        Object.keys(ops)
          .filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
          .map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(documented.length).toBeGreaterThan(50);
    expect(documented.filter((op) => !answered.has(op)).sort()).toEqual([]);
  });
});
