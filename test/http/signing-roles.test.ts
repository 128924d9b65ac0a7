// Packet roles and signing steps, through real HTTP: approvers approve or reject, viewers are done
// once they open their link, nobody but a signer fills a field, and the signers of one step who
// finish at once start the next step once (one `ps` each, one email each). The certificates say
// each person's role and step, as pdftotext reads them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataPaths } from '#infra/local/layout';
import { listMailbox, type TMailboxEmail } from '#infra/local/mailbox/index';
import type { TRuntime } from '#infra/local/runtime';
import { aPdfB64 } from '../helpers/bundles';
import { docsReady, finalFiles } from '../helpers/completed-bundle';
import { textOf } from '../helpers/poppler';
import { eventually } from '../helpers/receiver';
import { apiClient, startTestRuntime } from '../helpers/runtime';
import { openSession, PNG_DATA_URL, signerClient } from '../helpers/signer';

let runtime: TRuntime;
let call: ReturnType<typeof apiClient>;
let sign: ReturnType<typeof signerClient>;
let pdf: string;

beforeAll(async () => {
  // Its own runtime: the test reads the local mailbox.
  runtime = await startTestRuntime({ schedulerIntervalMs: 3_600_000 });
  call = apiClient(runtime);
  sign = signerClient(runtime);
  pdf = await aPdfB64();
});
afterAll(() => runtime?.stop());

const box = { page: 1, x: 10, w: 30, h: 4 };
const u = Date.now().toString(36);
const mail = (who: string) => `${who}-${u}@example.com`;

const emailsTo = async (address: string) =>
  (await listMailbox(dataPaths(runtime.dataDir).mailbox)).filter(
    (m): m is TMailboxEmail => m.kind === 'email' && m.to.includes(address),
  );
/** The session of a packet delivered by email, opened with the link of its signing request. */
async function sessionFromEmail(address: string): Promise<{ session: string; text: string }> {
  const email = await eventually(async () => (await emailsTo(address))[0], 30_000, `an email to ${address}`);
  const token = new RegExp(`${runtime.baseUrl}/sign/([0-9A-Za-z]{43})`).exec(email.text)?.[1];
  const opened = await sign('POST', '/session', undefined, { token });
  expect(opened.status, JSON.stringify(opened.body)).toBe(201);
  return { session: opened.body.session, text: email.text.replace(/\s+/g, ' ') };
}
const create = (json: unknown) => call('POST', '/bundles/', { json });
const eventsOf = async (id: string): Promise<{ kind: string; description: string; packet_id: string }[]> =>
  (await call('GET', `/bundles/${id}/events/`)).body;

describe('roles at create', () => {
  it('refuses a field for an approver or a viewer, naming it, and answers role only when sent', async () => {
    const refused = await create({
      packets: [
        { key: 'ann', name: 'Ann', email: mail('r-ann') },
        { key: 'boss', name: 'Boss', email: mail('r-boss'), role: 'approver' },
        { key: 'eve', name: 'Eve', email: mail('r-eve'), role: 'viewer' },
      ],
      documents: [
        {
          file_b64: pdf,
          fields: [
            { key: 'f-a', kind: 'sig', ...box, y: 10, editors: ['ann'] },
            { key: 'f-b', kind: 'apr', ...box, y: 20, editors: ['boss'] },
            { key: 'f-c', kind: 'inp', ...box, y: 30, editors: ['ann', 'eve'] },
          ],
        },
      ],
    });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body.errors).toEqual([
      expect.objectContaining({
        field: 'documents[0].fields[1].editors[0]',
        message: expect.stringContaining('"boss" is an approver'),
      }),
      expect.objectContaining({
        field: 'documents[0].fields[2].editors[1]',
        message: expect.stringContaining('"eve" is a viewer'),
      }),
    ]);
    expect(await call('GET', '/bundles/?per_page=1').then((r) => r.body.length)).toBe(0);

    const badRole = await create({
      packets: [{ name: 'Ann', email: mail('r-x'), role: 'witness' }],
      documents: [],
    });
    expect(badRole.status).toBe(400);
    expect(badRole.body.errors.map((e: { field: string }) => e.field)).toContain('packets[0].role');

    const ok = await create({
      packets: [
        { key: 'ann', name: 'Ann', email: mail('r-ann') },
        { key: 'boss', name: 'Boss', email: mail('r-boss'), role: 'approver' },
      ],
      documents: [{ file_b64: pdf, fields: [{ key: 'f-a', kind: 'sig', ...box, y: 10 }] }],
    });
    expect(ok.status, ok.text).toBe(201);
    // A packet whose request named no role answers exactly as before: no `role` key.
    expect(Object.keys(ok.body.packets[0])).not.toContain('role');
    expect(ok.body.packets[1].role).toBe('approver');
  });
});

