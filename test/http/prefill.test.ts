// Prefill over real HTTP: a bundle's `data` by field key or label (uploaded documents, document
// templates, envelope templates, bulk-send rows), values checked as a signer's are, read-only
// fields the signer cannot change, and the final stamped with the sender's value.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { createBundleStore } from '#shared/adapters/dynamodb/bundle-store';
import { aPdfB64 } from '../helpers/bundles';
import { docsReady, finalFiles } from '../helpers/completed-bundle';
import { pageTexts, textOf } from '../helpers/poppler';
import { readmeShellBlock, runReadmeCommands } from '../helpers/readme-blocks';
import { eventually } from '../helpers/receiver';
import { apiClient } from '../helpers/runtime';
import { sharedTestRuntime } from '../helpers/shared-runtime';
import { openSession, PNG_DATA_URL, signerClient } from '../helpers/signer';

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

const ANN = { key: 'ann', name: 'Ann Lee', email: 'ann.prefill@example.com', deliver_via: 'embed' };
const box = (y: number) => ({ page: 1, x: 10, y, w: 40, h: 4 });

/**
 * An order form: "company" is one field's key and another's label (the key wins), two fields are
 * labelled "Client" (a label fills both), the contract number is read-only.
 */
const order = (extra: Record<string, unknown> = {}, fields: Record<string, unknown>[] = []) => ({
  label: 'Order form',
  packets: [ANN],
  documents: [
    {
      key: 'order',
      file_b64: pdf,
      fields: [
        { key: 'company', kind: 'inp', label: 'Company', ...box(10) },
        { key: 'company-2', kind: 'txt', label: 'company', ...box(18) },
        { key: 'client-a', kind: 'inp', label: 'Client', ...box(26) },
        { key: 'client-b', kind: 'txt', label: ' client ', ...box(34) },
        { key: 'number', kind: 'inp', label: 'Contract number', read_only: true, required: true, ...box(42) },
        { key: 'email', kind: 'inp', label: 'Email', v_pattern: 'email', ...box(50) },
        { key: 'plan', kind: 'sel', label: 'Plan', format: 'Basic|Pro', ...box(58) },
        { key: 'sig', kind: 'sig', required: true, ...box(70) },
        ...fields,
      ],
    },
  ],
  ...extra,
});

/** The values the signer's page gets, by `<doc>.<field>`, with the read-only flags. */
async function seen(packetId: string) {
  const session = await openSession(sign, call, packetId);
  const state = (await sign('GET', '/state', session)).body;
  const fields = state.fields as { doc_key: string; key: string; value: string; read_only?: true }[];
  return {
    session,
    values: Object.fromEntries(fields.map((f) => [`${f.doc_key}.${f.key}`, f.value])),
    locked: fields.filter((f) => f.read_only).map((f) => `${f.doc_key}.${f.key}`),
  };
}

const errorsOf = (res: { body: { errors: { field: string; message: string }[] } }) =>
  res.body.errors.map((e) => `${e.field}: ${e.message}`);

