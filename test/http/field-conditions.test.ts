// Conditional fields over real HTTP: refused when they name a missing field or go round in a
// circle, kept by document and envelope templates, enforced at every save and at finish (a
// hidden field's value is dropped), and never stamped on the final document (pdftotext).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { aPdfB64 } from '../helpers/bundles';
import { textOf } from '../helpers/poppler';
import { readmeShellBlock, runReadmeCommands } from '../helpers/readme-blocks';
import { eventually } from '../helpers/receiver';
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

const box = (y: number) => ({ page: 1, x: 10, y, w: 40, h: 4 });
const MARRIED = { field: 'married', equals: 'true' };

/** Married? Then the spouse's name (required while shown). The Pro plan needs a reason. */
const FIELDS = [
  { key: 'married', kind: 'chk', label: 'Married', ...box(10), w: 3, h: 3 },
  {
    key: 'spouse',
    kind: 'inp',
    label: 'Spouse',
    ...box(20),
    required: true,
    visible_when: { all: [MARRIED] },
  },
  { key: 'plan', kind: 'sel', label: 'Plan', ...box(30), format: 'Basic|Pro' },
  {
    key: 'reason',
    kind: 'inp',
    label: 'Reason',
    ...box(40),
    required_when: { any: [{ field: 'plan', one_of: ['Pro'] }] },
  },
  { key: 'sig', kind: 'sig', ...box(70), h: 6, required: true },
];

const errorsOf = (res: { body: { errors: { field: string; message: string }[] } }) =>
  Object.fromEntries(res.body.errors.map((e) => [e.field, e.message]));

const valuesOf = (state: { fields: { key: string; value: string }[] }) =>
  Object.fromEntries(state.fields.map((f) => [f.key, f.value]));

describe('conditions that cannot be decided', () => {
  it('are a 400 naming the missing key and the cycle, for bundles and templates alike', async () => {
    const fields = [
      { key: 'aa', kind: 'inp', ...box(10), visible_when: { all: [{ field: 'bb', not_empty: true }] } },
      { key: 'bb', kind: 'inp', ...box(20), required_when: { any: [{ field: 'aa', equals: 'x' }] } },
      { key: 'cc', kind: 'inp', ...box(30), visible_when: { any: [{ field: 'nope', one_of: ['1'] }] } },
    ];
    const bundle = await call('POST', '/bundles/', {
      json: {
        packets: [{ key: 'ann', name: 'Ann Lee', email: 'ann@example.com' }],
        documents: [{ key: 'doc', file_b64: pdf, fields }],
      },
    });
    expect(bundle.status, bundle.text).toBe(400);
    expect(errorsOf(bundle)).toEqual({
      'documents[0].fields[2].visible_when.any[0].field': 'No field has the key "nope".',
      'documents[0].fields[0].visible_when': expect.stringContaining('aa → bb → aa'),
    });
    const template = await call('POST', '/templates/', {
      json: { name: 'Loop', file_b64: pdf, roles: [{ key: 'rr', label: 'R' }], fields: fields.slice(0, 2) },
    });
    expect(template.status, template.text).toBe(400);
    expect(Object.keys(errorsOf(template))).toEqual(['fields[0].visible_when']);
    const shape = await call('POST', '/bundles/', {
      json: {
        packets: [{ key: 'ann', name: 'Ann Lee', email: 'ann@example.com' }],
        documents: [
          { key: 'doc', file_b64: pdf, fields: [{ ...fields[2], visible_when: { all: [], any: [] } }] },
        ],
      },
    });
    expect(shape.status, shape.text).toBe(400);
  });
});