describe('approvers', () => {
  async function anApproval() {
    const res = await create({
      label: 'Budget',
      packets: [
        { key: 'boss', name: 'Boss Lee', email: mail('a-boss'), deliver_via: 'embed', role: 'approver' },
        { key: 'ann', name: 'Ann Roe', email: mail('a-ann'), deliver_via: 'embed' },
      ],
      documents: [
        { key: 'doc', file_b64: pdf, fields: [{ key: 'sig', kind: 'sig', ...box, y: 10, required: true }] },
      ],
    });
    expect(res.status, res.text).toBe(201);
    return res.body as { id: string; packets: { id: string }[] };
  }

  it('approve and reject sent at once: one wins, the other is refused, and the bundle says which', async () => {
    const b = await anApproval();
    const boss = await openSession(sign, call, b.packets[0]!.id);
    const state = await sign('GET', '/state', boss);
    expect(state.body.role).toBe('approver');
    // Nothing is the approver's to fill, not even a field without editors.
    expect(state.body.fields.map((f: { editable: boolean }) => f.editable)).toEqual([false]);
    const [approve, reject] = await Promise.all([
      sign('POST', '/approve', boss, {}),
      sign('POST', '/reject', boss, { reason: 'Over budget' }),
    ]);
    expect([approve.status, reject.status].sort()).toEqual([200, 409]);
    // Read again, the state says what the approver did and when, not only why they cannot sign.
    const again = (await sign('GET', '/state', boss)).body;
    expect(again.approval).toEqual(
      approve.status === 200
        ? { answer: 'approved', at: expect.stringMatching(/^\d{4}-/), reason: null }
        : { answer: 'rejected', at: expect.stringMatching(/^\d{4}-/), reason: 'Over budget' },
    );
    const got = (await call('GET', `/bundles/${b.id}/`)).body;
    const kinds = (await eventsOf(b.id)).map((e) => e.kind);
    if (approve.status === 200) {
      expect(kinds.filter((k: string) => k === 'ap')).toHaveLength(1);
      expect(kinds).not.toContain('rj');
      expect(got.status).not.toBe('ca');
    } else {
      expect(kinds.filter((k: string) => k === 'rj')).toHaveLength(1);
      expect(kinds).not.toContain('ap');
      expect(got.status).toBe('ca');
    }
  });

  it('a rejection needs a reason, ends the bundle as a decline does, and says who rejected and why', async () => {
    const b = await anApproval();
    const boss = await openSession(sign, call, b.packets[0]!.id);
    const ann = await openSession(sign, call, b.packets[1]!.id);
    // Each role does its own: a signer does not approve, an approver does not sign.
    expect((await sign('POST', '/approve', ann, {})).status).toBe(409);
    const finish = await sign('POST', '/complete', boss, { consent: true });
    expect(finish.status).toBe(409);
    expect(finish.body.message).toMatch(/approver/);
    expect((await sign('POST', '/reject', boss, { reason: '  ' })).status).toBe(400);

    const rejected = await sign('POST', '/reject', boss, { reason: 'Over budget' });
    expect(rejected.status, JSON.stringify(rejected.body)).toBe(200);
    expect(rejected.body.reason).toBe('declined');
    expect((await sign('GET', '/state', boss)).body.approval).toEqual({
      answer: 'rejected',
      at: expect.stringMatching(/^\d{4}-/),
      reason: 'Over budget',
    });
    const got = (await call('GET', `/bundles/${b.id}/`)).body;
    expect(got.status).toBe('ca');
    expect(got.packets.map((p: { status: string }) => p.status)).toEqual(['ca', 'ca']);
    const events = await eventsOf(b.id);
    const rj = events.find((e) => e.kind === 'rj');
    expect(rj).toMatchObject({
      packet_id: b.packets[0]!.id,
      description: 'Approver rejected the documents: Boss Lee: Over budget',
    });
    expect(events.at(-1)!.kind).toBe('ca');
    expect((await sign('POST', '/complete', ann, { consent: true })).status).toBe(409);
    // The sender is told as of a decline, in the rejection's words.
    const told = await eventually(
      async () =>
        (await listMailbox(dataPaths(runtime.dataDir).mailbox)).find(
          (m): m is TMailboxEmail => m.kind === 'email' && m.subject === 'Boss Lee rejected: Budget',
        ),
      30_000,
      "the sender's email",
    );
    expect(told.text).toContain('Over budget');
  });
});

