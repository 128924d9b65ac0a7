// The MCP server for AI agents, driven by the SDK's own Client over both transports: streamable
// HTTP at the runtime's /mcp, and the stdio command (`bin/esign-mcp.mjs`) as an MCP client starts
// it. Every tool calls the REST API with the caller's key, so what a tool did is checked there.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '#infra/bundling';
import type { TRuntime } from '#infra/local/runtime';
import { aPdfB64 } from '../helpers/bundles';
import { rawRequest } from '../helpers/raw-http';
import { eventually } from '../helpers/receiver';
import { apiClient, isErrorBody } from '../helpers/runtime';
import { sharedTestRuntime } from '../helpers/shared-runtime';
import { openSession, signerClient } from '../helpers/signer';

const BIN = join(REPO_ROOT, 'bin/esign-mcp.mjs');

const TOOLS = [
  'cancel_bundle',
  'get_bundle_files',
  'get_bundle_status',
  'list_bundles',
  'list_envelope_templates',
  'remind_signer',
  'send_document_for_signature',
  'send_from_envelope_template',
];

let runtime: TRuntime;
let call: ReturnType<typeof apiClient>;
let sign: ReturnType<typeof signerClient>;
let pdf: string;
/** A bundle of two embedded signers, one of whom has signed. */
// biome-ignore lint/suspicious/noExplicitAny: the bundle as the API answered it
let halfSigned: any;
/** A bundle signed by everyone, its final documents ready. */
// biome-ignore lint/suspicious/noExplicitAny: the bundle as the API answered it
let completed: any;
let envelopeTemplateId: string;
const clients: Client[] = [];

function httpClientTransport(key: string, scheme = 'Bearer') {
  return new StreamableHTTPClientTransport(new URL(`${runtime.baseUrl}/mcp`), {
    requestInit: { headers: { authorization: `${scheme} ${key}` } },
  });
}

async function connected(transport: StreamableHTTPClientTransport | StdioClientTransport) {
  const client = new Client({ name: 'mcp-test', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

const TRANSPORTS = {
  'streamable HTTP': (key: string) => connected(httpClientTransport(key)),
  stdio: (key: string) =>
    connected(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN],
        cwd: REPO_ROOT,
        env: { ...getDefaultEnvironment(), ESIGN_API_URL: runtime.apiUrl, ESIGN_API_KEY: key },
        stderr: 'pipe',
      }),
    ),
};

/** The text of a tool's answer. */
const textOf = (r: unknown) => ((r as CallToolResult).content[0] as { text: string }).text;

/** The data of a tool's answer: the JSON after its summary line. */
// biome-ignore lint/suspicious/noExplicitAny: tests read the tools' JSON
function dataOf(r: unknown): any {
  const result = r as CallToolResult;
  expect(result.isError, textOf(result)).toBeFalsy();
  const text = textOf(result);
  return JSON.parse(text.slice(text.indexOf('\n') + 1));
}

async function aBundleSignedBy(signers: number) {
  const res = await call('POST', '/bundles/', {
    json: {
      label: 'MCP embedded',
      packets: [
        { key: 'ann', name: 'Ann Embed', email: 'ann.embed@example.com', deliver_via: 'embed' },
        { key: 'bob', name: 'Bob Embed', email: 'bob.embed@example.com', deliver_via: 'embed' },
      ],
      documents: [
        {
          key: 'deal',
          file_b64: pdf,
          fields: [
            { key: 'ann_sig', kind: 'sig', page: 1, x: 10, y: 70, w: 30, h: 6, editors: ['ann'] },
            { key: 'bob_sig', kind: 'sig', page: 1, x: 50, y: 70, w: 30, h: 6, editors: ['bob'] },
          ],
        },
      ],
    },
  });
  expect(res.status, res.text).toBe(201);
  for (const [i, who] of [
    [0, 'ann'],
    [1, 'bob'],
  ].slice(0, signers) as [number, string][]) {
    const session = await openSession(sign, call, res.body.packets[i].id);
    const values = await sign('PUT', '/values', session, {
      values: [{ doc_key: 'deal', field_key: `${who}_sig`, value: `typed:${who}` }],
    });
    expect(values.status, JSON.stringify(values.body)).toBe(200);
    expect((await sign('POST', '/complete', session, { consent: true })).status).toBe(200);
  }
  return res.body;
}

