// The language the signer reads: the packet's `language`, else the bundle's, else the browser's
// Accept-Language, and over all of them the signer's own choice on the page (kept in their signing
// record, so another device opening the link speaks it too). Tags are checked on the way in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { aBundle, aPdfB64 } from '../helpers/bundles';
import { apiClient, isErrorBody } from '../helpers/runtime';
import { sharedTestRuntime } from '../helpers/shared-runtime';
import { embedToken, signerClient } from '../helpers/signer';

let runtime: TRuntime;
let call: ReturnType<typeof apiClient>;
let sign: ReturnType<typeof signerClient>;
let b64: string;

beforeAll(async () => {
  runtime = await sharedTestRuntime();
  call = apiClient(runtime);
  sign = signerClient(runtime);
  b64 = await aPdfB64();
});
afterAll(() => runtime.stop());

const embedded = (extra: Record<string, unknown> = {}) => ({
  key: 'ann',
  name: 'Ann Lee',
  email: 'ann@example.com',
  deliver_via: 'embed',
  ...extra,
});

async function create(overrides: Record<string, unknown>) {
  const res = await call('POST', '/bundles/', { json: aBundle(overrides, b64) });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** The signing page of a packet (through its embed URL), as a browser asking for `accept` gets it. */
async function signingPage(packetId: string, accept?: string) {
  const token = await embedToken(call, packetId);
  const res = await fetch(`${runtime.baseUrl}/sign/${token}`, {
    headers: accept ? { 'accept-language': accept } : {},
  });
  expect(res.status).toBe(200);
  return { token, html: await res.text(), language: res.headers.get('content-language') };
}

const htmlTag = (html: string) => /<html [^>]*>/.exec(html)?.[0] ?? '';

describe('a bundle created with languages', () => {
  it('keeps the packet’s and the bundle’s language, in canonical form, and answers them', async () => {
    const b = await create({
      language: 'ja',
      packets: [embedded({ language: 'PT-br' }), { key: 'kim', name: 'Kim Roe', email: 'kim@example.com' }],
    });
    expect(b.language).toBe('ja');
    expect(b.packets.map((p: { language: string | null }) => p.language)).toEqual(['pt-BR', null]);
    const again = await call('GET', `/bundles/${b.id}/`);
    expect(again.body.language).toBe('ja');
    expect((await call('GET', `/packets/${b.packets[0].id}/`)).body.language).toBe('pt-BR');
  });

  it('answers null where none was given', async () => {
    const b = await create({});
    expect(b.language).toBeNull();
    expect(b.packets[0].language).toBeNull();
  });

  it.each([
    ['not a tag', /IETF language tag/],
    ['en-', /IETF language tag/],
    ['sv', /not supported.*pt-BR/],
    ['zh-TW', /not supported/],
    [42, /IETF language tag/],
  ])('refuses %j with 400 in the API’s error body, naming the field', async (language, message) => {
    const res = await call('POST', '/bundles/', {
      json: aBundle({ language, packets: [embedded({ language })] }, b64),
    });
    expect(res.status).toBe(400);
    expect(isErrorBody(res.body)).toBe(true);
    const fields = res.body.errors.map((e: { field: string }) => e.field);
    expect(fields).toEqual(expect.arrayContaining(['language', 'packets[0].language']));
    expect(res.body.errors.find((e: { field: string }) => e.field === 'language').message).toMatch(message);
  });
});

describe('a packet update', () => {
  it('changes the signer’s language; a bad tag is 400', async () => {
    const b = await create({ packets: [embedded()] });
    const p = b.packets[0];
    const res = await call('PATCH', `/packets/${p.id}/`, { json: { language: 'zh-Hans' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.language).toBe('zh-Hans');
    const bad = await call('PATCH', `/packets/${p.id}/`, { json: { language: 'xx-nope-nope' } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('language');
    expect((await signingPage(p.id)).html).toContain('<html lang="zh-CN" dir="ltr"');
  });
});

describe('the signing page', () => {
  it('speaks the packet’s language, right to left for Arabic', async () => {
    const b = await create({ language: 'ja', packets: [embedded({ language: 'ar' })] });
    const { html, language } = await signingPage(b.packets[0].id, 'de');
    expect(htmlTag(html)).toMatch(/ lang="ar" dir="rtl"/);
    expect(language).toBe('ar');
    expect(html).toContain('جارٍ تحميل مستنداتك…');
    expect(html).toContain('<title>توقيع المستندات</title>');
  });

  it('else the bundle’s, else the browser’s, else English', async () => {
    const ja = await create({ language: 'ja', packets: [embedded()] });
    expect(htmlTag((await signingPage(ja.packets[0].id, 'de')).html)).toMatch(/ lang="ja" dir="ltr"/);
    const none = await create({ packets: [embedded()] });
    const de = await signingPage(none.packets[0].id, 'sv, de-AT;q=0.8, en;q=0.5');
    expect(htmlTag(de.html)).toMatch(/ lang="de"/);
    expect(de.html).toContain('Ihre Dokumente werden geladen …');
    expect(htmlTag((await signingPage(none.packets[0].id, 'sv')).html)).toMatch(/ lang="en" dir="ltr"/);
    expect(htmlTag((await signingPage(none.packets[0].id)).html)).toMatch(/ lang="en"/);
  });

  it('a link that does not work says so in the browser’s language', async () => {
    const res = await fetch(`${runtime.baseUrl}/sign/${'A'.repeat(43)}`, {
      headers: { 'accept-language': 'fr' },
    });
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(html).toContain('Ce lien ne fonctionne pas');
    expect(htmlTag(html)).toMatch(/ lang="fr"/);
  });

  it('serves every catalog with its assets', async () => {
    const b = await create({ packets: [embedded()] });
    const { html } = await signingPage(b.packets[0].id);
    const assets = /data-assets="([^"]+)"/.exec(html)![1];
    const res = await fetch(`${runtime.baseUrl}${assets}/locales/he.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(((await res.json()) as { page: { title: string } }).page.title).toBe('חתימה על מסמכים');
    expect((await fetch(`${runtime.baseUrl}${assets}/i18next.js`)).status).toBe(200);
  });

  it('carries the signing words without the console’s', async () => {
    const b = await create({ packets: [embedded()] });
    const { html } = await signingPage(b.packets[0].id);
    const assets = /data-assets="([^"]+)"/.exec(html)![1];
    const catalog = (await (await fetch(`${runtime.baseUrl}${assets}/locales/de.json`)).json()) as Record<
      string,
      unknown
    >;
    expect(Object.keys(catalog)).toContain('page');
    expect(Object.keys(catalog)).not.toContain('console');
  });
});

describe('the signer’s own choice', () => {
  it('is kept with the signer and wins over the packet’s: the link opened again speaks it', async () => {
    const b = await create({ packets: [embedded({ language: 'ja' })] });
    const packetId = b.packets[0].id;
    const opened = await sign('POST', '/session', undefined, { token: await embedToken(call, packetId) });
    expect(opened.status).toBe(201);
    const session = opened.body.session as string;

    const bad = await sign('PUT', '/language', session, { language: 'klingon' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('language');

    const chosen = await sign('PUT', '/language', session, { language: 'he-IL' });
    expect(chosen.status).toBe(200);
    expect(chosen.body.packet.id).toBe(packetId);
    // Another device: a fresh link for the same signer, a browser asking for English.
    expect(htmlTag((await signingPage(packetId, 'en')).html)).toMatch(/ lang="he" dir="rtl"/);
    expect((await sign('PUT', '/language', undefined, { language: 'fr' })).status).toBe(401);
  });
});

describe('envelope-template signer roles', () => {
  it('carry their language into the packets made from them; a request’s packet language wins', async () => {
    const doc = await call('POST', '/templates/', {
      json: {
        file_b64: b64,
        name: 'Lease',
        roles: [
          { key: 'tenant', label: 'Tenant' },
          { key: 'owner', label: 'Owner' },
        ],
        fields: [
          { key: 'sig-t', kind: 'sig', page: 1, x: 10, y: 70, w: 30, h: 5, editor_roles: ['tenant'] },
          { key: 'sig-o', kind: 'sig', page: 1, x: 50, y: 70, w: 30, h: 5, editor_roles: ['owner'] },
        ],
      },
    });
    expect(doc.status, doc.text).toBe(201);
    const envelope = await call('POST', '/envelope-templates/', {
      json: {
        name: 'Lease in Japanese',
        documents: [{ key: 'lease', template_id: doc.body.id }],
        signers: [
          { key: 'tenant', language: 'ja' },
          { key: 'owner', language: 'zh-Hans' },
        ],
      },
    });
    expect(envelope.status, envelope.text).toBe(201);
    expect(envelope.body.signers.map((s: { language: string | null }) => s.language)).toEqual([
      'ja',
      'zh-Hans',
    ]);
    const bad = await call('PATCH', `/envelope-templates/${envelope.body.id}/`, {
      json: { signers: [{ key: 'tenant', language: 'sv' }] },
    });
    expect(bad.status).toBe(400);
    expect(isErrorBody(bad.body)).toBe(true);
    expect(bad.body.errors[0]).toMatchObject({ field: 'signers[0].language' });
    expect(bad.body.errors[0].message).toMatch(/not supported/);

    const bundle = await call('POST', '/bundles/create_from_envelope_template/', {
      json: {
        envelope_template: { template_id: envelope.body.id },
        packets: [
          { key: 'tenant', name: 'Ann Lee', email: 'ann@example.com', deliver_via: 'embed' },
          { key: 'owner', name: 'Bob Roe', email: 'bob@example.com', deliver_via: 'embed', language: 'ar' },
        ],
      },
    });
    expect(bundle.status, bundle.text).toBe(201);
    // Packets answer no key: find them by their signer's name.
    const byKey = Object.fromEntries(
      bundle.body.packets.map((p: { name: string; language: string | null; id: string }) => [
        p.name === 'Ann Lee' ? 'tenant' : 'owner',
        p,
      ]),
    );
    expect(byKey.tenant.language).toBe('ja');
    expect(byKey.owner.language).toBe('ar');
    expect(htmlTag((await signingPage(byKey.tenant.id, 'en')).html)).toMatch(/ lang="ja" dir="ltr"/);
    expect(htmlTag((await signingPage(byKey.owner.id, 'en')).html)).toMatch(/ lang="ar" dir="rtl"/);
  });
});
