// The account's settings over real HTTP: API keys (shown once, working at once, revoked → 401),
// signing brands and the account's defaults; who may change what, and another account's ids.
import { beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { createAccountSettingsStore } from '#shared/adapters/dynamodb/account-settings-store';
import { createBrandStore } from '#shared/adapters/dynamodb/brand-store';
import { addUser } from '#shared/domain/accounts/add-user';
import { issueApiKey } from '#shared/domain/accounts/issue-api-key';
import { ConcurrentUpdateError } from '#shared/domain/errors';
import { aBundle, anEmbeddedBundle, aPdfB64 } from '../helpers/bundles';
import { aPng, darkLeftQuarter } from '../helpers/images';
import { apiClient, isErrorBody } from '../helpers/runtime';
import { sharedTestRuntime } from '../helpers/shared-runtime';
import { accountDeps } from '../helpers/teams';

let runtime: TRuntime;
let call: ReturnType<typeof apiClient>;
/** A user of the same account who is not an admin, with a key. */
let member: { id: string; key: string };
/** The admin of another account. */
let otherKey: string;

beforeAll(async () => {
  runtime = await sharedTestRuntime();
  call = apiClient(runtime);
  const d = accountDeps(runtime);
  const u = await addUser(d, runtime.demo.accountId, { name: 'Member', email: 'member@settings.example' });
  member = { id: u.id, key: (await issueApiKey(d, runtime.demo.accountId, u.id)).secret };
  otherKey = (await runtime.seedAccount('Other Co', 'admin@other-settings.example')).apiKey;
});

describe('API keys', () => {
  it('shows a new key once, which works at once, and answers 401 once revoked', async () => {
    const made = await call('POST', '/api-keys/', {
      json: { name: 'Nightly export' },
      headers: { 'idempotency-key': 'make-key-1' },
    });
    expect(made.status, made.text).toBe(201);
    const { key, id } = made.body as { key: string; id: string };
    expect(made.body).toMatchObject({ name: 'Nightly export', user: runtime.demo.userId, revoked: null });
    expect(key.startsWith((made.body as { prefix: string }).prefix)).toBe(true);

    // A retry under the same Idempotency-Key makes a new key: the first is never kept to replay.
    const again = await call('POST', '/api-keys/', {
      json: { name: 'Nightly export' },
      headers: { 'idempotency-key': 'make-key-1' },
    });
    expect(again.status).toBe(201);
    expect((again.body as { key: string }).key).not.toBe(key);

    const listed = await call('GET', '/api-keys/');
    expect(listed.status).toBe(200);
    expect(listed.text).not.toContain(key);
    expect((listed.body as { id: string }[]).map((k) => k.id)).toContain(id);

    expect((await call('GET', '/bundles/', { key })).status).toBe(200);
    const revoked = await call('DELETE', `/api-keys/${id}/`);
    expect(revoked.status, revoked.text).toBe(200);
    expect((revoked.body as { revoked: string | null }).revoked).toEqual(expect.any(String));
    const refused = await call('GET', '/bundles/', { key });
    expect(refused.status).toBe(401);
    expect(isErrorBody(refused.body)).toBe(true);
  });

  it("lists a member's own keys only; another user's or account's key is 404 to them", async () => {
    const mine = await call('POST', '/api-keys/', { key: member.key, json: { name: 'Mine' } });
    expect(mine.status).toBe(201);
    const listed = (await call('GET', '/api-keys/', { key: member.key })).body as { user: string }[];
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.every((k) => k.user === member.id)).toBe(true);
    const admins = (await call('GET', '/api-keys/')).body as { id: string; user: string }[];
    const adminsOwn = admins.find((k) => k.user === runtime.demo.userId)!;
    expect((await call('DELETE', `/api-keys/${adminsOwn.id}/`, { key: member.key })).status).toBe(404);
    const theirs = (mine.body as { id: string }).id;
    expect((await call('DELETE', `/api-keys/${theirs}/`, { key: otherKey })).status).toBe(404);
    // The admin may revoke any key of the account.
    expect((await call('DELETE', `/api-keys/${theirs}/`)).status).toBe(200);
  });

  it('refuses a key without a name', async () => {
    const res = await call('POST', '/api-keys/', { json: { name: ' ' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ errors: [{ field: 'name' }] });
  });
});

describe('signing brands', () => {
  it('lets admins alone change them, refuses a bad colour or logo, and hides them from other accounts', async () => {
    const brand = {
      name: 'Acme Legal',
      primary_color: '#0B5CAD',
      logo_url: 'https://cdn.acme.example/logo.png',
    };
    expect((await call('POST', '/signing-brands/', { key: member.key, json: brand })).status).toBe(403);
    const badColour = await call('POST', '/signing-brands/', { json: { ...brand, primary_color: 'blue' } });
    expect(badColour.status).toBe(400);
    expect(badColour.body).toMatchObject({ errors: [{ field: 'primary_color' }] });
    const badLogo = await call('POST', '/signing-brands/', {
      json: { ...brand, logo_url: 'javascript:alert(1)' },
    });
    expect(badLogo.status).toBe(400);
    expect(badLogo.body).toMatchObject({ errors: [{ field: 'logo_url' }] });

    const made = await call('POST', '/signing-brands/', { json: brand });
    expect(made.status, made.text).toBe(201);
    const id = (made.body as { id: string }).id;
    expect(made.body).toMatchObject({ primary_color: '#0b5cad', redirect_url: null });
    // Every user reads them: a bundle names one.
    const seen = await call('GET', '/signing-brands/', { key: member.key });
    expect((seen.body as { id: string }[]).map((b) => b.id)).toContain(id);
    expect((await call('GET', `/signing-brands/${id}/`, { key: otherKey })).status).toBe(404);
    expect(
      (await call('PATCH', `/signing-brands/${id}/`, { key: otherKey, json: { name: 'X' } })).status,
    ).toBe(404);
    expect((await call('DELETE', `/signing-brands/${id}/`, { key: otherKey })).status).toBe(404);

    const changed = await call('PATCH', `/signing-brands/${id}/`, { json: { logo_url: null, name: 'Acme' } });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ name: 'Acme', logo_url: null, primary_color: '#0b5cad' });
    expect((await call('DELETE', `/signing-brands/${id}/`, { key: member.key })).status).toBe(403);
    expect((await call('DELETE', `/signing-brands/${id}/`)).status).toBe(204);
    expect((await call('DELETE', `/signing-brands/${id}/`)).status).toBe(404);
  });
});

