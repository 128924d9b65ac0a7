import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import type { TSeededAccount } from '#infra/local/seed-account';
import { createAccountStore } from '#shared/adapters/dynamodb/account-store';
import { addUser } from '#shared/domain/accounts/add-user';
import { setUserTeams } from '#shared/domain/accounts/user-teams';
import { aPdfB64 } from '../helpers/bundles';
import { anEnvelopeTemplate } from '../helpers/envelope-templates';
import { apiClient, isErrorBody } from '../helpers/runtime';
import { sharedTestRuntime } from '../helpers/shared-runtime';
import { accountDeps, seedTeamAccount, type TTeamAccount } from '../helpers/teams';

// Who may use a template, over real HTTP: with teams on, a template that is not shared belongs to
// its owner, the account's admins and the owner's teams (or the team a document template names);
// envelope templates answer 403 to anyone else, and to an account without the feature.

let runtime: TRuntime;
let call: ReturnType<typeof apiClient>;
let account: TSeededAccount;
let keys: TTeamAccount['keys'];
let ids: TTeamAccount['ids'];
let docTemplate: string;

const deps = () => accountDeps(runtime);
const setFeatures = (features: { teams?: boolean; envelope_templates?: boolean }) =>
  createAccountStore(runtime.db, runtime.config.tableName).setFeatures(account.accountId, features);

beforeAll(async () => {
  runtime = await sharedTestRuntime();
  call = apiClient(runtime);
  ({ account, keys, ids } = await seedTeamAccount(runtime, 'Access', 'access.example'));
  const doc = await call('POST', '/templates/', {
    key: keys.owner,
    json: {
      name: 'Offer letter',
      is_shared: true,
      file_b64: await aPdfB64(),
      roles: [{ key: 'signer', label: 'Signer' }],
      fields: [{ key: 'sig', kind: 'sig', page: 1, x: 10, y: 70, w: 30, h: 5, editor_roles: ['signer'] }],
    },
  });
  expect(doc.status, doc.text).toBe(201);
  docTemplate = doc.body.id;
});
afterAll(() => runtime.stop());

const envelopeBy = async (key: string, overrides: Record<string, unknown> = {}) => {
  const res = await call('POST', '/envelope-templates/', {
    key,
    json: anEnvelopeTemplate([docTemplate], overrides),
  });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; smart_link_url: string };
};
const listedFor = async (key: string) =>
  ((await call('GET', '/envelope-templates/?per_page=100', { key })).body as { id: string }[]).map(
    (t) => t.id,
  );
const createFrom = (key: string, templateId: string) =>
  call('POST', '/bundles/create_from_envelope_template/', {
    key,
    json: {
      envelope_template: { template_id: templateId },
      packets: [{ key: 'signer', name: 'Sam Signer', email: 'sam@example.com' }],
    },
  });