describe('signing steps', () => {
  // One bundle in three steps, followed from the race of step 1 to its evidence.
  let b: { id: string; packets: { id: string }[] };

  it("one step's signers finish at once: the next step starts once", async () => {
    const res = await create({
      label: 'Purchase',
      in_order: true,
      packets: [
        { key: 'ann', name: 'Ann Lee', email: mail('s-ann'), deliver_via: 'embed', order: 1 },
        { key: 'bob', name: 'Bob Roe', email: mail('s-bob'), deliver_via: 'embed', order: 1 },
        { key: 'cat', name: 'Cat Poe', email: mail('s-cat'), order: 2 },
        { key: 'dan', name: 'Dan Fox', email: mail('s-dan'), order: 2, role: 'approver' },
        { key: 'eve', name: 'Eve Kim', email: mail('s-eve'), order: 3, role: 'viewer' },
      ],
      documents: [
        {
          key: 'doc',
          file_b64: pdf,
          fields: ['ann', 'bob', 'cat'].map((k, i) => ({
            key: `s-${k}`,
            kind: 'sig',
            ...box,
            y: 10 + 10 * i,
            editors: [k],
            required: true,
          })),
        },
      ],
    });
    expect(res.status, res.text).toBe(201);
    b = res.body as typeof b;
    const [ann, bob] = await Promise.all([0, 1].map((i) => openSession(sign, call, b.packets[i]!.id)));
    for (const [s, k] of [
      [ann!, 'ann'],
      [bob!, 'bob'],
    ] as const) {
      const v = { doc_key: 'doc', field_key: `s-${k}`, image: PNG_DATA_URL };
      expect((await sign('PUT', '/values', s, { values: [v] })).status).toBe(200);
    }
    const done = await Promise.all([ann!, bob!].map((s) => sign('POST', '/complete', s, { consent: true })));
    expect(done.map((d) => d.status)).toEqual([200, 200]);

    const sent = (await eventsOf(b.id))
      .filter((e) => e.kind === 'ps')
      .map((e) => e.packet_id)
      .sort();
    // Exactly one request each for the second step, none yet for the third.
    expect(sent).toEqual([b.packets[2]!.id, b.packets[3]!.id].sort());
  });

  it('tells the next step who they sign alongside; the approver approves, the viewer reads', async () => {
    const cat = await sessionFromEmail(mail('s-cat'));
    expect(cat.text).toContain('You are step 2 of 3 in the signing order, alongside Dan Fox.');
    const dan = await sessionFromEmail(mail('s-dan'));
    expect(dan.text).toContain('to review and approve');
    expect(dan.text).toContain('alongside Cat Poe');
    const v = { doc_key: 'doc', field_key: 's-cat', image: PNG_DATA_URL };
    expect((await sign('PUT', '/values', cat.session, { values: [v] })).status).toBe(200);
    expect((await sign('POST', '/complete', cat.session, { consent: true })).status).toBe(200);
    expect((await sign('POST', '/approve', dan.session, {})).status).toBe(200);

    // The viewer is done once they open their link; they still read the documents after.
    const eve = await sessionFromEmail(mail('s-eve'));
    expect(eve.text).toContain('with you to read');
    const seen = await sign('GET', '/state', eve.session);
    expect(seen.body).toMatchObject({ role: 'viewer', reason: 'completed' });
    expect(seen.body.documents).toHaveLength(1);
  });

  it('puts roles and steps in the evidence, each next signer having had one request', async () => {
    const ready = await docsReady(call, b.id);
    expect(ready.status).toBe('co');
    expect((await eventsOf(b.id)).map((e) => e.kind)).toEqual(expect.arrayContaining(['ap', 'rd']));
    const files = await finalFiles(call, b.id);
    const coe = (key: string) => textOf(files.get(`certificate:coe-${key}`)!);
    expect(coe('dan')).toContain('Role Approver');
    expect(coe('dan')).toContain('Signing order Step 2 of 3, alongside Cat Poe');
    expect(coe('dan')).toContain('Approver approved the documents');
    expect(coe('eve')).toContain('Role Viewer');
    expect(coe('eve')).toContain('Step 3 of 3');
    expect(coe('ann')).toContain('Step 1 of 3, alongside Bob Roe');
    expect(coe('ann')).not.toContain('Role ');
    expect(textOf(files.get('final:doc')!)).toContain('Dan Fox (Approver)');

    // The documents-ready email comes after any signing request: by then each next signer has
    // exactly the one request.
    for (const who of ['s-cat', 's-dan']) {
      await eventually(
        async () => (await emailsTo(mail(who))).find((m) => m.subject.startsWith('Documents ready')),
        30_000,
        'the documents-ready email',
      );
      expect((await emailsTo(mail(who))).filter((m) => m.subject.startsWith('Please sign'))).toHaveLength(1);
    }
  }, 120_000);
});
