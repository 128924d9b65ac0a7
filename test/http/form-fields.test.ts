// A PDF's own form fields (`form_fields: true`) through the API: on a template (whose answer lists
// its fields), on a bundle, refused with the fields no signer gets, refused within budget for a
// hostile form, and signed to the end, the final document carrying the values and no form.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { PDFDocument, PDFSignature } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '#infra/bundling';
import type { TRuntime } from '#infra/local/runtime';
import { createBundleStore } from '#shared/adapters/dynamodb/bundle-store';
import { docsReady, finalFiles } from '../helpers/completed-bundle';
import { aFormPdf } from '../helpers/form-pdfs';
import { cyclicFormKids, hugeFormFields } from '../helpers/hostile-pdfs';
import { pageTexts } from '../helpers/poppler';
import { readmeShellBlock, runReadmeCommands } from '../helpers/readme-blocks';
import { apiClient } from '../helpers/runtime';
import { sharedTestRuntime } from '../helpers/shared-runtime';
import { openSession, signerClient } from '../helpers/signer';

let runtime: TRuntime;
let call: ReturnType<typeof apiClient>;
let sign: ReturnType<typeof signerClient>;
let form: string;

beforeAll(async () => {
  runtime = await sharedTestRuntime();
  call = apiClient(runtime);
  sign = signerClient(runtime);
  form = Buffer.from(await aFormPdf()).toString('base64');
}, 60_000);
afterAll(async () => {
  await runtime?.stop();
});

const packet = (key: string, name: string) => ({
  key,
  name,
  email: `${key}@example.com`,
  deliver_via: 'embed',
});
const twoSigners = (document: Record<string, unknown>) => ({
  label: 'Employee form',
  packets: [packet('employee', 'Ann Filer'), packet('employer', 'Bob Boss')],
  documents: [{ key: 'w4', file_b64: form, form_fields: true, ...document }],
});

