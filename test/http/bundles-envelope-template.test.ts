import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { createAccountStore } from '#shared/adapters/dynamodb/account-store';
import { bundleKeys } from '#shared/adapters/dynamodb/entities/bundle';
import { aPdfB64 } from '../helpers/bundles';
import { dbRecorder, onItem } from '../helpers/db-recorder';
import { apiClient, isErrorBody, startTestRuntime } from '../helpers/runtime';

// Bundles from envelope templates, over real HTTP: document templates made with POST /templates/,
// an envelope template naming them, then both create routes.

let runtime: TRuntime;
let recorder: ReturnType<typeof dbRecorder>;
let call: ReturnType<typeof apiClient>;
let envelope: string;
let disabled: string;
let lease: string;
let rules: string;

beforeAll(async () => {
  runtime = await startTestRuntime();
  call = apiClient(runtime);
  recorder = dbRecorder(runtime);
  const b64 = await aPdfB64();
  const template = async (body: Record<string, unknown>) => {
    const res = await call('POST', '/templates/', { json: { file_b64: b64, ...body } });
    expect(res.status, res.text).toBe(201);
    return res.body.id as string;
  };
  lease = await template({
    name: 'Lease',
    roles: [
      { key: 'tenant', label: 'Tenant' },
      { key: 'landlord', label: 'Landlord' },
    ],
    fields: [
      {
        key: 'rent',
        kind: 'inp',
        page: 1,
        x: 10,
        y: 20,
        w: 20,
        h: 4,
        v_pattern: 'numbers',
        editor_roles: ['-landlord'],
      },
      { key: 'sig-t', kind: 'sig', page: 2, x: 10, y: 70, w: 30, h: 5, editor_roles: ['tenant'] },
      { key: 'sig-l', kind: 'sig', page: 2, x: 50, y: 70, w: 30, h: 5, editor_roles: ['landlord'] },
    ],
  });
  rules = await template({
    name: 'House rules',
    roles: [{ key: 'tenant', label: 'Tenant' }],
    fields: [
      { key: 'pet', kind: 'inp', page: 1, x: 10, y: 10, w: 20, h: 4, editor_roles: ['tenant'] },
      { key: 'sig-r', kind: 'sig', page: 1, x: 10, y: 70, w: 30, h: 5, editor_roles: ['tenant'] },
    ],
  });
  const body = (name: string, enabled = true) => ({
    name,
    enabled,
    documents: [
      { key: 'lease', template_id: lease, name: 'Lease', order: 1 },
      { key: 'rules', template_id: rules, name: 'Rules', order: 0 },
    ],
    signers: [
      { key: 'landlord', label: 'Landlord', order: 2, auth_selfie: true },
      { key: 'tenant', label: 'Tenant', order: 1 },
    ],
    label: 'Rental',
    email_subject: 'Your lease',
    email_message: 'Please sign your lease.',
    in_order: true,
  });
  const created = await call('POST', '/envelope-templates/', { json: body('Rental') });
  expect(created.status, created.text).toBe(201);
  envelope = created.body.id;
  disabled = (await call('POST', '/envelope-templates/', { json: body('Off', false) })).body.id;
});
afterAll(() => runtime.stop());

const request = (overrides: Record<string, unknown> = {}) => ({
  envelope_template: {
    template_id: envelope,
    field_values: [
      { key: 'rent', initial_value: '1200' },
      { key: 'pet', initial_value: 'cat' },
    ],
  },
  packets: [
    // Anything beyond name, email, phone, key and deliver_via is not the request's to say.
    { key: 'tenant', name: 'Ann Lee', email: 'ann@example.com', auth_sms: true, order: 9 },
    { key: 'landlord', name: 'Bob Roe', phone: '+15550103000', deliver_via: 'phone' },
  ],
  ...overrides,
});

const fieldsOf = (res: { body: { errors: { field: string }[] } }) => res.body.errors.map((e) => e.field);

async function storedDocument(bundleId: string, key: string) {
  const out = await runtime.db.send(
    new GetCommand({
      TableName: runtime.config.tableName,
      Key: { pk: `ACCOUNT#${runtime.demo.accountId}`, sk: `BUNDLE#${bundleId}#DOC#${key}` },
    }),
  );
  return out.Item as { fields: { key: string; initialValue?: string; editors: string[] }[] };
}

