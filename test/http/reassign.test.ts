// Letting someone else sign: a signer whose sender allows it (`allow_reassign`) hands their packet
// to another person through the signer API; the packet, its links, its values and the evidence
// follow, and packet_reassigned is delivered. All through real HTTP against the local runtime.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataPaths } from '#infra/local/layout';
import { listMailbox, type TMailboxEmail, type TMailboxSms } from '#infra/local/mailbox/index';
import type { TRuntime } from '#infra/local/runtime';
import { aPdfB64 } from '../helpers/bundles';
import { eventually, startReceiver, type TReceiver } from '../helpers/receiver';
import { apiClient, startTestRuntime } from '../helpers/runtime';
import { openSession, signerClient } from '../helpers/signer';

let runtime: TRuntime;
let call: ReturnType<typeof apiClient>;
let sign: ReturnType<typeof signerClient>;
let receiver: TReceiver;
let pdf: string;
let hookPath: string;

beforeAll(async () => {
  [runtime, receiver, pdf] = await Promise.all([startTestRuntime(), startReceiver(), aPdfB64()]);
  call = apiClient(runtime);
  sign = signerClient(runtime);
  hookPath = '/reassigned';
  const hook = await call('POST', '/webhooks/', {
    json: { url: receiver.url(hookPath), event_types: ['packet_reassigned'] },
  });
  expect(hook.status, hook.text).toBe(201);
});
afterAll(async () => {
  await receiver?.stop();
  await runtime?.stop();
});