describe('an uploaded logo', () => {
  it('is read as an image document is, refused when it is not one, and shown on the signing page', async () => {
    const png = aPng(40, 20, darkLeftQuarter(40)).toString('base64');
    const broken = Buffer.concat([aPng(40, 20, darkLeftQuarter(40)).subarray(0, 40), Buffer.alloc(200, 7)]);
    const bad = await call('POST', '/signing-brands/', {
      json: { name: 'Broken', logo_b64: broken.toString('base64') },
    });
    expect(bad.status, bad.text).toBe(400);
    expect(bad.body).toMatchObject({ errors: [{ field: 'logo_b64' }] });
    const notImage = await call('POST', '/signing-brands/', {
      json: { name: 'Text', logo_b64: Buffer.from('hello').toString('base64') },
    });
    expect(notImage.status).toBe(400);

    const made = await call('POST', '/signing-brands/', {
      json: { name: 'Logo Co', primary_color: '#7a1fa2', logo_b64: png },
    });
    expect(made.status, made.text).toBe(201);
    const brand = made.body as { id: string; logo_url: string };
    expect(brand.logo_url).toBe(`data:image/png;base64,${png}`);

    await accountDeps(runtime).accounts.setFeatures(runtime.demo.accountId, { signing_brands: true });
    const bundle = await call('POST', '/bundles/', { json: anEmbeddedBundle(await aPdfB64()) });
    expect(bundle.status, bundle.text).toBe(201);
    const bundleId = (bundle.body as { id: string }).id;
    const branded = await call('PATCH', `/bundles/${bundleId}/`, { json: { signing_brand: brand.id } });
    expect(branded.status, branded.text).toBe(200);
    const packet = (bundle.body as { packets: { id: string }[] }).packets[0]!.id;
    const link = await call('POST', `/packets/${packet}/embed_url/`);
    const page = await fetch((link.body as { url: string }).url).then((r) => r.text());
    expect(page).toContain(`<img class="brand-logo" src="data:image/png;base64,${png}"`);
  });
});