describe('a template with conditions', () => {
  it('keeps them, answers them only on the fields that have them, and passes them on', async () => {
    const created = await call('POST', '/templates/', {
      json: { name: 'Family', file_b64: pdf, roles: [{ key: 'member', label: 'Member' }], fields: FIELDS },
    });
    expect(created.status, created.text).toBe(201);
    const got = (await call('GET', `/templates/${created.body.id}/`)).body;
    const byKey = Object.fromEntries(got.fields.map((f: { key: string }) => [f.key, f]));
    expect(byKey.spouse.visible_when).toEqual({ all: [MARRIED] });
    expect(byKey.reason.required_when).toEqual({ any: [{ field: 'plan', one_of: ['Pro'] }] });
    expect(Object.keys(byKey.married)).not.toContain('visible_when');
    expect(Object.keys(byKey.married)).not.toContain('required_when');

    const envelope = await call('POST', '/envelope-templates/', {
      json: {
        name: 'Family pack',
        documents: [{ key: 'family', template_id: created.body.id, name: 'Family', order: 0 }],
        signers: [{ key: 'member', label: 'Member', order: 0 }],
      },
    });
    expect(envelope.status, envelope.text).toBe(201);
    const bundle = await call('POST', '/bundles/create_from_envelope_template/', {
      json: {
        envelope_template: { template_id: envelope.body.id },
        packets: [{ key: 'member', name: 'Ann Lee', email: 'ann@example.com', deliver_via: 'embed' }],
      },
    });
    expect(bundle.status, bundle.text).toBe(201);
    const session = await openSession(sign, call, bundle.body.packets[0].id);
    const state = await sign('GET', '/state', session);
    expect(state.status, JSON.stringify(state.body)).toBe(200);
    const spouse = state.body.fields.find((f: { key: string }) => f.key === 'spouse');
    expect(spouse.visible_when).toEqual({ all: [MARRIED] });
    // Shown or not, finishing needs no spouse while the box is unticked.
    await sign('PUT', '/values', session, {
      values: [{ doc_key: 'family', field_key: 'sig', value: 'typed:Ann Lee' }],
    });
    const done = await sign('POST', '/complete', session, { consent: true });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
  });
});

describe('a signer filling conditional fields', () => {
  let bundleId: string;
  let session: string;
  const save = (values: Record<string, string>) =>
    sign('PUT', '/values', session, {
      values: Object.entries(values).map(([field_key, value]) => ({ doc_key: 'doc', field_key, value })),
    });

  beforeAll(async () => {
    const res = await call('POST', '/bundles/', {
      json: {
        label: 'Conditions',
        packets: [{ key: 'ann', name: 'Ann Lee', email: 'ann@example.com', deliver_via: 'embed' }],
        documents: [{ key: 'doc', file_b64: pdf, fields: FIELDS }],
      },
    });
    expect(res.status, res.text).toBe(201);
    expect(Object.keys(res.body)).not.toContain('visible_when');
    bundleId = res.body.id;
    session = await openSession(sign, call, res.body.packets[0].id);
  });

  it('drops a hidden field’s value at every save: given to it, or held when it was hidden', async () => {
    const shown = await save({ married: 'true', spouse: 'Zed Quartermain' });
    expect(shown.status, JSON.stringify(shown.body)).toBe(200);
    expect(valuesOf(shown.body).spouse).toBe('Zed Quartermain');
    const unticked = await save({ married: 'false' });
    expect(valuesOf(unticked.body).spouse).toBe('');
    const whileHidden = await save({ spouse: 'Yolanda Hiddenfield' });
    expect(whileHidden.status, JSON.stringify(whileHidden.body)).toBe(200);
    expect(valuesOf(whileHidden.body).spouse).toBe('');
  });

  it('requires a field by its required_when only while it holds; a hidden one not at all', async () => {
    await save({ plan: 'Pro', sig: 'typed:Ann Lee' });
    const refused = await sign('POST', '/complete', session, { consent: true });
    expect(refused.status, JSON.stringify(refused.body)).toBe(400);
    // The spouse is required, but hidden: only the reason the Pro plan asks for is missing.
    expect(Object.keys(errorsOf(refused))).toEqual(['doc.reason']);
    await save({ plan: 'Basic' });
    const done = await sign('POST', '/complete', session, { consent: true });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
  });

  it('stamps no hidden value on the final document', async () => {
    const ready = await eventually(
      async () => {
        const b = (await call('GET', `/bundles/${bundleId}/`)).body;
        return b.docs_ready || b.status === 'fa' ? b : undefined;
      },
      90_000,
      'documents ready',
    );
    expect(ready.docs_ready, JSON.stringify(ready.errors)).toBe(true);
    const files = (await call('GET', `/bundles/${bundleId}/files/`)).body as {
      kind: string;
      file_url: string;
    }[];
    const final = Buffer.from(
      await (await fetch(files.find((f) => f.kind === 'final')!.file_url)).arrayBuffer(),
    );
    const text = textOf(final);
    expect(text).toContain('Basic');
    expect(text).not.toContain('Quartermain');
    expect(text).not.toContain('Hiddenfield');
  }, 120_000);
});