describe('a bundle with data', () => {
  it('fills fields by key and by label, locks read-only ones, refuses a change, stamps the final', async () => {
    const created = await call('POST', '/bundles/', {
      json: order({ data: { number: 'C-4471', company: 'Acme', CLIENT: 'Bo Chan', plan: 'Pro' } }),
    });
    expect(created.status, created.text).toBe(201);
    // `data` is consumed: the answer has no such key (`?include=data` means the field data).
    expect(created.body).not.toHaveProperty('data');
    const { session, values, locked } = await seen(created.body.packets[0].id);
    // "company" is a key: it fills that field only; "CLIENT" (no key) fills by label, any case.
    expect(values).toMatchObject({
      'order.company': 'Acme',
      'order.company-2': '',
      'order.client-a': 'Bo Chan',
      'order.client-b': 'Bo Chan',
      'order.number': 'C-4471',
      'order.plan': 'Pro',
    });
    expect(locked).toEqual(['order.number']);

    const change = await sign('PUT', '/values', session, {
      values: [{ doc_key: 'order', field_key: 'number', value: 'C-0000' }],
    });
    expect(change.status, JSON.stringify(change.body)).toBe(403);
    expect(change.body.detail ?? change.body.message).toMatch(/read-only/);

    // The read-only field is required and counts as filled: the signature is all the signer gives.
    const saved = await sign('PUT', '/values', session, {
      values: [{ doc_key: 'order', field_key: 'sig', image: PNG_DATA_URL }],
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const done = await sign('POST', '/complete', session, { consent: true });
    expect(done.status, JSON.stringify(done.body)).toBe(200);

    await docsReady(call, created.body.id);
    const files = await finalFiles(call, created.body.id);
    const pages = pageTexts(files.get('final:order')!);
    expect(pages[0]).toContain('C-4471');
    expect(pages[0]).toContain('Bo Chan');
    // The audit page and Ann's certificate say whose values these are.
    const given =
      'values given by the sender: order.company, order.client-a, order.client-b, order.number, order.plan; read-only: order.number';
    expect(pages.at(-1)!.replace(/\s+/g, ' ')).toContain(given);
    expect(textOf(files.get('certificate:coe-ann')!).replace(/\s+/g, ' ')).toContain(given);
  }, 90_000);

  it.each([
    ['a name no field has', { Nope: 'x' }, 'data.Nope: No field has the key or the label "Nope".'],
    [
      'a value the field refuses',
      { Email: 'not-an-email' },
      'data.Email: The field "Email" of the document "order": Enter a valid email address.',
    ],
    [
      'a choice not among the options',
      { plan: 'Gold' },
      'data.plan: The field "Plan" of the document "order": Choose one of: Basic, Pro.',
    ],
    ['a name that is no name', { '  ': 'x' }, 'data.  : A name may not be blank.'],
    [
      'a value that is no value',
      { company: { name: 'Acme' } },
      'data.company: Give text, a number or true/false.',
    ],
    [
      'a key and a label reaching one field',
      { company: 'A', Company: 'B' },
      'data.Company: The field "Company" of the document "order" is also given by "company".',
    ],
    [
      'a signature',
      { sig: 'typed:Ann' },
      'data.sig: The field "sig" of the document "order" is a "sig" field, which its signer fills: it takes no value from data.',
    ],
    [
      'a read-only field left without a value',
      {},
      'documents[0].fields: The read-only field "number" has no value: give it an initial_value, or a value in data.',
    ],
  ])('refuses %s with a 400 naming it', async (_what, data, error) => {
    const res = await call('POST', '/bundles/', { json: order({ data }) });
    expect(res.status, res.text).toBe(400);
    expect(errorsOf(res)).toContain(error);
  });

  it('refuses a read-only signature field', async () => {
    const res = await call('POST', '/bundles/', {
      json: order({ data: { number: '1' } }, [{ key: 'ini', kind: 'ini', read_only: true, ...box(80) }]),
    });
    expect(res.status, res.text).toBe(400);
    expect(errorsOf(res)).toContain(
      'documents[0].fields[8].read_only: A "ini" field is filled by its signer and cannot be read-only.',
    );
  });
});

describe('data with templates', () => {
  it('fills a document template by label, over field_values, and an envelope template by key', async () => {
    const template = await call('POST', '/templates/', {
      json: {
        file_b64: pdf,
        name: 'Lease',
        roles: [{ key: 'tenant', label: 'Tenant' }],
        fields: [
          { key: 'rent', kind: 'inp', label: 'Monthly rent', read_only: true, ...box(10) },
          { key: 'pet', kind: 'inp', label: 'Pet', ...box(20) },
          { key: 'sig', kind: 'sig', editor_roles: ['tenant'], ...box(70) },
        ],
      },
    });
    expect(template.status, template.text).toBe(201);
    expect(template.body.fields.map((f: { read_only?: true }) => f.read_only ?? false)).toEqual([
      true,
      false,
      false,
    ]);
    const fromTemplate = await call('POST', '/bundles/', {
      json: {
        packets: [ANN],
        data: { 'monthly rent': '1200' },
        documents: [
          {
            key: 'lease',
            template_id: template.body.id,
            assignments: [{ role: 'tenant', signer: 'ann' }],
            field_values: [
              { key: 'rent', initial_value: '999' },
              { key: 'pet', initial_value: 'Cat' },
            ],
          },
        ],
      },
    });
    expect(fromTemplate.status, fromTemplate.text).toBe(201);
    const mine = await seen(fromTemplate.body.packets[0].id);
    expect(mine.values).toMatchObject({ 'lease.rent': '1200', 'lease.pet': 'Cat' });
    expect(mine.locked).toEqual(['lease.rent']);

    const envelope = await call('POST', '/envelope-templates/', {
      json: {
        name: 'Rental',
        documents: [{ key: 'lease', template_id: template.body.id, name: 'Lease', order: 0 }],
        signers: [{ key: 'tenant', label: 'Tenant', order: 0 }],
      },
    });
    expect(envelope.status, envelope.text).toBe(201);
    const fromEnvelope = await call('POST', '/bundles/create_from_envelope_template/', {
      json: {
        envelope_template: { template_id: envelope.body.id },
        packets: [{ ...ANN, key: 'tenant' }],
        data: { rent: 850, Pet: 'Dog' },
      },
    });
    expect(fromEnvelope.status, fromEnvelope.text).toBe(201);
    expect((await seen(fromEnvelope.body.packets[0].id)).values).toMatchObject({
      'lease.rent': '850',
      'lease.pet': 'Dog',
    });
  });
});

describe('bulk send rows', () => {
  it('fill fields by label, in `fields` as a CSV column would, and in `data`', async () => {
    const res = await call('POST', '/bundles/bulk/', {
      json: {
        bundle: order({ data: { number: 'C-1' } }),
        rows: [
          { signers: { ann: { name: 'Bo Chan' } }, fields: { Client: 'Bo & Co' }, data: { number: 'C-2' } },
          { signers: { ann: { name: 'Cy Diaz' } }, data: { company: 'Cy Inc', Email: 'cy@example.com' } },
        ],
      },
    });
    expect(res.status, res.text).toBe(202);
    const batch = await eventually(
      async () => {
        const got = await call('GET', `/bundles/bulk/${res.body.id}/`);
        return got.body.status === 'completed' && got.body;
      },
      30_000,
      'the batch to complete',
    );
    expect(batch.rows.map((r: { status: string }) => r.status)).toEqual(['created', 'created']);
    const packetOf = async (i: number) =>
      (await call('GET', `/bundles/${batch.rows[i].bundle_id}/`)).body.packets[0].id as string;
    expect((await seen(await packetOf(0))).values).toMatchObject({
      'order.client-a': 'Bo & Co',
      'order.client-b': 'Bo & Co',
      'order.number': 'C-2',
    });
    expect((await seen(await packetOf(1))).values).toMatchObject({
      'order.company': 'Cy Inc',
      'order.company-2': '',
      'order.email': 'cy@example.com',
      'order.number': 'C-1',
    });
  });
});

describe("README's prefill example", () => {
  it('runs as written: the fields keep the values, the contract number read-only', async () => {
    const cwd = mkdtempSync(path.join(tmpdir(), 'prefill-readme-'));
    const run = await runReadmeCommands(readmeShellBlock('prefill-example'), {
      cwd,
      baseUrl: runtime.baseUrl,
      key: runtime.demo.apiKey,
      env: { KEY: runtime.demo.apiKey },
    });
    expect(run.status, run.stderr).toBe(0);
    const bundle = JSON.parse(readFileSync(path.join(cwd, 'prefilled.json'), 'utf8'));
    expect(bundle.status, JSON.stringify(bundle)).toBe('se');
    // Ann's link is emailed: her fields as the service keeps them.
    const store = createBundleStore(runtime.db, runtime.config.tableName);
    const stored = await store.get(runtime.demo.accountId, bundle.id);
    const [order] = await store.documents(stored!);
    expect(order!.fields.map((f) => [f.key, f.initialValue, f.readOnly])).toEqual([
      ['company', 'Acme Ltd', undefined],
      ['number', 'C-4471', true],
      ['field-1', undefined, undefined],
    ]);
  });
});