describe("the account's defaults", () => {
  it('are read by every user and changed by admins alone, in one write', async () => {
    const read = await call('GET', '/account/', { key: member.key });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      id: runtime.demo.accountId,
      can_change: false,
      image_page_size: 'letter',
    });
    const refused = await call('PATCH', '/account/', { key: member.key, json: { language: 'fr' } });
    expect(refused.status).toBe(403);
    expect(isErrorBody(refused.body)).toBe(true);
    expect((await call('PATCH', '/account/', { json: { language: 'xx-nope' } })).status).toBe(400);
    expect(
      (
        await call('PATCH', '/account/', {
          json: { reminders: { send_reminders: true, reminder_offset: 99 } },
        })
      ).status,
    ).toBe(400);

    const changed = await call('PATCH', '/account/', {
      json: {
        language: 'fr',
        image_page_size: 'a4',
        reminders: { send_reminders: true, reminder_offset: 2, reminder_interval: 3 },
      },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({
      language: 'fr',
      image_page_size: 'a4',
      can_change: true,
      reminders: { send_reminders: true, reminder_offset: 2, reminder_interval: 3, reminder_expires: null },
    });
    const cleared = await call('PATCH', '/account/', { json: { language: null } });
    expect(cleared.body).toMatchObject({ language: null, image_page_size: 'a4' });
  });

  it('start new bundles with the reminders set, where the Reminders feature is on', async () => {
    await accountDeps(runtime).accounts.setFeatures(runtime.demo.accountId, { reminders: true });
    await call('PATCH', '/account/', { json: { reminders: { send_reminders: true, reminder_offset: 4 } } });
    const made = await call('POST', '/bundles/', { json: aBundle({}, await aPdfB64()) });
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({ send_reminders: true, reminder_offset: 4 });
  });
});

describe('two changes made from the same read', () => {
  it('let one win; the other is a conflict, never a lost update', async () => {
    const { db, config } = runtime;
    const accountId = runtime.demo.accountId;
    const made = await call('POST', '/signing-brands/', { json: { name: 'Race' } });
    const id = (made.body as { id: string }).id;
    const brands = createBrandStore(db, config.tableName);
    const read = (await brands.getBrand(accountId, id))!;
    await brands.replaceBrand({ ...read, name: 'First' });
    await expect(brands.replaceBrand({ ...read, name: 'Second' })).rejects.toBeInstanceOf(
      ConcurrentUpdateError,
    );
    expect((await call('GET', `/signing-brands/${id}/`)).body).toMatchObject({ name: 'First' });
    // The next change, made from the brand as it now is, goes through.
    expect((await call('PATCH', `/signing-brands/${id}/`, { json: { name: 'Third' } })).status).toBe(200);

    const settings = createAccountSettingsStore(db, config.tableName);
    const account = (await accountDeps(runtime).accounts.getAccount(accountId))!;
    await settings.changeDefaults(accountId, account.version, { language: 'de' });
    await expect(
      settings.changeDefaults(accountId, account.version, { language: 'it' }),
    ).rejects.toBeInstanceOf(ConcurrentUpdateError);
    expect((await call('GET', '/account/')).body).toMatchObject({ language: 'de' });
  });
});
