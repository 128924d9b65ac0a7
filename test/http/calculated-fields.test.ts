// Calculated fields through the API: formulas checked at create (bundles and templates), the
// signer never filling one, and the final document stamped with the service's own result,
// formatted as the field says (read back with pdftotext).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '#infra/bundling';
import type { TRuntime } from '#infra/local/runtime';
import { docsReady, finalFiles } from '../helpers/completed-bundle';
import { aPdf } from '../helpers/pdfs';
import { textOf } from '../helpers/poppler';
import { readmeShellBlock, runReadmeCommands } from '../helpers/readme-blocks';
import { apiClient, startTestRuntime } from '../helpers/runtime';
import { openSession, signerClient } from '../helpers/signer';
import { signerInbox } from '../helpers/signing-pages';

let runtime: TRuntime;
let call: ReturnType<typeof apiClient>;
let sign: ReturnType<typeof signerClient>;
let b64: string;

beforeAll(async () => {
  // Its own runtime: the README's example is followed to the signing email in the mailbox.
  runtime = await startTestRuntime();
  call = apiClient(runtime);
  sign = signerClient(runtime);
  b64 = Buffer.from(await aPdf({ pages: [{ size: 'Letter' }] })).toString('base64');
});
afterAll(() => runtime.stop());

const box = (y: number) => ({ page: 1, x: 10, y, w: 40, h: 5 });
const number = (key: string, y: number, editors: string[]) => ({
  key,
  kind: 'inp',
  v_pattern: 'numbers',
  editors,
  ...box(y),
});
/** An order: Ann gives the quantity and price, Bob the shipping; the total is theirs to sign. */
const ORDER_FIELDS = [
  number('qty', 10, ['ann']),
  number('price', 20, ['ann']),
  number('ship-fee', 30, ['bob']),
  {
    key: 'total',
    kind: 'inp',
    formula: 'round(qty × price + {ship-fee}, 2)',
    format: 'currency:USD',
    ...box(40),
  },
  { key: 'sig-a', kind: 'sig', editors: ['ann'], ...box(60) },
  { key: 'sig-b', kind: 'sig', editors: ['bob'], ...box(70) },
];