beforeAll(async () => {
  runtime = await sharedTestRuntime();
  call = apiClient(runtime);
  sign = signerClient(runtime);
  pdf = await aPdfB64();
  halfSigned = await aBundleSignedBy(1);
  const full = await aBundleSignedBy(2);
  completed = await eventually(
    async () => {
      const b = (await call('GET', `/bundles/${full.id}/`)).body;
      return b.docs_ready || b.status === 'fa' ? b : undefined;
    },
    60_000,
    'documents ready',
  );
  expect(completed.status).toBe('co');
  // An envelope template of one document template with one signer role.
  const docTemplate = await call('POST', '/templates/', {
    json: {
      file_b64: pdf,
      name: 'NDA',
      roles: [{ key: 'party', label: 'Party' }],
      fields: [{ key: 'sig', kind: 'sig', page: 1, x: 10, y: 70, w: 30, h: 5, editor_roles: ['party'] }],
    },
  });
  expect(docTemplate.status, docTemplate.text).toBe(201);
  const envelope = await call('POST', '/envelope-templates/', {
    json: {
      name: 'Mutual NDA',
      documents: [{ key: 'nda', template_id: docTemplate.body.id, name: 'NDA', order: 0 }],
      signers: [{ key: 'party', label: 'Party', order: 0 }],
      label: 'NDA',
    },
  });
  expect(envelope.status, envelope.text).toBe(201);
  envelopeTemplateId = envelope.body.id;
}, 120_000);

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  await runtime?.stop();
});