describe('envelope templates: who may use one', () => {
  it('teams off: the whole account uses every template', async () => {
    const t = await envelopeBy(keys.owner);
    expect((await call('GET', `/envelope-templates/${t.id}/`, { key: keys.outsider })).status).toBe(200);
    expect(await listedFor(keys.outsider)).toContain(t.id);
  });

  it("teams on: one not shared is the owner's, its teams' and the admins'; anyone else gets 403", async () => {
    await setFeatures({ teams: true });
    try {
      const own = await envelopeBy(keys.owner, { name: 'Sales only' });
      const shared = await envelopeBy(keys.owner, { name: 'Everyone', is_shared: true });

      for (const who of ['owner', 'teammate', 'admin'] as const) {
        const got = await call('GET', `/envelope-templates/${own.id}/`, { key: keys[who] });
        expect(got.status, who).toBe(200);
        expect(await listedFor(keys[who]), who).toEqual(expect.arrayContaining([own.id, shared.id]));
      }

      const refused = await call('GET', `/envelope-templates/${own.id}/`, { key: keys.outsider });
      expect(refused.status).toBe(403);
      expect(isErrorBody(refused.body)).toBe(true);
      expect(refused.body.code).toBe('permission_denied');
      const seen = await listedFor(keys.outsider);
      expect(seen).toContain(shared.id);
      expect(seen).not.toContain(own.id);
      expect((await call('GET', `/envelope-templates/${shared.id}/`, { key: keys.outsider })).status).toBe(
        200,
      );
      for (const [method, json] of [
        ['PATCH', { name: 'Mine now' }],
        ['DELETE', undefined],
      ] as const) {
        const res = await call(method, `/envelope-templates/${own.id}/`, { key: keys.outsider, json });
        expect(res.status, method).toBe(403);
      }
      const bundle = await createFrom(keys.outsider, own.id);
      expect(bundle.status).toBe(403);
      expect(bundle.body.code).toBe('permission_denied');
      const viaBundles = await call('POST', '/bundles/', {
        key: keys.outsider,
        json: {
          envelope_template: { template_id: own.id },
          packets: [{ key: 'signer', name: 'Sam Signer', email: 'sam@example.com' }],
        },
      });
      expect(viaBundles.status).toBe(403);
      // Nothing was changed by the refused calls.
      expect((await call('GET', `/envelope-templates/${own.id}/`, { key: keys.owner })).body.name).toBe(
        'Sales only',
      );

      expect((await createFrom(keys.teammate, own.id)).status).toBe(201);
      expect((await createFrom(keys.outsider, shared.id)).status).toBe(201);

      // The operator puts the outsider in Sales: the template is theirs to use too.
      await setUserTeams(deps(), account.accountId, ids.outsider, { teams: [ids.sales] });
      expect((await call('GET', `/envelope-templates/${own.id}/`, { key: keys.outsider })).status).toBe(200);
      expect(await listedFor(keys.outsider)).toContain(own.id);
      await setUserTeams(deps(), account.accountId, ids.outsider, { teams: [ids.legal] });
    } finally {
      await setFeatures({ teams: false });
    }
  });

  it('with teams on, those it is shared with edit it, but only its owner and admins widen or delete it', async () => {
    await setFeatures({ teams: true });
    try {
      const own = await envelopeBy(keys.owner, { name: 'Sales kit' });
      const edited = await call('PATCH', `/envelope-templates/${own.id}/`, {
        key: keys.teammate,
        json: { description: 'Edited by a teammate' },
      });
      expect(edited.status, edited.text).toBe(200);
      for (const [method, json] of [
        ['PATCH', { is_shared: true }],
        ['DELETE', undefined],
      ] as const) {
        const res = await call(method, `/envelope-templates/${own.id}/`, { key: keys.teammate, json });
        expect(res.status, method).toBe(403);
        expect(res.body.code).toBe('permission_denied');
      }
      // A document template the teammate cannot see (Legal's) cannot be added by the teammate,
      // though the owner sees it.
      const legalDoc = await call('POST', '/templates/', {
        key: keys.owner,
        json: {
          name: 'Legal only',
          team: ids.legal,
          file_b64: await aPdfB64(),
          roles: [{ key: 'signer', label: 'Signer' }],
          fields: [],
        },
      });
      expect(legalDoc.status, legalDoc.text).toBe(201);
      const documents = [
        { key: 'doc-1', template_id: docTemplate },
        { key: 'doc-2', template_id: legalDoc.body.id },
      ];
      const sneaked = await call('PATCH', `/envelope-templates/${own.id}/`, {
        key: keys.teammate,
        json: { documents },
      });
      expect(sneaked.status).toBe(400);
      expect(sneaked.body.errors.map((e: { field: string }) => e.field)).toEqual([
        'documents[1].template_id',
      ]);
      expect(
        (await call('PATCH', `/envelope-templates/${own.id}/`, { key: keys.owner, json: { documents } }))
          .status,
      ).toBe(200);

      const shared = await call('PATCH', `/envelope-templates/${own.id}/`, {
        key: keys.owner,
        json: { is_shared: true },
      });
      expect(shared.body.is_shared).toBe(true);
      expect((await call('DELETE', `/envelope-templates/${own.id}/`, { key: keys.admin })).status).toBe(204);
    } finally {
      await setFeatures({ teams: false });
    }
  });

  it("another account's template is still not found (404), never forbidden", async () => {
    const t = await envelopeBy(keys.owner);
    const other = await runtime.seedAccount('Elsewhere', 'admin@elsewhere.example');
    const res = await call('GET', `/envelope-templates/${t.id}/`, { key: other.apiKey });
    expect(res.status).toBe(404);
  });

  it('an account whose operator turned envelope templates off gets 403 on every call; the smart link is not in use', async () => {
    const portal = await envelopeBy(keys.owner, {
      is_portal: true,
      allow_direct_signing: true,
      is_shared: true,
    });
    expect(portal.smart_link_url).not.toBe('');
    await setFeatures({ envelope_templates: false });
    try {
      for (const [method, path, json] of [
        ['GET', '/envelope-templates/', undefined],
        ['GET', `/envelope-templates/${portal.id}/`, undefined],
        ['POST', '/envelope-templates/', anEnvelopeTemplate([docTemplate])],
        ['PATCH', `/envelope-templates/${portal.id}/`, { name: 'x' }],
        ['DELETE', `/envelope-templates/${portal.id}/`, undefined],
      ] as const) {
        const res = await call(method, path, { key: keys.admin, json });
        expect(res.status, `${method} ${path}`).toBe(403);
        expect(res.body.message).toMatch(/not enabled/);
      }
      expect((await createFrom(keys.admin, portal.id)).status).toBe(403);
      expect((await fetch(portal.smart_link_url)).status).toBe(404);
    } finally {
      await setFeatures({ envelope_templates: true });
    }
    expect((await call('GET', `/envelope-templates/${portal.id}/`, { key: keys.admin })).status).toBe(200);
    expect((await fetch(portal.smart_link_url)).status).toBe(200);
  });

  it('a new account has envelope templates on', async () => {
    const fresh = await runtime.seedAccount('Fresh', 'admin@fresh.example');
    expect((await call('GET', '/envelope-templates/', { key: fresh.apiKey })).status).toBe(200);
  });
});

