// Signing in person (deliver_via kiosk) through real HTTP: the packet field on create and PATCH,
// POST /packets/{id}/kiosk_url/ with its host, and a kiosk session that ends for good once the
// signer finishes or declines.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataPaths } from '#infra/local/layout';
import { listMailbox } from '#infra/local/mailbox/index';
import type { TRuntime } from '#infra/local/runtime';
import { createBundleStore } from '#shared/adapters/dynamodb/bundle-store';
import { createSigningTokenStore } from '#shared/adapters/dynamodb/signing-token-store';
import { createKioskUrl } from '#shared/domain/bundles/create-kiosk-url';
import { aBundle, aPdfB64 } from '../helpers/bundles';
import { apiClient, startTestRuntime } from '../helpers/runtime';
import { signerClient } from '../helpers/signer';

let runtime: TRuntime;
let call: ReturnType<typeof apiClient>;
let sign: ReturnType<typeof signerClient>;
let b64: string;

beforeAll(async () => {
  runtime = await startTestRuntime();
  call = apiClient(runtime);
  sign = signerClient(runtime);
  b64 = await aPdfB64();
});
afterAll(() => runtime.stop());

/** A bundle whose signer Kay signs in person; `kay` overrides her packet. */
async function kioskBundle(kay: Record<string, unknown> = {}, overrides: Record<string, unknown> = {}) {
  const res = await call('POST', '/bundles/', {
    json: aBundle(
      {
        label: 'Front desk lease',
        requester_name: 'Rita Requester',
        requester_email: 'rita@example.com',
        packets: [{ key: 'kay', name: 'Kay Kiosk', email: 'kay@example.com', deliver_via: 'kiosk', ...kay }],
        documents: [
          {
            key: 'lease',
            file_b64: b64,
            fields: [{ key: 'nm', kind: 'inp', page: 1, x: 10, y: 10, w: 30, h: 5, editors: ['kay'] }],
          },
        ],
        ...overrides,
      },
      b64,
    ),
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

const tokenOf = (url: string) => new URL(url).pathname.split('/').pop()!;

async function kioskUrl(packetId: string, body?: unknown) {
  const res = await call('POST', `/packets/${packetId}/kiosk_url/`, body === undefined ? {} : { json: body });
  expect(res.status, res.text).toBe(201);
  return res.body as { url: string; expires: string };
}

describe('deliver_via kiosk on a packet', () => {
  it('makes the signer ready for signing in person, sends nothing, and shows in the packet', async () => {
    const kayEmail = 'kay.nothing-sent@example.com';
    const annEmail = 'ann.gets-hers@example.com';
    const b = await kioskBundle(
      {},
      {
        packets: [
          { key: 'kay', name: 'Kay Kiosk', email: kayEmail, deliver_via: 'kiosk' },
          { key: 'ann', name: 'Ann Lee', email: annEmail },
        ],
      },
    );
    expect(b.packets[0]).toMatchObject({ deliver_via: 'kiosk', status: 're' });
    expect(b.packets[1]).toMatchObject({ deliver_via: 'email', status: 'se' });
    const events = await call('GET', `/bundles/${b.id}/events/`);
    expect(events.body).toContainEqual(
      expect.objectContaining({ kind: 'pr', description: 'Ready for signing in person: Kay Kiosk' }),
    );
    // Ann's request is sent from the same outbox as anything for Kay would be: once it is in the
    // mailbox, Kay would have had hers too.
    const to = async (address: string) =>
      (await listMailbox(dataPaths(runtime.dataDir).mailbox)).filter(
        (m) => m.kind === 'email' && m.to.some((x) => x.includes(address)),
      );
    await expect.poll(() => to(annEmail), { timeout: 15_000 }).toHaveLength(1);
    expect(await to(kayEmail)).toEqual([]);
  });

  it('refuses an unknown delivery, and SMS pin without a phone, naming the field', async () => {
    const bad = await call('POST', '/bundles/', {
      json: aBundle({ packets: [{ key: 'kay', name: 'Kay', deliver_via: 'booth' }] }, b64),
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toContainEqual(
      expect.objectContaining({
        field: 'packets[0].deliver_via',
        message: 'Must be one of email, phone, embed, kiosk.',
      }),
    );
    const noPhone = await call('POST', '/bundles/', {
      json: aBundle({ packets: [{ key: 'kay', name: 'Kay', deliver_via: 'kiosk', auth_sms: true }] }, b64),
    });
    expect(noPhone.status).toBe(400);
    expect(noPhone.body.errors).toContainEqual(expect.objectContaining({ field: 'packets[0].phone' }));
    // Neither email nor phone is needed otherwise: the signer is in front of the sender.
    const bare = await kioskBundle({}, { packets: [{ key: 'kay', name: 'Kay', deliver_via: 'kiosk' }] });
    expect(bare.packets[0]).toMatchObject({ deliver_via: 'kiosk', email: '', phone: '' });
  });

  it('is taken for a signer role of a bundle made from an envelope template', async () => {
    const doc = await call('POST', '/templates/', {
      json: {
        file_b64: b64,
        name: 'Branch form',
        roles: [{ key: 'client', label: 'Client' }],
        fields: [{ key: 'sig', kind: 'sig', page: 1, x: 10, y: 70, w: 30, h: 5, editor_roles: ['client'] }],
      },
    });
    expect(doc.status, doc.text).toBe(201);
    const envelope = await call('POST', '/envelope-templates/', {
      json: {
        name: 'Branch visit',
        documents: [{ key: 'form', template_id: doc.body.id, name: 'Form' }],
        signers: [{ key: 'client', label: 'Client', order: 0 }],
      },
    });
    expect(envelope.status, envelope.text).toBe(201);
    const made = await call('POST', '/bundles/create_from_envelope_template/', {
      json: {
        envelope_template: { template_id: envelope.body.id },
        packets: [{ key: 'client', name: 'Cleo Client', deliver_via: 'kiosk' }],
      },
    });
    expect(made.status, made.text).toBe(201);
    expect(made.body.packets[0]).toMatchObject({ deliver_via: 'kiosk', status: 're' });
    await kioskUrl(made.body.packets[0].id, { host_name: 'Hana Host' });
  });

  it('moves a packet to kiosk and back to email by PATCH; embed stays refused', async () => {
    const b = await kioskBundle();
    const kay = b.packets[0];
    const toEmail = await call('PATCH', `/packets/${kay.id}/`, { json: { deliver_via: 'email' } });
    expect(toEmail.body).toMatchObject({ deliver_via: 'email', status: 'se' });
    const back = await call('PATCH', `/packets/${kay.id}/`, { json: { deliver_via: 'kiosk' } });
    expect(back.status, back.text).toBe(200);
    expect(back.body).toMatchObject({ deliver_via: 'kiosk' });
    expect((await call('GET', `/packets/${kay.id}/`)).body.deliver_via).toBe('kiosk');
    // Still a signer who may sign now: a kiosk link can be made for them.
    await kioskUrl(kay.id);
    const embed = await call('PATCH', `/packets/${kay.id}/`, { json: { deliver_via: 'embed' } });
    expect(embed.status).toBe(400);
    expect(embed.body.errors[0]).toMatchObject({
      field: 'deliver_via',
      message: 'One of email, phone or kiosk.',
    });
  });
});

describe('POST /packets/{id}/kiosk_url/', () => {
  it('gives a fresh, unguessable link that expires within 15 minutes', async () => {
    const b = await kioskBundle();
    const first = await kioskUrl(b.packets[0].id, { host_name: 'Hana Host', device: 'Front desk tablet' });
    expect(first.url).toMatch(new RegExp(`^${runtime.baseUrl}/sign/[0-9A-Za-z]{43}$`));
    const expires = Date.parse(first.expires);
    expect(expires).toBeGreaterThan(Date.now());
    expect(expires).toBeLessThanOrEqual(Date.now() + 15 * 60_000 + 1000);
    const second = await kioskUrl(b.packets[0].id);
    expect(second.url).not.toBe(first.url);
  });

  it('answers 400 for a bad host, naming the field', async () => {
    const b = await kioskBundle();
    const id = b.packets[0].id;
    const cases: [unknown, string][] = [
      [{ host_email: 'not-an-email' }, 'host_email'],
      [{ host_name: 'x'.repeat(256) }, 'host_name'],
      [{ host_name: '   ' }, 'host_name'],
      [{ device: 'd'.repeat(101) }, 'device'],
      [{ device: 42 }, 'device'],
      [['host'], 'non_field_errors'],
    ];
    for (const [body, field] of cases) {
      const res = await call('POST', `/packets/${id}/kiosk_url/`, { json: body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors[0].field).toBe(field);
    }
  });

  it('is 409 for a signer not set for kiosk, and for a draft', async () => {
    const b = await kioskBundle(
      {},
      { packets: [{ key: 'kay', name: 'Kay Mail', email: 'kay@example.com' }] },
    );
    const notKiosk = await call('POST', `/packets/${b.packets[0].id}/kiosk_url/`);
    expect(notKiosk.status).toBe(409);
    expect(notKiosk.body.message).toContain('kiosk');
    const draft = await kioskBundle({}, { status: 'dr' });
    expect((await call('POST', `/packets/${draft.packets[0].id}/kiosk_url/`)).status).toBe(409);
  });

  it("is 404 for another account's packet", async () => {
    const b = await kioskBundle();
    const other = await runtime.seedAccount('Other kiosk', 'other-kiosk@example.com');
    const res = await apiClient(runtime, other.apiKey)('POST', `/packets/${b.packets[0].id}/kiosk_url/`);
    expect(res.status).toBe(404);
  });

  it('does not open once expired', async () => {
    const b = await kioskBundle();
    const deps = {
      bundles: createBundleStore(runtime.db, runtime.config.tableName),
      tokens: createSigningTokenStore(runtime.db, runtime.config.tableName),
      clock: { now: () => new Date(Date.now() - 16 * 60_000) },
    };
    const { url } = await createKioskUrl(
      deps,
      { accountId: runtime.demo.accountId, keyId: 'k-test' },
      b.packets[0].id,
      {},
      runtime.baseUrl,
    );
    const res = await sign('POST', '/session', undefined, { token: tokenOf(url) });
    expect(res.status).toBe(404);
    expect((await fetch(url)).status).toBe(404);
  });
});

describe('a kiosk session', () => {
  it('opens once, records the host, and dies with the link when the signer finishes', async () => {
    const b = await kioskBundle();
    const { url } = await kioskUrl(b.packets[0].id, {
      host_name: 'Hana Host',
      host_email: 'hana@example.com',
      device: 'Front desk tablet',
    });
    const page = await fetch(url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('data-kiosk="true"');
    expect(html).toContain('data-kiosk-signer="Kay Kiosk"');
    expect(html).toContain('data-kiosk-host="Hana Host"');

    const opened = await sign('POST', '/session', undefined, { token: tokenOf(url) });
    expect(opened.status).toBe(201);
    expect(opened.body).toMatchObject({ embedded: false, in_person: true });
    const session = opened.body.session as string;
    // Single use: whoever holds the link afterwards gets nothing.
    const again = await sign('POST', '/session', undefined, { token: tokenOf(url) });
    expect(again.status).toBe(410);

    const events = (await call('GET', `/bundles/${b.id}/events/`)).body as {
      kind: string;
      description: string;
    }[];
    expect(events).toContainEqual(
      expect.objectContaining({
        kind: 'ki',
        description: 'Signing in person started: Kay Kiosk, hosted by Hana Host (hana@example.com)',
      }),
    );
    expect(events.map((e) => e.kind)).toContain('pv');

    const saved = await sign('PUT', '/values', session, {
      values: [{ doc_key: 'lease', field_key: 'nm', value: 'Kay' }],
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const done = await sign('POST', '/complete', session, { consent: true });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.packet.status).toBe('co');

    // Reload, back button, a stored session: all refused now.
    const state = await sign('GET', '/state', session);
    expect(state.status).toBe(410);
    expect(state.body.message).toContain('in-person signing session has ended');
    expect((await sign('PUT', '/values', session, { values: [] })).status).toBe(410);
    expect((await sign('POST', '/session', undefined, { token: tokenOf(url) })).status).toBe(410);
    // Every call of the session alike, handing on included: the session ended, whatever is asked.
    const calls = {
      complete: await sign('POST', '/complete', session, { consent: true }),
      decline: await sign('POST', '/decline', session, { reason: 'Changed my mind.' }),
      reassign: await sign('POST', '/reassign', session, {
        name: 'Lee Next',
        email: 'lee.next@example.com',
        reason: 'Lee signs instead.',
      }),
      language: await sign('PUT', '/language', session, { language: 'de' }),
      sms: await sign('POST', '/auth/sms/send', session),
    };
    for (const [name, res] of Object.entries(calls)) {
      expect([name, res.status, res.body.code], JSON.stringify(res.body)).toEqual([name, 410, 'not_found']);
    }
    const reload = await fetch(url, { headers: { 'accept-language': 'en' } });
    expect(reload.status).toBe(410);
    const locked = await reload.text();
    expect(locked).toContain('Please hand the device back to <bdi>Hana Host</bdi>.');
    expect(locked).not.toContain('app.bundle.js');
    // A new kiosk link is refused too: the signer has signed.
    expect((await call('POST', `/packets/${b.packets[0].id}/kiosk_url/`)).status).toBe(409);
  });

  it('dies when the signer declines, and names the requester as host when the sender names nobody', async () => {
    const b = await kioskBundle();
    const { url } = await kioskUrl(b.packets[0].id);
    const opened = await sign('POST', '/session', undefined, { token: tokenOf(url) });
    const session = opened.body.session as string;
    const declined = await sign('POST', '/decline', session, { reason: 'Not today' });
    expect(declined.status, JSON.stringify(declined.body)).toBe(200);
    expect((await sign('GET', '/state', session)).status).toBe(410);
    const reload = await fetch(url, { headers: { 'accept-language': 'en' } });
    expect(reload.status).toBe(410);
    expect(await reload.text()).toContain('Please hand the device back to <bdi>Rita Requester</bdi>.');
    const events = (await call('GET', `/bundles/${b.id}/events/`)).body as {
      kind: string;
      description: string;
    }[];
    expect(events.find((e) => e.kind === 'ki')?.description).toBe(
      'Signing in person started: Kay Kiosk, hosted by Rita Requester (rita@example.com)',
    );
  });

  it('leaves sessions of ordinary links alone after finishing', async () => {
    const b = await kioskBundle({}, { packets: [{ key: 'kay', name: 'Kay Embed', deliver_via: 'embed' }] });
    const res = await call('POST', `/packets/${b.packets[0].id}/embed_url/`);
    const opened = await sign('POST', '/session', undefined, { token: tokenOf(res.body.url) });
    const session = opened.body.session as string;
    await sign('PUT', '/values', session, { values: [{ doc_key: 'lease', field_key: 'nm', value: 'Kay' }] });
    expect((await sign('POST', '/complete', session, { consent: true })).status).toBe(200);
    const state = await sign('GET', '/state', session);
    expect(state.status).toBe(200);
    expect(state.body.reason).toBe('completed');
  });
});