describe.each(Object.keys(TRANSPORTS) as (keyof typeof TRANSPORTS)[])('over %s', (transport) => {
  let client: Client;
  // biome-ignore lint/suspicious/noExplicitAny: the bundle as a tool answered it
  let sent: any;

  beforeAll(async () => {
    client = await TRANSPORTS[transport](runtime.demo.apiKey);
  }, 30_000);

  it('lists the tools, each described for an agent with an input schema, and the events resource', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOLS);
    for (const t of tools) {
      expect(t.description!.length, t.name).toBeGreaterThan(80);
      expect(t.inputSchema.type).toBe('object');
    }
    const send = tools.find((t) => t.name === 'send_document_for_signature')!;
    expect(Object.keys(send.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining([
        'file_base64',
        'file_url',
        'signers',
        'label',
        'message',
        'fields',
        'request_id',
      ]),
    );
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((r) => r.uriTemplate)).toEqual(['esign://bundles/{id}/events']);
  });

  it('sends a PDF for signature: the bundle is there through the REST API, sent to both signers', async () => {
    const label = `Lease ${transport.replace(/\W/g, '')}`;
    const result = await client.callTool({
      name: 'send_document_for_signature',
      arguments: {
        file_base64: pdf,
        file_name: 'lease.pdf',
        label,
        message: 'Please sign the lease.',
        signers: [
          { name: 'Tess Tenant', email: 'tess@example.com' },
          { name: 'Lars Landlord', phone: '+1 555 010 4000' },
        ],
        fields: [
          { signer: 1, kind: 'sig', page: 1, x: 10, y: 70, w: 30, h: 5 },
          { signer: 2, kind: 'sig', page: 2, x: 10, y: 70, w: 30, h: 5 },
          { signer: 2, kind: 'sdt', page: 2, x: 50, y: 70, w: 20, h: 4 },
        ],
      },
    });
    sent = dataOf(result);
    expect(textOf(result)).toMatch(/^Bundle \w+ created/);
    const res = await call('GET', `/bundles/${sent.bundle_id}/`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      label,
      status: 'se',
      email_message: 'Please sign the lease.',
      documents: [{ key: 'document', name: 'lease.pdf' }],
    });
    expect(
      res.body.packets.map((p: { name: string; deliver_via: string; status: string }) => p),
    ).toMatchObject([
      { name: 'Tess Tenant', email: 'tess@example.com', deliver_via: 'email', status: 'se' },
      { name: 'Lars Landlord', deliver_via: 'phone', status: 'se' },
    ]);
    expect(sent.not_signed_yet.map((s: { name: string }) => s.name)).toEqual([
      'Tess Tenant',
      'Lars Landlord',
    ]);
  });

  it("passes calculated fields on: a formula naming no field is the API's 400, in words to act on", async () => {
    const field = { signer: 1, kind: 'inp', page: 1, x: 10, w: 20, h: 4 };
    const result = await client.callTool({
      name: 'send_document_for_signature',
      arguments: {
        file_base64: pdf,
        signers: [{ name: 'Otto Order', email: 'otto@example.com' }],
        fields: [
          { ...field, key: 'qty', number: true, y: 10 },
          { ...field, key: 'total', formula: 'qty * price', format: 'currency:USD', y: 20 },
        ],
      },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('"price", but this document has no field with that key');
  });

  it('sends once for one request_id: the same call again answers the same bundle', async () => {
    // A word of its own, so no other test's search finds this bundle, nor this one theirs.
    const word = `resend${randomUUID().slice(0, 8)}`;
    const label = `Lease ${word}`;
    const args = {
      file_base64: pdf,
      label,
      signers: [{ name: 'Rita Retry', email: 'rita@example.com' }],
      request_id: `agent-${word}`,
    };
    const first = dataOf(await client.callTool({ name: 'send_document_for_signature', arguments: args }));
    const again = dataOf(await client.callTool({ name: 'send_document_for_signature', arguments: args }));
    expect(again.bundle_id).toBe(first.bundle_id);
    const listed = await call('GET', `/bundles/?search=${word}`);
    expect(listed.body.map((b: { id: string }) => b.id)).toEqual([first.bundle_id]);
  });

  it('lists and finds bundles by words, status and tags, a page at a time', async () => {
    const found = dataOf(
      await client.callTool({ name: 'list_bundles', arguments: { search: sent.label.split(' ')[1] } }),
    );
    expect(found.bundles.map((b: { bundle_id: string }) => b.bundle_id)).toEqual([sent.bundle_id]);
    expect(found).toMatchObject({ total: 1, page: 1, total_pages: 1 });

    const tagged = await call('PUT', `/bundles/${sent.bundle_id}/add_tags/`, {
      json: { tags: [`t-${transport}`] },
    });
    expect(tagged.status).toBe(200);
    const byTag = dataOf(
      await client.callTool({ name: 'list_bundles', arguments: { tags: [`t-${transport}`] } }),
    );
    expect(byTag.bundles.map((b: { bundle_id: string }) => b.bundle_id)).toEqual([sent.bundle_id]);

    const complete = dataOf(await client.callTool({ name: 'list_bundles', arguments: { status: ['co'] } }));
    expect(complete.bundles.map((b: { bundle_id: string }) => b.bundle_id)).toEqual([completed.id]);

    const paged = dataOf(
      await client.callTool({ name: 'list_bundles', arguments: { per_page: 1, page: 2 } }),
    );
    expect(paged.bundles).toHaveLength(1);
    expect(paged.page).toBe(2);
    expect(paged.total).toBeGreaterThanOrEqual(3);
    expect(paged.total_pages).toBe(paged.total);
  });

  it("shows a bundle's status and who has not signed yet", async () => {
    const result = await client.callTool({
      name: 'get_bundle_status',
      arguments: { bundle_id: halfSigned.id },
    });
    const status = dataOf(result);
    expect(status).toMatchObject({ bundle_id: halfSigned.id, status: 'st' });
    expect(status.signers.map((s: { name: string; status: string }) => [s.name, s.status])).toEqual([
      ['Ann Embed', 'co'],
      ['Bob Embed', 're'],
    ]);
    expect(status.not_signed_yet).toEqual([
      expect.objectContaining({ name: 'Bob Embed', signer_id: halfSigned.packets[1].id }),
    ]);
    expect(textOf(result)).toContain('not signed yet: Bob Embed');
  });

  it('reminds a signer; a second reminder within the hour is the API error, as a tool error', async () => {
    const tess = sent.not_signed_yet[0].signer_id;
    const reminded = await client.callTool({ name: 'remind_signer', arguments: { signer_id: tess } });
    expect(dataOf(reminded)).toMatchObject({ signer_id: tess, name: 'Tess Tenant' });
    const events = await call('GET', `/bundles/${sent.bundle_id}/events/`);
    expect(events.body.map((e: { kind: string }) => e.kind)).toContain('rm');

    const again = (await client.callTool({
      name: 'remind_signer',
      arguments: { signer_id: tess },
    })) as CallToolResult;
    expect(again.isError).toBe(true);
    expect(textOf(again)).toMatch(/^The eSignature API answered 400 invalid: /);
  });

  it("reads a bundle's events as a resource", async () => {
    const uri = `esign://bundles/${sent.bundle_id}/events`;
    const { contents } = await client.readResource({ uri });
    expect(contents).toHaveLength(1);
    expect(contents[0]).toMatchObject({ uri, mimeType: 'application/json' });
    const events = JSON.parse((contents[0] as { text: string }).text) as { kind: string }[];
    expect(events.map((e) => e.kind)).toEqual(expect.arrayContaining(['cr', 'se', 'rm']));
    await expect(client.readResource({ uri: 'esign://bundles/AAAAAAAAAA/events' })).rejects.toThrow(
      /Bundle not found/,
    );
  });

  it('cancels a bundle; cancelling it again answers the API conflict as a tool error', async () => {
    const cancelled = dataOf(
      await client.callTool({ name: 'cancel_bundle', arguments: { bundle_id: sent.bundle_id } }),
    );
    expect(cancelled.status).toBe('ca');
    expect((await call('GET', `/bundles/${sent.bundle_id}/`)).body.status).toBe('ca');
    const again = (await client.callTool({
      name: 'cancel_bundle',
      arguments: { bundle_id: sent.bundle_id },
    })) as CallToolResult;
    expect(again.isError).toBe(true);
    expect(textOf(again)).toMatch(/^The eSignature API answered 409 conflict: /);
  });

  it("gives a completed bundle's file links as the API issues them, and refuses an open bundle's", async () => {
    const files = dataOf(
      await client.callTool({ name: 'get_bundle_files', arguments: { bundle_id: completed.id } }),
    );
    expect(files.map((f: { kind: string }) => f.kind)).toEqual(['final', 'certificate', 'certificate']);
    const final = await fetch(files[0].url);
    expect(final.status).toBe(200);
    expect(
      Buffer.from(await final.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    const open = (await client.callTool({
      name: 'get_bundle_files',
      arguments: { bundle_id: halfSigned.id },
    })) as CallToolResult;
    expect(open.isError).toBe(true);
    expect(textOf(open)).toContain('409 conflict');
  });

  it('lists envelope templates and sends a bundle from one', async () => {
    const listed = dataOf(await client.callTool({ name: 'list_envelope_templates', arguments: {} }));
    expect(listed.templates).toEqual([
      expect.objectContaining({
        template_id: envelopeTemplateId,
        name: 'Mutual NDA',
        signer_roles: [{ role: 'party', label: 'Party', order: 0 }],
      }),
    ]);
    const created = dataOf(
      await client.callTool({
        name: 'send_from_envelope_template',
        arguments: {
          template_id: envelopeTemplateId,
          signers: [{ role: 'party', name: 'Pat Party', email: 'pat@example.com' }],
        },
      }),
    );
    const res = await call('GET', `/bundles/${created.bundle_id}/`);
    expect(res.body).toMatchObject({
      label: 'NDA',
      status: 'se',
      packets: [{ name: 'Pat Party', email: 'pat@example.com' }],
    });
    // `data` reaches the create: a signature takes no value from it, and the error says where.
    const refused = (await client.callTool({
      name: 'send_from_envelope_template',
      arguments: {
        template_id: envelopeTemplateId,
        signers: [{ role: 'party', name: 'Pat Party', email: 'pat@example.com' }],
        data: { sig: 'Pat' },
      },
    })) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/400 .*data\.sig/s);
  });

  it("finds nothing of another account's: its bundle id is not found", async () => {
    const other = await runtime.seedAccount(
      `Other ${transport}`,
      `other-${transport.replace(/\W/g, '')}@example.com`,
    );
    const theirs = await apiClient(runtime, other.apiKey)('POST', '/bundles/', {
      json: { packets: [{ name: 'Olga Other', email: 'olga@example.com' }], documents: [{ file_b64: pdf }] },
    });
    expect(theirs.status, theirs.text).toBe(201);
    const result = (await client.callTool({
      name: 'get_bundle_status',
      arguments: { bundle_id: theirs.body.id },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^The eSignature API answered 404 not_found: /);
    // Word for word what an id that does not exist gets.
    const unknown = await client.callTool({
      name: 'get_bundle_status',
      arguments: { bundle_id: 'AAAAAAAAAA' },
    });
    expect(textOf(result)).toBe(textOf(unknown));
  });

  it('refuses an id of no id shape as a tool error naming the argument, before the API is asked', async () => {
    for (const [name, args] of [
      ['get_bundle_status', { bundle_id: '.' }],
      ['get_bundle_status', { bundle_id: '..' }],
      ['get_bundle_files', { bundle_id: '.' }],
      ['cancel_bundle', { bundle_id: '%2e' }],
      ['remind_signer', { signer_id: './' }],
      ['send_from_envelope_template', { template_id: '.', signers: [] }],
    ] as const) {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      const [argument] = Object.keys(args);
      expect([name, result.isError], textOf(result)).toEqual([name, true]);
      expect(textOf(result)).toContain(argument);
      expect(textOf(result)).not.toMatch(/TypeError|undefined|is not/);
    }
  });

  it('refuses a list filtered only by statuses that do not exist, rather than listing everything', async () => {
    for (const status of [['zz'], ['zz', 'yy'], []]) {
      const result = (await client.callTool({
        name: 'list_bundles',
        arguments: { status },
      })) as CallToolResult;
      expect([status, result.isError], textOf(result)).toEqual([status, true]);
      expect(textOf(result)).toContain('status');
    }
    // A known status among unknown ones is refused too: the agent learns what it got wrong.
    const mixed = (await client.callTool({
      name: 'list_bundles',
      arguments: { status: ['co', 'zz'] },
    })) as CallToolResult;
    expect(mixed.isError).toBe(true);
    const done = dataOf(await client.callTool({ name: 'list_bundles', arguments: { status: ['co'] } }));
    expect(done.bundles.length).toBeGreaterThan(0);
    expect(new Set(done.bundles.map((b: { status: string }) => b.status))).toEqual(new Set(['co']));
  });
});

describe('send_document_for_signature', () => {
  it('takes the PDF by URL, which the API fetches; neither or both of file_base64 and file_url is a tool error', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/pdf' });
      res.end(Buffer.from(pdf, 'base64'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const client = await connected(httpClientTransport(runtime.demo.apiKey));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/offer.pdf`;
      const signers = [{ name: 'Uma Url', email: 'uma@example.com' }];
      const sent = dataOf(
        await client.callTool({ name: 'send_document_for_signature', arguments: { file_url: url, signers } }),
      );
      const res = await call('GET', `/bundles/${sent.bundle_id}/`);
      expect(res.body).toMatchObject({ status: 'se', packets: [{ name: 'Uma Url' }] });
      for (const args of [{ signers }, { signers, file_url: url, file_base64: pdf }]) {
        const refused = (await client.callTool({
          name: 'send_document_for_signature',
          arguments: args,
        })) as CallToolResult;
        expect(refused.isError).toBe(true);
        expect(textOf(refused)).toBe('Give the PDF as exactly one of file_base64 or file_url.');
      }
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('send_document_for_signature with conditional fields', () => {
  it('passes keys and conditions on to the API (which refuses a cycle), and tells the cycle back by name', async () => {
    const client = await connected(httpClientTransport(runtime.demo.apiKey));
    const signers = [{ name: 'Cora Cond', email: 'cora@example.com' }];
    const pets = { key: 'has_pets', signer: 1, kind: 'chk', page: 1, x: 10, y: 50, w: 3, h: 3 };
    const names = { key: 'pet_names', signer: 1, kind: 'inp', page: 1, x: 20, y: 50, w: 30, h: 4 };
    const ticked = { all: [{ field: 'has_pets', equals: 'true' }] };
    const sent = dataOf(
      await client.callTool({
        name: 'send_document_for_signature',
        arguments: { file_base64: pdf, signers, fields: [pets, { ...names, visible_when: ticked }] },
      }),
    );
    expect((await call('GET', `/bundles/${sent.bundle_id}/`)).body.status).toBe('se');
    const refused = (await client.callTool({
      name: 'send_document_for_signature',
      arguments: {
        file_base64: pdf,
        signers,
        fields: [
          { ...pets, visible_when: { all: [{ field: 'pet_names', not_empty: true }] } },
          { ...names, visible_when: ticked },
        ],
      },
    })) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('has_pets → pet_names → has_pets');
  });
});

describe('/mcp over HTTP', () => {
  const post = (headers: Record<string, string>) =>
    fetch(`${runtime.baseUrl}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });

  it('answers 401 in the API error body without a key, or with a key the API refuses', async () => {
    const none = await post({});
    expect(none.status).toBe(401);
    const noneBody = (await none.json()) as { code: string };
    expect(isErrorBody(noneBody)).toBe(true);
    expect(noneBody.code).toBe('not_authenticated');
    for (const authorization of ['Bearer not-a-key', 'Token not-a-key', 'Basic abc']) {
      const res = await post({ authorization });
      expect(res.status, authorization).toBe(401);
      const body = (await res.json()) as { code: string };
      expect(isErrorBody(body)).toBe(true);
      expect(body.code).toBe('authentication_failed');
    }
  });

  it('takes the key as the API does (Token) as well as Bearer, statelessly, with JSON answers', async () => {
    const client = await connected(httpClientTransport(runtime.demo.apiKey, 'Token'));
    expect((await client.listTools()).tools).toHaveLength(TOOLS.length);
    const res = await post({ authorization: `Bearer ${runtime.demo.apiKey}` });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('mcp-session-id')).toBeNull();
    expect(((await res.json()) as { result: { tools: unknown[] } }).result.tools).toHaveLength(TOOLS.length);
  });

  it("calls the API at the service's own base URL, whatever Host the request names", async () => {
    const res = await rawRequest(runtime.baseUrl, {
      method: 'POST',
      path: '/mcp',
      headers: {
        host: 'attacker.example:4444',
        'x-forwarded-host': 'attacker.example:4444',
        authorization: `Bearer ${runtime.demo.apiKey}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'get_bundle_status', arguments: { bundle_id: completed.id } },
      }),
    });
    expect(res.status, res.text).toBe(200);
    expect(dataOf(JSON.parse(res.text).result)).toMatchObject({ bundle_id: completed.id, status: 'co' });
  });

  it('opens no event stream and ends no session: GET and DELETE are 405', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${runtime.baseUrl}/mcp`, {
        method,
        headers: { authorization: `Bearer ${runtime.demo.apiKey}`, accept: 'text/event-stream' },
      });
      expect(res.status, method).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect(isErrorBody(await res.json())).toBe(true);
    }
  });
});

describe('esign-mcp over stdio', () => {
  it('says what is missing and exits 2 without ESIGN_API_URL and ESIGN_API_KEY', () => {
    const run = spawnSync(process.execPath, [BIN], {
      cwd: REPO_ROOT,
      env: getDefaultEnvironment(),
      input: '',
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('Missing ESIGN_API_URL and ESIGN_API_KEY.');
    expect(run.stdout).toBe('');
  });
});