describe('document templates: teams', () => {
  const docBy = async (key: string, overrides: Record<string, unknown> = {}) => {
    const res = await call('POST', '/templates/', {
      key,
      json: {
        name: 'Private doc',
        file_b64: await aPdfB64(),
        roles: [{ key: 'signer', label: 'Signer' }],
        fields: [],
        ...overrides,
      },
    });
    expect(res.status, res.text).toBe(201);
    return res.body.id as string;
  };
  const sees = async (key: string, id: string) =>
    (await call('GET', `/templates/${id}/`, { key })).status === 200;
  const lists = async (key: string, id: string) =>
    ((await call('GET', '/templates/?per_page=100', { key })).body as { id: string }[]).some(
      (t) => t.id === id,
    );

  it("teams on: the owner's teams see one naming no team; one naming a team is that team's", async () => {
    await setFeatures({ teams: true });
    try {
      const ownersTeams = await docBy(keys.owner);
      const legalOnly = await docBy(keys.owner, { team: ids.legal });
      expect(await sees(keys.teammate, ownersTeams)).toBe(true);
      expect(await lists(keys.teammate, ownersTeams)).toBe(true);
      expect(await sees(keys.outsider, ownersTeams)).toBe(false);
      expect(await lists(keys.outsider, ownersTeams)).toBe(false);

      expect(await sees(keys.outsider, legalOnly)).toBe(true);
      expect(await lists(keys.outsider, legalOnly)).toBe(true);
      expect(await sees(keys.teammate, legalOnly)).toBe(false);
      expect(await lists(keys.teammate, legalOnly)).toBe(false);
      // Its owner and the admins always do.
      for (const who of ['owner', 'admin'] as const) {
        expect(await sees(keys[who], legalOnly), who).toBe(true);
        expect(await lists(keys[who], legalOnly), who).toBe(true);
      }
    } finally {
      await setFeatures({ teams: false });
    }
  });
});

