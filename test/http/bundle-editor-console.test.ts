// The draft editor's link asked for by a person signed in to the console (the console's Send
// screen does so), over real HTTP: the session cookie with its CSRF token makes the link, and
// what the page then sends is recorded as that user's doing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataPaths } from '#infra/local/layout';
import { listMailbox } from '#infra/local/mailbox/store';
import type { TRuntime } from '#infra/local/runtime';
import type { TSeededAccount } from '#infra/local/seed-account';
import { createBundleStore } from '#shared/adapters/dynamodb/bundle-store';
import { aBundle, aPdfB64 } from '../helpers/bundles';
import { eventually } from '../helpers/receiver';
import { apiClient, startTestRuntime } from '../helpers/runtime';

const EMAIL = 'eve@editor-console.example';

let runtime: TRuntime;
let me: TSeededAccount;
let call: ReturnType<typeof apiClient>;

beforeAll(async () => {
  runtime = await startTestRuntime();
  me = await runtime.seedAccount('Editor Console Co', EMAIL);
  call = apiClient(runtime);
});
afterAll(() => runtime.stop());

/** Signs in by the link mailed to EMAIL: the cookie to send back and the session's CSRF token. */
async function signIn() {
  const asked = await call('POST', `${runtime.baseUrl}/console/api/sign-in`, {
    key: null,
    json: { email: EMAIL },
  });
  expect(asked.status).toBe(202);
  const token = await eventually(
    async () => {
      const mail = (await listMailbox(dataPaths(runtime.dataDir).mailbox)).find(
        (m) => m.kind === 'email' && m.to.includes(EMAIL),
      );
      return mail?.kind === 'email'
        ? new RegExp(`${runtime.baseUrl}/console/sign-in/([0-9A-Za-z]{43})`).exec(mail.text)?.[1]
        : undefined;
    },
    10_000,
    'the sign-in email',
  );
  const opened = await call('POST', `${runtime.baseUrl}/console/api/sessions`, {
    key: null,
    json: { token },
  });
  expect(opened.status, opened.text).toBe(201);
  const cookie = /^(esign_session=[0-9A-Za-z]{43});/.exec(opened.headers.get('set-cookie') ?? '')![1]!;
  return { cookie, csrf: opened.body.csrf_token as string };
}

describe('prepare_url from the console', () => {
  it('needs the CSRF token; the page sends the draft as the signed-in user', async () => {
    const s = await signIn();
    const pdf = await aPdfB64();
    const asUser = (path: string, csrf?: string) =>
      call('POST', path, {
        key: null,
        json: path === '/bundles/' ? aBundle({ status: 'dr' }, pdf) : {},
        headers: { cookie: s.cookie, ...(csrf ? { 'x-csrf-token': csrf } : {}) },
      });
    const draft = await asUser('/bundles/', s.csrf);
    expect(draft.status, draft.text).toBe(201);
    const forged = await asUser(`/bundles/${draft.body.id}/prepare_url/`);
    expect([forged.status, forged.body.code]).toEqual([403, 'csrf_failed']);
    const link = await asUser(`/bundles/${draft.body.id}/prepare_url/`, s.csrf);
    expect(link.status, link.text).toBe(201);

    const token = new URL(link.body.url).pathname.split('/').pop()!;
    const sent = await fetch(`${runtime.baseUrl}/prepare/api/bundle/send`, {
      method: 'POST',
      headers: { 'x-preparation-token': token },
    });
    expect(sent.status).toBe(200);
    const store = createBundleStore(runtime.db, runtime.config.tableName);
    const stored = (await store.get(me.accountId, draft.body.id))!;
    const sentEvent = (await store.events(stored)).find((e) => e.kind === 'se')!;
    expect(sentEvent.actor).toEqual({ type: 'user', userId: me.userId });
  });
});