let counter = 0;
/** Every test writes to addresses of its own, so the shared mailbox tells them apart. */
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}`;

const mailbox = () => listMailbox(dataPaths(runtime.dataDir).mailbox);
const emailTo = (address: string) =>
  eventually(
    async () =>
      (await mailbox()).find(
        (m): m is TMailboxEmail => m.kind === 'email' && m.to.some((t) => t.toLowerCase() === address),
      ),
    15_000,
    `an email to ${address}`,
  );
const textTo = (phone: string) =>
  eventually(
    async () => (await mailbox()).find((m): m is TMailboxSms => m.kind === 'sms' && m.phone === phone),
    15_000,
    `a text to ${phone}`,
  );
const tokenIn = (text: string) => {
  const token = new RegExp(`${runtime.baseUrl}/sign/([0-9A-Za-z]{43})`).exec(text)?.[1];
  expect(token, text).toBeDefined();
  return token!;
};

/** Ann (who may hand on when `allow`) and Bob sign one document; Ann fills a text field first. */
async function aBundle(opts: { allow?: boolean; annVia?: 'email' | 'embed'; extra?: object } = {}) {
  const u = unique();
  const ann = `ann-${u}@example.com`;
  const bob = `bob-${u}@example.com`;
  const res = await call('POST', '/bundles/', {
    json: {
      label: 'Lease',
      packets: [
        {
          key: 'ann',
          name: 'Ann Lee',
          email: ann,
          deliver_via: opts.annVia ?? 'embed',
          ...(opts.allow === undefined ? {} : { allow_reassign: opts.allow }),
          ...opts.extra,
        },
        { key: 'bob', name: 'Bob Roe', email: bob },
      ],
      documents: [
        {
          key: 'lease',
          file_b64: pdf,
          fields: [
            { key: 'sig', kind: 'sig', page: 1, x: 10, y: 70, w: 30, h: 5, editors: ['ann'], required: true },
            { key: 'note', kind: 'inp', label: 'Note', page: 1, x: 10, y: 10, w: 30, h: 4, editors: ['ann'] },
            {
              key: 'bsig',
              kind: 'sig',
              page: 1,
              x: 50,
              y: 70,
              w: 30,
              h: 5,
              editors: ['bob'],
              required: true,
            },
          ],
        },
      ],
    },
  });
  expect(res.status, res.text).toBe(201);
  const [annPacket, bobPacket] = res.body.packets as { id: string; allow_reassign: boolean; order: number }[];
  return { id: res.body.id as string, ann: annPacket!, bob: bobPacket!, annEmail: ann, bobEmail: bob, u };
}

const handOn = (session: string, body: unknown) => sign('POST', '/reassign', session, body);
const carol = (u: string) => ({
  name: 'Carol Diaz',
  email: `carol-${u}@example.com`,
  reason: 'Carol signs for our firm.',
});

describe('allow_reassign on packets', () => {
  it('is false unless the sender says so, shown on the packet, and changed by PATCH', async () => {
    const b = await aBundle();
    expect(b.ann.allow_reassign).toBe(false);
    expect((await aBundle({ allow: true })).ann.allow_reassign).toBe(true);
    const patched = await call('PATCH', `/packets/${b.ann.id}/`, { json: { allow_reassign: true } });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.allow_reassign).toBe(true);
    expect((await call('GET', `/packets/${b.ann.id}/`)).body.allow_reassign).toBe(true);
    // Another account cannot allow it: the packet is not theirs to see.
    const other = await runtime.seedAccount('Other', `o-${b.u}@example.com`);
    const theirs = await apiClient(runtime, other.apiKey)('PATCH', `/packets/${b.bob.id}/`, {
      json: { allow_reassign: true },
    });
    expect(theirs.status).toBe(404);
    expect((await call('GET', `/packets/${b.bob.id}/`)).body.allow_reassign).toBe(false);
    const bad = await call('PATCH', `/packets/${b.ann.id}/`, { json: { allow_reassign: 'perhaps' } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('allow_reassign');
  });

  it('is described in the OpenAPI document', async () => {
    const doc = await call('GET', '/openapi.json', { key: null });
    expect(doc.status).toBe(200);
    expect(doc.body.components.schemas.Packet.properties.allow_reassign).toEqual({ type: 'boolean' });
    expect(Object.keys(doc.body.webhooks)).toContain('packet_reassigned');
  });
});

describe('handing a packet on: refused', () => {
  it('with 403 when the sender does not allow it, and the state offers no handover', async () => {
    const b = await aBundle();
    const session = await openSession(sign, call, b.ann.id);
    expect((await sign('GET', '/state', session)).body.can_reassign).toBe(false);
    const res = await handOn(session, carol(b.u));
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('permission_denied');
    expect(res.body.message).toMatch(/does not allow/);
  });

  it('with 400 and the field for a request that names nobody reachable, or a bad phone or reason', async () => {
    const b = await aBundle({ allow: true });
    const session = await openSession(sign, call, b.ann.id);
    expect((await sign('GET', '/state', session)).body.can_reassign).toBe(true);
    const fieldsOf = async (body: unknown) => {
      const res = await handOn(session, body);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.code).toBe('invalid');
      return (res.body.errors as { field: string }[]).map((e) => e.field).sort();
    };
    expect(await fieldsOf({})).toEqual(['name', 'reason']);
    expect(await fieldsOf({ name: 'Carol', reason: 'Away' })).toEqual(['email']);
    expect(await fieldsOf({ name: 'Carol', phone: '555-1234', reason: 'Away' })).toEqual(['phone']);
    expect(await fieldsOf({ name: 'Carol', email: 'not an email', reason: 'Away' })).toEqual(['email']);
    expect(await fieldsOf({ ...carol(b.u), reason: 'x'.repeat(501) })).toEqual(['reason']);
    expect(await fieldsOf({ ...carol(b.u), reason: '   ' })).toEqual(['reason']);
    // Not the signer themselves, nor someone who already signs this bundle.
    expect(await fieldsOf({ name: 'Ann', email: b.annEmail.toUpperCase(), reason: 'Me' })).toEqual(['email']);
    expect(await fieldsOf({ name: 'Bob', email: b.bobEmail, reason: 'Bob' })).toEqual(['email']);
    // Nothing changed.
    const packet = (await call('GET', `/packets/${b.ann.id}/`)).body;
    expect(packet.name).toBe('Ann Lee');
  });

  it('with 403 before the identity checks pass, then 400 on phone when the new signer has none for the SMS code', async () => {
    const phone = `+1 555 030 ${String(counter++ % 10_000).padStart(4, '0')}`;
    const b = await aBundle({ allow: true, extra: { auth_sms: true, phone } });
    const session = await openSession(sign, call, b.ann.id);
    // A link alone must not let anyone hand the packet to themselves past the SMS code.
    expect((await sign('GET', '/state', session)).body.can_reassign).toBe(false);
    const early = await handOn(session, { ...carol(b.u), phone: '+1 555 040 0001' });
    expect(early.status).toBe(403);
    expect(early.body.message).toBe('Complete the identity checks first.');
    expect((await sign('POST', '/auth/sms/send', session)).status).toBe(200);
    const text = await textTo(phone.replace(/ /g, ''));
    const code = /(\d{6}) is your signing code/.exec(text.text)?.[1];
    expect((await sign('POST', '/auth/sms/verify', session, { code })).status).toBe(200);
    expect((await sign('GET', '/state', session)).body.can_reassign).toBe(true);
    const res = await handOn(session, carol(b.u));
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([expect.objectContaining({ field: 'phone' })]);
  });

  it('with 409 once the signer has finished, or the bundle was declined', async () => {
    const b = await aBundle({ allow: true });
    const session = await openSession(sign, call, b.ann.id);
    const saved = await sign('PUT', '/values', session, {
      values: [{ doc_key: 'lease', field_key: 'sig', value: 'typed:Ann Lee' }],
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect((await sign('POST', '/complete', session, { consent: true })).status).toBe(200);
    const finished = await handOn(session, carol(b.u));
    expect(finished.status).toBe(409);
    expect(finished.body.code).toBe('conflict');

    const d = await aBundle({ allow: true });
    const other = await openSession(sign, call, d.ann.id);
    expect((await sign('POST', '/decline', other, { reason: 'No.' })).status).toBe(200);
    const declined = await handOn(other, carol(d.u));
    expect(declined.status).toBe(409);
    expect(declined.body.message).toMatch(/declined/);
  });

  it('with 401 without a session', async () => {
    const res = await handOn('', { name: 'x', email: 'x@example.com', reason: 'y' });
    expect(res.status).toBe(401);
  });
});

describe('handing a packet on', () => {
  it('names the new signer, ends the old link, clears the values, emails the new signer and fires packet_reassigned', async () => {
    const b = await aBundle({ allow: true, annVia: 'email' });
    const oldToken = tokenIn((await emailTo(b.annEmail)).text);
    const opened = await sign('POST', '/session', undefined, { token: oldToken });
    expect(opened.status).toBe(201);
    const session = opened.body.session as string;
    const saved = await sign('PUT', '/values', session, {
      values: [{ doc_key: 'lease', field_key: 'note', value: 'Ann was here' }],
    });
    expect(saved.status).toBe(200);

    const to = carol(b.u);
    const res = await handOn(session, to);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ handed_to: { name: 'Carol Diaz' }, packet_id: b.ann.id });
    // A client's retry of the same request answers the same; anything else of that session is over.
    expect((await handOn(session, to)).body).toEqual(res.body);
    expect((await handOn(session, { ...to, reason: 'Another reason.' })).status).toBe(401);
    expect((await sign('GET', '/state', session)).status).toBe(401);
    // The old link opens nothing: neither a session nor the page.
    const again = await sign('POST', '/session', undefined, { token: oldToken });
    expect(again.status).toBe(404);
    const page = await fetch(`${runtime.baseUrl}/sign/${oldToken}`);
    expect(page.status).toBe(404);
    expect(await page.text()).toContain(
      'This signing link was handed to someone else, so it no longer opens these documents.',
    );

    // The packet, in its place, now Carol's: a Person of the account, sent the request.
    const packet = (await call('GET', `/packets/${b.ann.id}/`)).body;
    expect(packet).toMatchObject({
      name: 'Carol Diaz',
      email: to.email,
      phone: '',
      status: 'se',
      deliver_via: 'email',
    });
    expect(packet.order).toBe(b.ann.order);
    const persons = await call('GET', `/persons/?email=${encodeURIComponent(to.email)}`);
    expect(persons.body.map((p: { id: string }) => p.id)).toEqual([packet.person_id]);
    const events = (await call('GET', `/bundles/${b.id}/events/`)).body as {
      kind: string;
      description: string;
      packet_id: string;
    }[];
    const ra = events.filter((e) => e.kind === 'ra');
    expect(ra).toHaveLength(1);
    expect(ra[0]!.packet_id).toBe(b.ann.id);
    expect(ra[0]!.description).toBe(
      `Signer handed signing to someone else: Ann Lee <${b.annEmail}> to Carol Diaz <${to.email}>: Carol signs for our firm.`,
    );
    expect(events.at(-1)).toMatchObject({ kind: 'ps', packet_id: b.ann.id });

    // Carol is emailed her own link; it opens the packet with nothing of Ann's in it.
    const carolMail = await emailTo(to.email);
    expect(carolMail.text).toContain('Ann Lee asked you to sign in their place: "Carol signs for our firm."');
    const newToken = tokenIn(carolMail.text);
    const carolSession = (await sign('POST', '/session', undefined, { token: newToken })).body
      .session as string;
    const state = (await sign('GET', '/state', carolSession)).body;
    expect(state.packet).toMatchObject({ name: 'Carol Diaz', email: to.email });
    expect(state.can_sign).toBe(true);
    expect(state.fields.find((f: { key: string }) => f.key === 'note').value).toBe('');

    // The webhook says who handed it to whom, and why.
    const delivered = await eventually(
      () => receiver.callsTo(hookPath).find((c) => JSON.parse(c.body).payload.packet_id === b.ann.id),
      20_000,
      'packet_reassigned',
    );
    const body = JSON.parse(delivered.body);
    expect(body.event_type).toBe('packet_reassigned');
    expect(body.payload).toEqual({
      bundle_id: b.id,
      packet_id: b.ann.id,
      from: { name: 'Ann Lee', email: b.annEmail, phone: '' },
      to: { name: 'Carol Diaz', email: to.email, phone: '' },
      reason: 'Carol signs for our firm.',
    });
  });

  it('texts a new signer given only a phone, and the same request sent twice at once hands on once', async () => {
    const b = await aBundle({ allow: true });
    const session = await openSession(sign, call, b.ann.id);
    const phone = `+1 555 020 ${String(counter++ % 10_000).padStart(4, '0')}`;
    const body = { name: 'Dan Wu', phone, reason: 'Dan is the owner.' };
    const [one, two] = await Promise.all([handOn(session, body), handOn(session, body)]);
    expect([one.status, two.status]).toEqual([200, 200]);
    const events = (await call('GET', `/bundles/${b.id}/events/`)).body as { kind: string }[];
    expect(events.filter((e) => e.kind === 'ra')).toHaveLength(1);
    const packet = (await call('GET', `/packets/${b.ann.id}/`)).body;
    expect(packet).toMatchObject({ name: 'Dan Wu', phone, email: '', deliver_via: 'phone' });
    expect(tokenIn((await textTo(phone.replace(/ /g, ''))).text)).toMatch(/^[0-9A-Za-z]{43}$/);
  });

  it('hands on once when two different handovers race: the other is refused and changes nothing', async () => {
    const b = await aBundle({ allow: true });
    const session = await openSession(sign, call, b.ann.id);
    const dan = { name: 'Dan Wu', email: `dan-${b.u}@example.com`, reason: 'Dan is the owner.' };
    const [one, two] = await Promise.all([handOn(session, carol(b.u)), handOn(session, dan)]);
    const statuses = [one.status, two.status];
    expect(statuses).toContain(200);
    // The loser either lost the bundle write (409) or found its session already handed on (401).
    expect(statuses.filter((s) => s !== 200)).toHaveLength(1);
    expect([401, 409]).toContain(statuses.find((s) => s !== 200));
    const winner = one.status === 200 ? one : two;
    const packet = (await call('GET', `/packets/${b.ann.id}/`)).body;
    expect(packet.name).toBe(winner.body.handed_to.name);
    const events = (await call('GET', `/bundles/${b.id}/events/`)).body as { kind: string }[];
    expect(events.filter((e) => e.kind === 'ra')).toHaveLength(1);
  });
});