describe('document templates: changing and deleting', () => {
  it('with teams on, those it is shared with edit it; widening and deleting are for its owner and admins', async () => {
    await setFeatures({ teams: true });
    try {
      const create = await call('POST', '/templates/', {
        key: keys.owner,
        json: {
          name: "Sales' offer",
          file_b64: await aPdfB64(),
          roles: [{ key: 'signer', label: 'Signer' }],
          fields: [],
        },
      });
      const id = create.body.id as string;
      const renamed = await call('PATCH', `/templates/${id}/`, {
        key: keys.teammate,
        json: { name: 'Renamed' },
      });
      expect(renamed.status, renamed.text).toBe(200);
      for (const [method, json] of [
        ['PATCH', { is_shared: true }],
        ['PATCH', { team: ids.legal }],
        ['DELETE', undefined],
      ] as const) {
        const res = await call(method, `/templates/${id}/`, { key: keys.teammate, json });
        expect(res.status, `${method} ${JSON.stringify(json)}`).toBe(403);
        expect(res.body.code).toBe('permission_denied');
      }
      // Someone it is not shared with does not learn it exists.
      for (const method of ['PATCH', 'DELETE'] as const) {
        const res = await call(method, `/templates/${id}/`, { key: keys.outsider, json: { name: 'x' } });
        expect(res.status, method).toBe(404);
      }
      const got = await call('GET', `/templates/${id}/`, { key: keys.owner });
      expect(got.body).toMatchObject({ name: 'Renamed', is_shared: false });
      expect(
        (await call('PATCH', `/templates/${id}/`, { key: keys.owner, json: { is_shared: true } })).status,
      ).toBe(200);
      expect((await call('DELETE', `/templates/${id}/`, { key: keys.admin })).status).toBe(204);
    } finally {
      await setFeatures({ teams: false });
    }
  });
});

describe('list keys written before they carried who may see a template', () => {
  it('are decided by the item itself', async () => {
    await setFeatures({ teams: true });
    try {
      const t = await envelopeBy(keys.owner, { name: 'Written long ago' });
      await runtime.db.send(
        new UpdateCommand({
          TableName: runtime.config.tableName,
          Key: { pk: `ENVTEMPLATE#${t.id}`, sk: 'ENVTEMPLATE' },
          UpdateExpression: 'SET lsk = :old',
          ExpressionAttributeValues: { ':old': `${new Date().toISOString()}#${t.id}` },
        }),
      );
      expect(await listedFor(keys.teammate)).toContain(t.id);
      expect(await listedFor(keys.outsider)).not.toContain(t.id);
    } finally {
      await setFeatures({ teams: false });
    }
  });
});

describe('team membership', () => {
  it('refuses team ids the account does not have, naming the field, and changes nothing', async () => {
    await expect(
      setUserTeams(deps(), account.accountId, ids.teammate, {
        teams: ['3f1c1e9e-8c4b-4a43-9d7e-0d3e4f5a6b7c'],
      }),
    ).rejects.toMatchObject({ name: 'ValidationError', fieldErrors: [{ field: 'teams' }] });
    expect(
      (
        await createAccountStore(runtime.db, runtime.config.tableName).getUser(
          account.accountId,
          ids.teammate,
        )
      )?.teams,
    ).toEqual([ids.sales]);
    await expect(
      addUser(deps(), account.accountId, { name: 'X', email: 'x@access.example', teams: ['nope'] }),
    ).rejects.toMatchObject({ name: 'ValidationError' });
  });
});