describe('a PDF form read as fields', () => {
  it("lists the template's fields with their boxes, flags, choices, values and roles", async () => {
    const res = await call('POST', '/templates/', {
      json: {
        name: 'Employee form',
        roles: [{ key: 'employee' }, { key: 'employer' }],
        file_b64: form,
        form_fields: true,
        form_field_editors: { notes: 'employer' },
      },
    });
    expect(res.status, res.text).toBe(201);
    const fields = res.body.fields as Record<string, unknown>[];
    const byKey = Object.fromEntries(fields.map((f) => [f.key, f]));
    expect(Object.keys(byKey).sort()).toEqual([
      'employee_agree',
      'employee_name',
      'employee_status',
      'employer_signature',
      'employer_state',
      'notes',
    ]);
    expect(byKey.employee_name).toMatchObject({
      kind: 'inp',
      label: 'employee.name',
      required: true,
      page: 1,
      x: 8.09,
      y: 10.04,
      w: 40.16,
      h: 2.65,
      default_value: 'Jane Roe',
      editor_roles: ['employee'],
    });
    expect(byKey.notes).toMatchObject({ kind: 'txt', v_max: 200, editor_roles: ['employer'] });
    expect(byKey.employee_agree).toMatchObject({ kind: 'chk', default_value: 'true' });
    expect(byKey.employee_status).toMatchObject({
      kind: 'sel',
      format: 'Single|Married',
      default_value: 'Married',
    });
    expect(byKey.employer_state).toMatchObject({
      format: 'CA|NY|TX',
      default_value: 'NY',
      editor_roles: ['employer'],
    });
    expect(byKey.employer_signature).toMatchObject({ kind: 'sig', editor_roles: ['employer'] });
  });

  it('prepares a template from the form in a preparation session, its one role filling every field', async () => {
    const res = await call('POST', '/templates/preparation_session/', {
      json: { name: 'Employee form', file_b64: form, roles: [{ key: 'filer' }], form_fields: true },
    });
    expect(res.status, res.text).toBe(201);
    const template = await call('GET', `/templates/${res.body.template_id}/`);
    const fields = template.body.fields as { kind: string; editor_roles: string[] }[];
    expect(fields.map((f) => f.kind)).toEqual(['inp', 'chk', 'sel', 'txt', 'sel', 'sig']);
    expect(fields.every((f) => f.editor_roles.join() === 'filer')).toBe(true);
  });

  it('keeps the fields a bundle gives beside them, and leaves a form alone without form_fields', async () => {
    const res = await call('POST', '/bundles/', {
      json: twoSigners({
        form_field_editors: { notes: 'employee' },
        fields: [{ kind: 'ini', key: 'notes', editors: ['employer'], page: 1, x: 70, y: 90, w: 10, h: 4 }],
      }),
    });
    expect(res.status, res.text).toBe(201);
    const store = createBundleStore(runtime.db, runtime.config.tableName);
    const [doc] = await store.documents((await store.get(runtime.demo.accountId, res.body.id))!);
    // The sender's own field keeps its key; the form's "notes" takes the next free one.
    expect(doc!.fields.map((f) => [f.key, f.kind, f.editors])).toEqual([
      ['notes', 'ini', ['employer']],
      ['employee_name', 'inp', ['employee']],
      ['employee_agree', 'chk', ['employee']],
      ['employee_status', 'sel', ['employee']],
      ['notes-2', 'txt', ['employee']],
      ['employer_state', 'sel', ['employer']],
      ['employer_signature', 'sig', ['employer']],
    ]);
    const plain = await call('POST', '/bundles/', {
      json: { ...twoSigners({}), documents: [{ key: 'w4', file_b64: form }] },
    });
    expect(plain.status, plain.text).toBe(201);
    const [untouched] = await store.documents((await store.get(runtime.demo.accountId, plain.body.id))!);
    expect(untouched!.fields).toEqual([]);
  });

  it('names the form fields no signer is given, and a name the form does not have', async () => {
    const res = await call('POST', '/bundles/', {
      json: twoSigners({ form_field_editors: { note: 'employee' } }),
    });
    expect(res.status, res.text).toBe(400);
    expect(res.body.errors.map((e: { field: string; message: string }) => [e.field, e.message])).toEqual([
      ['documents[0].form_field_editors', 'Document "w4" has no form field named "note".'],
      [
        'documents[0].form_field_editors',
        'Document "w4": no signer is given the form fields "notes". Name each in form_field_editors, or give "*" a signer for all the others.',
      ],
    ]);
  });

  it.each([
    ['lists its fields in a loop', cyclicFormKids(), /damaged: its form lists a field under itself/],
    ['lists more fields than are read', hugeFormFields(), /more than 2000 fields and widgets/],
  ])('answers 400 for a form that %s', async (_, pdf, message) => {
    const res = await call('POST', '/bundles/', {
      json: { ...twoSigners({}), documents: [{ file_b64: pdf.toString('base64'), form_fields: true }] },
    });
    expect(res.status, res.text).toBe(400);
    expect(res.body.errors[0].field).toBe('documents[0].form_fields');
    expect(res.body.errors[0].message).toMatch(message);
  });

  it('signs the form to the end: the final document shows the values and has no form left', async () => {
    const res = await call('POST', '/bundles/', {
      json: {
        label: 'Employee form',
        packets: [packet('employee', 'Ann Filer')],
        documents: [{ key: 'w4', file_b64: form, form_fields: true }],
      },
    });
    expect(res.status, res.text).toBe(201);
    const session = await openSession(sign, call, res.body.packets[0].id);
    const state = (await sign('GET', '/state', session)).body;
    expect((state.fields as { key: string }[]).map((f) => f.key)).toContain('employer_state');
    const values = {
      employee_name: 'Ann Filer',
      notes: 'Works from Denver',
      employee_status: 'Single',
      employer_state: 'TX',
      employer_signature: 'typed:Ann Filer',
    };
    const saved = await sign('PUT', '/values', session, {
      values: Object.entries(values).map(([field_key, value]) => ({ doc_key: 'w4', field_key, value })),
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect((await sign('POST', '/complete', session, { consent: true })).status).toBe(200);
    await docsReady(call, res.body.id);
    const final = (await finalFiles(call, res.body.id)).get('final:w4')!;
    const [page1] = pageTexts(final);
    for (const text of ['Employee form', 'Ann Filer', 'Works from Denver', 'Single', 'TX'])
      expect(page1).toContain(text);
    // The form's own values are gone with its fields: only what the signer gave is drawn.
    expect(page1).not.toContain('Jane Roe');
    expect(page1).not.toContain('NY');
    const file = join(mkdtempSync(join(tmpdir(), 'form-fields-')), 'final.pdf');
    writeFileSync(file, final);
    expect(execFileSync('qpdf', ['--check', file], { encoding: 'utf8' })).toMatch(
      /No syntax or stream encoding errors/,
    );
    // Only the service's seal is a field of the final document.
    const fields = (await PDFDocument.load(final)).getForm().getFields();
    expect(fields.length).toBeGreaterThan(0);
    expect(fields.every((f) => f instanceof PDFSignature)).toBe(true);
  }, 120_000);

  it("README's example works as written: each form field goes to its signer", async () => {
    // The reader runs it in the repository, where pdf-lib is installed.
    const dir = mkdtempSync(join(tmpdir(), 'form-fields-readme-'));
    symlinkSync(join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules'));
    const sent = await runReadmeCommands(readmeShellBlock('form-fields'), {
      cwd: dir,
      baseUrl: runtime.baseUrl,
      key: runtime.demo.apiKey,
      env: { KEY: runtime.demo.apiKey },
    });
    expect(sent.status, sent.stderr).toBe(0);
    const bundle = JSON.parse(sent.stdout);
    expect(bundle.status, sent.stdout).toBe('se');
    const store = createBundleStore(runtime.db, runtime.config.tableName);
    const [doc] = await store.documents((await store.get(runtime.demo.accountId, bundle.id))!);
    expect(doc!.fields.map((f) => [f.key, f.kind, f.editors])).toEqual([
      ['employee_name', 'inp', ['employee']],
      ['employee_agree', 'chk', ['employee']],
      ['ein', 'inp', ['employer']],
    ]);
  }, 60_000);

  it("lets an agent send a fillable PDF through MCP, naming each form field's signer by number", async () => {
    const client = new Client({ name: 'form-fields-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${runtime.baseUrl}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${runtime.demo.apiKey}` } },
      }),
    );
    try {
      const result = (await client.callTool({
        name: 'send_document_for_signature',
        arguments: {
          file_base64: form,
          signers: [
            { name: 'Ann Filer', email: 'ann@example.com' },
            { name: 'Bob Boss', email: 'bob@example.com' },
          ],
          form_fields: true,
          form_field_signers: { 'employee.name': 1, '*': 2 },
        },
      })) as CallToolResult;
      const text = (result.content[0] as { text: string }).text;
      expect(result.isError, text).toBeFalsy();
      const id = JSON.parse(text.slice(text.indexOf('\n') + 1)).bundle_id as string;
      const store = createBundleStore(runtime.db, runtime.config.tableName);
      const [doc] = await store.documents((await store.get(runtime.demo.accountId, id))!);
      expect(doc!.fields.map((f) => [f.key, f.editors[0]])).toEqual([
        ['employee_name', 'signer-1'],
        ['employee_agree', 'signer-2'],
        ['employee_status', 'signer-2'],
        ['notes', 'signer-2'],
        ['employer_state', 'signer-2'],
        ['employer_signature', 'signer-2'],
      ]);
    } finally {
      await client.close();
    }
  });
});