describe('a formula at create', () => {
  it('is refused with a 400 naming each wrong formula: syntax, missing or non-number field, circle', async () => {
    const res = await call('POST', '/bundles/', {
      json: {
        label: 'Bad sums',
        packets: [{ key: 'ann', name: 'Ann Lee', email: 'ann@example.com', deliver_via: 'embed' }],
        documents: [
          {
            key: 'order',
            file_b64: b64,
            fields: [
              { key: 'note', kind: 'inp', ...box(5) },
              { key: 'syntax', kind: 'inp', formula: '1 + * 2', ...box(15) },
              { key: 'missing', kind: 'inp', formula: 'nowhere + 1', ...box(25) },
              { key: 'text', kind: 'inp', formula: 'note * 2', ...box(35) },
              { key: 'aa', kind: 'inp', formula: 'bb + 1', ...box(45) },
              { key: 'bb', kind: 'inp', formula: 'aa + 1', format: 'euros', ...box(55) },
              { key: 'tick', kind: 'chk', formula: '1', ...box(65) },
            ],
          },
        ],
      },
    });
    expect(res.status, res.text).toBe(400);
    const errors = res.body.errors as { field: string; message: string }[];
    const on = (field: string) => errors.filter((e) => e.field === field).map((e) => e.message);
    expect(on('documents[0].fields[1].formula')).toEqual(['Unexpected "*" (at character 5).']);
    expect(on('documents[0].fields[2].formula')[0]).toContain('"nowhere", but this document has no field');
    expect(on('documents[0].fields[3].formula')[0]).toContain('"note", which is not a number field');
    expect(on('documents[0].fields[4].formula')).toEqual([
      'These formulas depend on each other in a circle: aa → bb → aa.',
    ]);
    expect(on('documents[0].fields[5].format')[0]).toContain('"currency:XXX"');
    expect(on('documents[0].fields[6].kind')).toEqual(['Only input fields ("inp") take a formula.']);
  });

  it('is kept in a document template, and shown only on the field that has one', async () => {
    const bad = await call('POST', '/templates/', {
      json: {
        name: 'Order',
        file_b64: b64,
        roles: [{ key: 'buyer', label: 'Buyer' }],
        fields: [{ key: 'total', kind: 'inp', formula: 'qty * 2', ...box(10) }],
      },
    });
    expect(bad.status, bad.text).toBe(400);
    expect(bad.body.errors[0].field).toBe('fields[0].formula');
    const made = await call('POST', '/templates/', {
      json: {
        name: 'Order',
        file_b64: b64,
        roles: [{ key: 'buyer', label: 'Buyer' }],
        fields: [
          { ...number('qty', 10, []), editors: undefined, editor_roles: ['buyer'] },
          { key: 'total', kind: 'inp', formula: 'qty * 2', format: 'decimals:2', ...box(20) },
        ],
      },
    });
    expect(made.status, made.text).toBe(201);
    const got = await call('GET', `/templates/${made.body.id}/`);
    expect(got.body.fields.map((f: { formula?: string }) => f.formula)).toEqual([undefined, 'qty * 2']);
    expect('formula' in got.body.fields[0]).toBe(false);
    // A bundle made from the template keeps the formula for its signer's page.
    const bundle = await call('POST', '/bundles/', {
      json: {
        packets: [{ key: 'ann', name: 'Ann Lee', email: 'ann@example.com', deliver_via: 'embed' }],
        documents: [
          { key: 'order', template_id: made.body.id, assignments: [{ role: 'buyer', signer: 'ann' }] },
        ],
      },
    });
    expect(bundle.status, bundle.text).toBe(201);
    const ann = await openSession(sign, call, bundle.body.packets[0].id);
    await sign('PUT', '/values', ann, { values: [{ doc_key: 'order', field_key: 'qty', value: '21' }] });
    const total = (await sign('GET', '/state', ann)).body.fields.find(
      (f: { key: string }) => f.key === 'total',
    );
    expect(total).toMatchObject({ formula: 'qty * 2', value: '42', editable: false });
  });
});

describe("README's calculated fields example", () => {
  it('sends a bundle whose total the signer sees computed, as written', async () => {
    const ran = await runReadmeCommands(readmeShellBlock('calculated-fields'), {
      cwd: REPO_ROOT,
      baseUrl: runtime.baseUrl,
      key: runtime.demo.apiKey,
    });
    expect(ran.status, ran.stderr).toBe(0);
    const bundle = JSON.parse(ran.stdout);
    expect(bundle.status).toBe('se');
    const link = await signerInbox(runtime).emailedLink('ann.order@example.com');
    const opened = await sign('POST', '/session', undefined, { token: link.split('/').pop() });
    const ann = opened.body.session as string;
    await sign('PUT', '/values', ann, {
      values: [
        { doc_key: 'order', field_key: 'qty', value: '3' },
        { doc_key: 'order', field_key: 'price', value: '9.99' },
      ],
    });
    const state = await sign('GET', '/state', ann);
    expect(state.body.fields.find((f: { key: string }) => f.key === 'total').value).toBe('35.96');
  });
});