describe('POST /bundles/create_from_envelope_template/', () => {
  it('takes allow_reassign per packet (this service’s own), false unless given', async () => {
    const base = request();
    const res = await call('POST', '/bundles/create_from_envelope_template/', {
      json: { ...base, packets: [{ ...base.packets[0], allow_reassign: true }, base.packets[1]] },
    });
    expect(res.status, res.text).toBe(201);
    const byKey = (k: string) => res.body.packets.find((p: { name: string }) => p.name === k);
    expect(byKey('Ann Lee').allow_reassign).toBe(true);
    expect(byKey('Bob Roe').allow_reassign).toBe(false);
  });

  it('answers 201 with the bundle the template describes', async () => {
    const res = await call('POST', '/bundles/create_from_envelope_template/', { json: request() });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      label: 'Rental',
      email_subject: 'Your lease',
      email_message: 'Please sign your lease.',
      in_order: true,
      status: 'se',
      documents: [
        { key: 'rules', template_id: rules },
        { key: 'lease', template_id: lease },
      ],
    });
    const byEmail = Object.fromEntries(res.body.packets.map((p: { name: string }) => [p.name, p]));
    expect(byEmail['Ann Lee']).toMatchObject({
      order: 1,
      auth_sms: false,
      auth_selfie: false,
      deliver_via: 'email',
    });
    expect(byEmail['Bob Roe']).toMatchObject({ order: 2, auth_selfie: true, deliver_via: 'phone' });

    // field_values filled the fields of that key, in whichever document has them.
    const leaseDoc = await storedDocument(res.body.id, 'lease');
    expect(leaseDoc.fields.find((f) => f.key === 'rent')).toMatchObject({
      initialValue: '1200',
      editors: ['-landlord'],
    });
    const rulesDoc = await storedDocument(res.body.id, 'rules');
    expect(rulesDoc.fields.find((f) => f.key === 'pet')).toMatchObject({
      initialValue: 'cat',
      editors: ['tenant'],
    });
  });

  it('applies the bundle-level fields of the request over the template defaults', async () => {
    const res = await call('POST', '/bundles/create_from_envelope_template/', {
      json: request({
        label: 'Flat 3',
        in_order: false,
        status: 'dr',
        custom_key: 'flat-3',
        cc_emails: ['cc@example.com'],
      }),
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      label: 'Flat 3',
      in_order: false,
      status: 'dr',
      custom_key: 'flat-3',
      email_subject: 'Your lease',
    });
    // The same bundle rules as any other: custom_key is unique.
    const again = await call('POST', '/bundles/create_from_envelope_template/', {
      json: request({ custom_key: 'flat-3' }),
    });
    expect(again.status).toBe(400);
    expect(fieldsOf(again)).toEqual(['custom_key']);
  });

  it('is the same through POST /bundles/ with an envelope_template key', async () => {
    const res = await call('POST', '/bundles/', { json: request() });
    expect(res.status, res.text).toBe(201);
    expect(res.body.documents.map((d: { key: string }) => d.key)).toEqual(['rules', 'lease']);
  });

  it("sets the template's reminders on the bundle when the account has the Reminders feature", async () => {
    const withReminders = { send_reminders: true, reminder_offset: 2, reminder_interval: 3 };
    const patched = await call('PATCH', `/envelope-templates/${envelope}/`, { json: withReminders });
    expect(patched.status, patched.text).toBe(200);
    try {
      const without = await call('POST', '/bundles/create_from_envelope_template/', { json: request() });
      expect(without.body.send_reminders).toBe(false);
      await createAccountStore(runtime.db, runtime.config.tableName).setFeatures(runtime.demo.accountId, {
        reminders: true,
      });
      let res = { status: 0, text: '', body: { id: '' } } as Awaited<ReturnType<typeof call>>;
      const commands = await recorder.during(async () => {
        res = await call('POST', '/bundles/create_from_envelope_template/', { json: request() });
      });
      expect(res.status, res.text).toBe(201);
      expect(res.body).toMatchObject(withReminders);
      // The reminders went into the bundle before its one write: put once, never written and
      // published a second time (its outbox is the relay's to publish and clear).
      const bundleItem = bundleKeys.item(runtime.demo.accountId, res.body.id);
      expect(
        onItem(commands, bundleItem)
          .filter((c) => c.command !== 'GetItem' && c.fn === 'bundles')
          .map((c) => c.command),
      ).toEqual(['PutItem']);
      expect((await call('GET', `/bundles/${res.body.id}/`)).body).toMatchObject(withReminders);
    } finally {
      await call('PATCH', `/envelope-templates/${envelope}/`, { json: { send_reminders: false } });
    }
  });

  it('answers 404 for a disabled template and 400 naming an unknown one', async () => {
    const off = await call('POST', '/bundles/create_from_envelope_template/', {
      json: request({ envelope_template: { template_id: disabled } }),
    });
    expect(off.status).toBe(404);
    expect(isErrorBody(off.body)).toBe(true);
    const offToo = await call('POST', '/bundles/', {
      json: request({ envelope_template: { template_id: disabled } }),
    });
    expect(offToo.status).toBe(404);
    const unknown = await call('POST', '/bundles/create_from_envelope_template/', {
      json: request({ envelope_template: { template_id: 'T-00000000' } }),
    });
    expect(unknown.status).toBe(400);
    expect(fieldsOf(unknown)).toEqual(['envelope_template.template_id']);
    // Another account's template is unknown here.
    const other = await runtime.seedAccount('Other', 'other@example.com');
    const foreign = await apiClient(runtime, other.apiKey)(
      'POST',
      '/bundles/create_from_envelope_template/',
      {
        json: request(),
      },
    );
    expect(foreign.status).toBe(400);
    expect(fieldsOf(foreign)).toEqual(['envelope_template.template_id']);
  });

  it('says which packet fills no role, which role is left empty and which value has no field', async () => {
    const res = await call('POST', '/bundles/create_from_envelope_template/', {
      json: request({
        envelope_template: { template_id: envelope, field_values: [{ key: 'nope', initial_value: 'x' }] },
        packets: [
          { key: 'tenant', name: 'Ann Lee', email: 'ann@example.com' },
          { key: 'judge', name: 'Jo Judge', email: 'jo@example.com' },
        ],
      }),
    });
    expect(res.status).toBe(400);
    expect(fieldsOf(res).sort()).toEqual([
      'envelope_template.field_values[0].key',
      'packets',
      'packets[1].key',
    ]);

    const noKey = await call('POST', '/bundles/create_from_envelope_template/', {
      json: request({ packets: [{ name: 'Ann Lee', email: 'ann@example.com' }] }),
    });
    expect(noKey.status).toBe(400);
    expect(fieldsOf(noKey)).toEqual(['packets[0].key']);

    const badValue = await call('POST', '/bundles/create_from_envelope_template/', {
      json: request({
        envelope_template: { template_id: envelope, field_values: [{ key: 'rent', initial_value: 'lots' }] },
      }),
    });
    expect(badValue.status).toBe(400);
    expect(fieldsOf(badValue)[0]).toMatch(/^documents\[1\]\.field_values\[0\]/);
  });
});