describe("README's conditional fields example", () => {
  it('runs as written: the first bundle is sent, the second refused naming its cycle', async () => {
    const run = await runReadmeCommands(readmeShellBlock('conditions-example'), {
      cwd: mkdtempSync(path.join(tmpdir(), 'conditions-')),
      baseUrl: runtime.baseUrl,
      key: runtime.demo.apiKey,
    });
    expect(run.status, run.stderr).toBe(0);
    const id = /"id":\s*"([^"]+)"/.exec(run.stdout)![1]!;
    expect((await call('GET', `/bundles/${id}/`)).body.status).toBe('se');
    expect(run.stdout).toContain('has_pets → pet_names → has_pets');
  }, 60_000);
});

describe("a condition on another signer's field", () => {
  it("requires the later signer's field as the earlier signer's finished answer decides", async () => {
    const fields = [
      { key: 'pets', kind: 'chk', label: 'Pets', ...box(10), w: 3, h: 3, editors: ['ann'] },
      { key: 'ann_sig', kind: 'sig', ...box(70), h: 6, editors: ['ann'], required: true },
      {
        key: 'deposit',
        kind: 'inp',
        label: 'Pet deposit',
        ...box(30),
        editors: ['bob'],
        required: true,
        visible_when: { all: [{ field: 'pets', equals: 'true' }] },
      },
      { key: 'bob_sig', kind: 'sig', ...box(80), h: 6, editors: ['bob'], required: true },
    ];
    const sent = async (ticked: boolean) => {
      const res = await call('POST', '/bundles/', {
        json: {
          in_order: true,
          packets: [
            { key: 'ann', name: 'Ann Lee', email: 'ann@example.com', deliver_via: 'embed', order: 0 },
            { key: 'bob', name: 'Bob Roe', email: 'bob@example.com', deliver_via: 'embed', order: 1 },
          ],
          documents: [{ key: 'doc', file_b64: pdf, fields }],
        },
      });
      expect(res.status, res.text).toBe(201);
      const ann = await openSession(sign, call, res.body.packets[0].id);
      await sign('PUT', '/values', ann, {
        values: [
          { doc_key: 'doc', field_key: 'pets', value: String(ticked) },
          { doc_key: 'doc', field_key: 'ann_sig', value: 'typed:Ann Lee' },
        ],
      });
      expect((await sign('POST', '/complete', ann, { consent: true })).status).toBe(200);
      const bob = await openSession(sign, call, res.body.packets[1].id);
      await sign('PUT', '/values', bob, {
        values: [{ doc_key: 'doc', field_key: 'bob_sig', value: 'typed:Bob Roe' }],
      });
      return sign('POST', '/complete', bob, { consent: true });
    };
    const needsDeposit = await sent(true);
    expect(needsDeposit.status, JSON.stringify(needsDeposit.body)).toBe(400);
    expect(Object.keys(errorsOf(needsDeposit))).toEqual(['doc.deposit']);
    expect((await sent(false)).status).toBe(200);
  });
});