describe('a calculated field while signing', () => {
  let bundleId: string;
  let packets: { id: string; key: string }[];

  beforeAll(async () => {
    const created = await call('POST', '/bundles/', {
      json: {
        label: 'Order',
        packets: [
          { key: 'ann', name: 'Ann Lee', email: 'ann@example.com', deliver_via: 'embed' },
          { key: 'bob', name: 'Bob Roe', email: 'bob@example.com', deliver_via: 'embed' },
        ],
        documents: [{ key: 'order', file_b64: b64, fields: ORDER_FIELDS }],
      },
    });
    expect(created.status, created.text).toBe(201);
    bundleId = created.body.id;
    packets = created.body.packets;
  });

  it('takes no value from the signer, and is computed by the service when they finish', async () => {
    const ann = await openSession(sign, call, packets[0]!.id);
    const value = (field_key: string, v: string) => ({ doc_key: 'order', field_key, value: v });
    const forged = await sign('PUT', '/values', ann, { values: [value('qty', '3'), value('total', '1')] });
    expect(forged.status).toBe(400);
    expect(forged.body.errors).toEqual([
      expect.objectContaining({ field: 'order.total', message: expect.stringContaining('calculated') }),
    ]);
    const saved = await sign('PUT', '/values', ann, { values: [value('qty', '3'), value('price', '400.5')] });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const state = await sign('GET', '/state', ann);
    const total = state.body.fields.find((f: { key: string }) => f.key === 'total');
    expect(total).toMatchObject({
      value: '1201.5',
      editable: false,
      formula: 'round(qty × price + {ship-fee}, 2)',
    });
    expect('formula' in state.body.fields.find((f: { key: string }) => f.key === 'qty')).toBe(false);
    await sign('PUT', '/values', ann, { values: [{ doc_key: 'order', field_key: 'sig-a', image: PNG }] });
    expect((await sign('POST', '/complete', ann, { consent: true })).status).toBe(200);

    const bob = await openSession(sign, call, packets[1]!.id);
    await sign('PUT', '/values', bob, {
      values: [value('ship-fee', '33'), { doc_key: 'order', field_key: 'sig-b', image: PNG }],
    });
    expect((await sign('POST', '/complete', bob, { consent: true })).status).toBe(200);
  });

  // Sealing waits for the document worker: as long as docsReady allows on a busy machine.
  it('stamps the service result, formatted, on the final document', async () => {
    await docsReady(call, bundleId);
    const final = (await finalFiles(call, bundleId)).get('final:order')!;
    expect(textOf(final)).toContain('$1,234.50');
    const data = await call('GET', `/bundles/${bundleId}/data/`);
    expect(data.status, data.text).toBe(200);
    expect(data.body.find((d: { field_key: string }) => d.field_key === 'total').value).toBe('1234.5');
  }, 90_000);
});

describe('a calculated field over a field its conditions hide', () => {
  it('counts the hidden field as 0, whatever value it holds, and counts it again once shown', async () => {
    const created = await call('POST', '/bundles/', {
      json: {
        label: 'Rush order',
        packets: [{ key: 'ann', name: 'Ann Lee', email: 'ann@example.com', deliver_via: 'embed' }],
        documents: [
          {
            key: 'order',
            file_b64: b64,
            fields: [
              number('base', 10, ['ann']),
              { key: 'rush', kind: 'chk', editors: ['ann'], ...box(20) },
              // The sender's fee, shown (and so counted) only when Ann asks for a rush.
              {
                ...number('rush-fee', 30, ['ann']),
                initial_value: '50',
                visible_when: { all: [{ field: 'rush', not_empty: true }] },
              },
              { key: 'total', kind: 'inp', formula: 'base + {rush-fee}', ...box(40) },
            ],
          },
        ],
      },
    });
    expect(created.status, created.text).toBe(201);
    const ann = await openSession(sign, call, created.body.packets[0].id);
    const value = (field_key: string, v: string) => ({ doc_key: 'order', field_key, value: v });
    const totalNow = async () =>
      (await sign('GET', '/state', ann)).body.fields.find((f: { key: string }) => f.key === 'total').value;
    expect((await sign('PUT', '/values', ann, { values: [value('base', '100')] })).status).toBe(200);
    expect(await totalNow()).toBe('100');
    expect((await sign('PUT', '/values', ann, { values: [value('rush', 'true')] })).status).toBe(200);
    expect(await totalNow()).toBe('150');
  });
});

const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