describe('packet roles in envelope templates', () => {
  /** A document template whose clerk signs; its boss and reader have no field. */
  let memo: Promise<string> | undefined;
  const memoTemplate = () => {
    memo ??= aPdfB64().then(async (file_b64) => {
      const res = await call('POST', '/templates/', {
        json: {
          name: 'Memo',
          file_b64,
          roles: [{ key: 'clerk' }, { key: 'boss' }, { key: 'reader' }],
          fields: [
            { key: 'sig-c', kind: 'sig', page: 1, x: 10, y: 70, w: 30, h: 5, editor_roles: ['clerk'] },
          ],
        },
      });
      expect(res.status, res.text).toBe(201);
      return res.body.id as string;
    });
    return memo;
  };

  it('keeps approver and viewer roles and the steps; a packet’s own role wins; fields only for signers', async () => {
    // Lease has fields for the landlord: a landlord who only reads is refused when saved.
    const refused = await call('POST', '/envelope-templates/', {
      json: {
        name: 'Read-only landlord',
        documents: [{ key: 'lease', template_id: lease }],
        signers: [{ key: 'tenant' }, { key: 'landlord', role: 'viewer' }],
      },
    });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body.errors).toEqual([
      expect.objectContaining({
        field: 'signers[1].role',
        message: expect.stringContaining('"landlord" is a viewer, but fields of "lease" are for "landlord"'),
      }),
    ]);

    const saved = await call('POST', '/envelope-templates/', {
      json: {
        name: 'Memo chain',
        in_order: true,
        documents: [{ key: 'memo', template_id: await memoTemplate() }],
        signers: [
          { key: 'clerk', order: 1 },
          { key: 'boss', order: 2, role: 'approver' },
          { key: 'reader', order: 3, role: 'viewer' },
        ],
      },
    });
    expect(saved.status, saved.text).toBe(201);
    const read = await call('GET', `/envelope-templates/${saved.body.id}/`);
    expect(read.body.signers.map((s: { role: string }) => s.role)).toEqual(['signer', 'approver', 'viewer']);

    const packets = [
      { key: 'clerk', name: 'Cy Clerk', email: 'cy@example.com' },
      { key: 'boss', name: 'Bo Boss', email: 'bo@example.com' },
      { key: 'reader', name: 'Rae Reader', email: 'rae@example.com', role: 'signer' },
    ];
    const made = await call('POST', '/bundles/create_from_envelope_template/', {
      json: { envelope_template: { template_id: saved.body.id }, packets },
    });
    expect(made.status, made.text).toBe(201);
    expect(made.body.in_order).toBe(true);
    expect(made.body.packets.map((p: { role?: string; order: number }) => [p.role, p.order])).toEqual([
      [undefined, 1],
      ['approver', 2],
      ['signer', 3],
    ]);

    // The clerk has a field: made an approver by the request, the bundle is refused as any would be.
    const clash = await call('POST', '/bundles/create_from_envelope_template/', {
      json: {
        envelope_template: { template_id: saved.body.id },
        packets: [{ ...packets[0], role: 'approver' }, packets[1], packets[2]],
      },
    });
    expect(clash.status, clash.text).toBe(400);
    expect(clash.body.errors[0].message).toContain('"clerk" is an approver');
  });

  it('refuses a document template’s field for an approver in a bundle made from it', async () => {
    const direct = await call('POST', '/bundles/', {
      json: {
        packets: [{ key: 'cy', name: 'Cy Clerk', email: 'cy@example.com', role: 'approver' }],
        documents: [
          {
            key: 'memo',
            template_id: await memoTemplate(),
            assignments: ['clerk', 'boss', 'reader'].map((role) => ({ role, signer: 'cy' })),
          },
        ],
      },
    });
    expect(direct.status, direct.text).toBe(400);
    expect(direct.body.errors[0].message).toContain('"cy" is an approver');
  });
});
