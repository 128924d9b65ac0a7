import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type APIGatewayClient,
  CreateApiKeyCommand,
  CreateUsagePlanKeyCommand,
  DeleteApiKeyCommand,
} from '@aws-sdk/client-api-gateway';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createKeyCommand, revokeKeyCommand, type TAdminDeps } from '#infra/admin/commands';
import { startDynalite } from '#infra/local/dynamo';
import { startLocalRuntime } from '#infra/local/runtime';
import { createUsageKeyRegistry } from '#shared/adapters/apigateway/usage-keys';
import { createDocumentClient } from '#shared/adapters/aws/clients';
import { createAccountStore } from '#shared/adapters/dynamodb/account-store';
import { createApiKeyStore } from '#shared/adapters/dynamodb/api-key-store';
import { ensureTable } from '#shared/adapters/dynamodb/create-table';
import { createPersonStore } from '#shared/adapters/dynamodb/person-store';
import { randomIds, systemClock } from '#shared/adapters/system';
import type { TConfig } from '#shared/config';
import { authenticateApiKey } from '#shared/domain/accounts/authenticate-api-key';
import { admin, adminOk as ok } from '../helpers/admin-cli';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const STACK_TRACE = /\n\s+at /;
const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

// biome-ignore lint/suspicious/noExplicitAny: --json answers are read as loose JSON
const json = async (dataDir: string, ...args: string[]): Promise<any> =>
  JSON.parse(await ok(dataDir, ...args, '--json'));

const localConfig = (endpoint: string): TConfig => ({
  stage: 'test',
  region: 'us-east-1',
  tableName: 'esign-local',
  bucketName: '',
  usagePlanId: '',
  logLevel: 'silent',
  endpoints: { dynamodb: endpoint },
  credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
});

// Each command is a whole process (tsx compiles the CLI on start), several a test: a loaded
// machine takes seconds each, so these tests get longer than the default to finish.
describe('admin command on the local data folder', { timeout: 120_000 }, () => {
  let dir: string;
  let accountId: string;
  let userId: string;
  let apiKey: string;
  let keyId: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'admin-test-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('create-account prints only the new id', async () => {
    const run = await admin(dir, 'create-account', '--name', 'Acme Corp', '--email', 'ops@acme.test');
    // The whole answer on failure: every later test of the file builds on this account.
    expect(run).toMatchObject({ code: 0, stderr: '' });
    accountId = run.stdout.trim();
    expect(accountId).toMatch(UUID);
    expect(run.stdout).toBe(`${accountId}\n`);
  });

  it('add-user prints the user id', async () => {
    userId = (
      await ok(
        dir,
        'add-user',
        '--account',
        accountId,
        '--name',
        'Ada Admin',
        '--email',
        'ada@acme.test',
        '--admin',
      )
    ).trim();
    expect(userId).toMatch(UUID);
  });

  it('create-key prints the key alone on stdout and its id on stderr', async () => {
    const run = await admin(dir, 'create-key', '--account', accountId, '--user', userId);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^[A-Za-z0-9]{40,}\n$/);
    apiKey = run.stdout.trim();
    keyId = /Key id: (\S+)/.exec(run.stderr)?.[1] ?? '';
    expect(keyId).toMatch(UUID);
  });

  it('show-account lists the user and the key, never its hash', async () => {
    const details = await json(dir, 'show-account', '--account', accountId);
    expect(details.account).toMatchObject({
      id: accountId,
      name: 'Acme Corp',
      requesterEmail: 'ops@acme.test',
    });
    expect(details.users).toEqual([
      expect.objectContaining({ id: userId, name: 'Ada Admin', isAdmin: true }),
    ]);
    expect(details.keys).toEqual([
      expect.objectContaining({ keyId, prefix: apiKey.slice(0, 6), userId, created: expect.any(String) }),
    ]);
    expect(details.keys[0]).not.toHaveProperty('hash');
    expect(details.keys[0]).not.toHaveProperty('revoked');

    const text = await ok(dir, 'show-account', '--account', accountId);
    expect(text).toContain(keyId);
    expect(text).toContain('active');
    for (const out of [JSON.stringify(details), text]) {
      expect(out).not.toContain(sha256(apiKey));
      expect(out).not.toContain(apiKey);
    }
  });

  it('set-features turns flags on and off', async () => {
    const text = await ok(
      dir,
      'set-features',
      '--account',
      accountId,
      '--teams',
      'on',
      '--signing-brands',
      'on',
    );
    expect(text).toMatch(/^teams\s+on$/m);
    expect(text).toMatch(/^reminders\s+off$/m);
    const after = await json(
      dir,
      'set-features',
      '--account',
      accountId,
      '--teams',
      'off',
      '--reminders',
      'on',
    );
    expect(after.features).toEqual({
      teams: false,
      reminders: true,
      signing_brands: true,
      early_data_access: false,
      early_file_access: false,
      envelope_templates: true,
      email_attachments: false,
    });
  });

  it('add-team and add-brand add to the account', async () => {
    const teamId = (
      await ok(
        dir,
        'add-team',
        '--account',
        accountId,
        '--name',
        'Sales',
        '--requester-email',
        'sales@acme.test',
      )
    ).trim();
    const brand = await json(
      dir,
      'add-brand',
      '--account',
      accountId,
      '--name',
      'Acme Blue',
      '--redirect-url',
      'https://acme.test/done',
    );
    expect(teamId).toMatch(UUID);
    expect(brand).toMatchObject({ accountId, name: 'Acme Blue', redirectUrl: 'https://acme.test/done' });
    const details = await json(dir, 'show-account', '--account', accountId);
    expect(details.teams).toEqual([
      expect.objectContaining({ id: teamId, name: 'Sales', requesterEmail: 'sales@acme.test' }),
    ]);
    expect(details.brands).toEqual([expect.objectContaining({ id: brand.id })]);
  });

  it('add-user --teams and set-user-teams put a user in teams; unknown team ids exit 2', async () => {
    const sales = (await ok(dir, 'add-team', '--account', accountId, '--name', 'Sales')).trim();
    const legal = (await ok(dir, 'add-team', '--account', accountId, '--name', 'Legal')).trim();
    const user = await json(
      dir,
      'add-user',
      '--account',
      accountId,
      '--name',
      'Sam',
      '--email',
      'sam@acme.test',
      '--teams',
      sales,
    );
    expect(user.teams).toEqual([sales]);
    const text = await ok(
      dir,
      'set-user-teams',
      '--account',
      accountId,
      '--user',
      user.id,
      '--teams',
      `${legal}, ${sales}`,
    );
    expect(text.trim().split('\n')).toEqual([legal, sales]);
    const details = await json(dir, 'show-account', '--account', accountId);
    expect(details.users.find((u: { id: string }) => u.id === user.id).teams).toEqual([legal, sales]);
    const none = await json(dir, 'set-user-teams', '--account', accountId, '--user', user.id, '--teams', '');
    expect(none.teams).toEqual([]);

    const unknown = await admin(
      dir,
      'set-user-teams',
      '--account',
      accountId,
      '--user',
      user.id,
      '--teams',
      '3f1c1e9e-8c4b-4a43-9d7e-0d3e4f5a6b7c',
    );
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/Unknown team ids: 3f1c1e9e/);
    const noUser = await admin(dir, 'set-user-teams', '--account', accountId, '--user', sales, '--teams', '');
    expect(noUser.code).not.toBe(0);
    expect(noUser.stderr).toMatch(/User not found/);
  });

  it('index-user-emails indexes the users of one account, or of all, and says how many', async () => {
    const one = await json(dir, 'index-user-emails', '--account', accountId);
    expect(one).toEqual([{ accountId, users: expect.any(Number) }]);
    expect(one[0].users).toBeGreaterThanOrEqual(2);
    const missing = await admin(
      dir,
      'index-user-emails',
      '--account',
      '3f1c1e9e-8c4b-4a43-9d7e-0d3e4f5a6b7c',
    );
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/not found/i);
  });

  it("add-brand takes the signing pages' color and logo; bad ones exit 2", async () => {
    const brand = await json(
      dir,
      'add-brand',
      '--account',
      accountId,
      '--name',
      'Acme Green',
      '--primary-color',
      '#1A7F37',
      '--logo-url',
      'https://cdn.acme.test/logo.png',
    );
    expect(brand).toMatchObject({
      name: 'Acme Green',
      primaryColor: '#1a7f37',
      logoUrl: 'https://cdn.acme.test/logo.png',
    });
    const bad = await admin(
      dir,
      'add-brand',
      '--account',
      accountId,
      '--name',
      'X',
      '--primary-color',
      'green',
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--primary-color: Enter a color as #rrggbb/);
    const http = await admin(
      dir,
      'add-brand',
      '--account',
      accountId,
      '--name',
      'X',
      '--logo-url',
      'http://a.test/l.png',
    );
    expect(http.code).toBe(2);
    expect(http.stderr).toMatch(/--logo-url: Enter a valid https URL/);
  });

  it('set-embed-origins stores origins in their normal form, refuses others, and clears with ""', async () => {
    const out = await ok(
      dir,
      'set-embed-origins',
      '--account',
      accountId,
      '--origins',
      'https://App.Acme.test:443/, http://localhost:5173,https://app.acme.test',
    );
    expect(out).toBe('https://app.acme.test\nhttp://localhost:5173\n');
    const details = await json(dir, 'show-account', '--account', accountId);
    expect(details.account.embedOrigins).toEqual(['https://app.acme.test', 'http://localhost:5173']);
    expect(await ok(dir, 'show-account', '--account', accountId)).toMatch(
      /^Embed origins\s+https:\/\/app\.acme\.test, http:\/\/localhost:5173$/m,
    );

    const badOrigins = ['https://acme.test/path', 'http://acme.test', 'javascript:alert(1)', '*'];
    const bad = await admin(
      dir,
      'set-embed-origins',
      '--account',
      accountId,
      '--origins',
      badOrigins.join(','),
    );
    expect(bad.code).toBe(2);
    for (const origin of badOrigins)
      expect(bad.stderr).toContain(`"${origin}" is not an origin like https://app.example.com`);
    expect(bad.stderr).not.toMatch(STACK_TRACE);

    const cleared = await admin(dir, 'set-embed-origins', '--account', accountId, '--origins', '');
    expect(cleared).toMatchObject({ code: 0, stdout: '' });
    expect(cleared.stderr).toContain('cannot be framed');
    expect((await json(dir, 'show-account', '--account', accountId)).account).not.toHaveProperty(
      'embedOrigins',
    );
    await ok(dir, 'set-embed-origins', '--account', accountId, '--origins', 'https://app.acme.test');
  });

  it('set-signing-redirect stores an http(s) URL, refuses others, and clears with ""', async () => {
    expect(
      await ok(dir, 'set-signing-redirect', '--account', accountId, '--url', 'https://acme.test/signed'),
    ).toBe('https://acme.test/signed\n');
    expect((await json(dir, 'show-account', '--account', accountId)).account.signingRedirectUrl).toBe(
      'https://acme.test/signed',
    );
    const bad = await admin(
      dir,
      'set-signing-redirect',
      '--account',
      accountId,
      '--url',
      'javascript:alert(1)',
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Enter a valid http(s) URL.');
    const cleared = await admin(dir, 'set-signing-redirect', '--account', accountId, '--url', '');
    expect(cleared).toMatchObject({ code: 0, stdout: '' });
    expect((await json(dir, 'show-account', '--account', accountId)).account).not.toHaveProperty(
      'signingRedirectUrl',
    );
  });

  it('set-image-page-size stores a4, refuses other papers, and letter is the default again', async () => {
    expect(await ok(dir, 'set-image-page-size', '--account', accountId, '--size', 'A4')).toBe('a4\n');
    expect((await json(dir, 'show-account', '--account', accountId)).account.imagePageSize).toBe('a4');
    const bad = await admin(dir, 'set-image-page-size', '--account', accountId, '--size', 'legal');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Give letter or a4.');
    expect(await ok(dir, 'set-image-page-size', '--account', accountId, '--size', 'letter')).toBe('letter\n');
    expect((await json(dir, 'show-account', '--account', accountId)).account).not.toHaveProperty(
      'imagePageSize',
    );
  });

  it('set-payout stores the connected account and currency, and refuses malformed ones', async () => {
    expect(
      await ok(
        dir,
        'set-payout',
        '--account',
        accountId,
        '--connected-account',
        'acct_1Abc',
        '--currency',
        'USD',
      ),
    ).toBe('acct_1Abc usd\n');
    expect((await json(dir, 'show-account', '--account', accountId)).account.payout).toEqual({
      connectedAccountId: 'acct_1Abc',
      currency: 'usd',
    });
    expect(await ok(dir, 'show-account', '--account', accountId)).toContain('acct_1Abc (usd)');
    const bad = await admin(
      dir,
      'set-payout',
      '--account',
      accountId,
      '--connected-account',
      'cus_123',
      '--currency',
      'dollars',
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('acct_1A2b3C');
    expect(bad.stderr).toContain('ISO 4217');
    const missing = await admin(dir, 'set-payout', '--account', accountId, '--currency', 'usd');
    expect(missing.code).toBe(2);
  });

  it('revoke-key marks the key revoked', async () => {
    const text = await ok(dir, 'revoke-key', '--account', accountId, '--key-id', keyId);
    expect(text).toContain(`${keyId} revoked`);
    const details = await json(dir, 'show-account', '--account', accountId);
    expect(details.keys[0]).toMatchObject({ keyId, revoked: expect.any(String) });
  });

  it('list-accounts lists the account', async () => {
    await ok(dir, 'create-account', '--name', 'Second Co', '--email', 'ops@second.test');
    const accounts = await json(dir, 'list-accounts');
    expect(accounts.map((a: { name: string }) => a.name).sort()).toEqual(['Acme Corp', 'Second Co']);
    const text = await ok(dir, 'list-accounts');
    expect(text).toMatch(new RegExp(`^${accountId}\\s+Acme Corp\\s+ops@acme.test`, 'm'));
  });

  it('stores only the SHA-256 of the key', async () => {
    // Every command above has finished, so the folder is free to open here.
    const dynamo = await startDynalite({ port: 0, host: '127.0.0.1', dir: join(dir, 'dynamodb') });
    const db = createDocumentClient(localConfig(dynamo.endpoint));
    try {
      const keys = createApiKeyStore(db, 'esign-local');
      expect(await keys.findByHash(sha256(apiKey))).toMatchObject({ keyId, accountId, userId });
      // Revoked: the authorizer no longer lets it in.
      expect(await authenticateApiKey({ keys }, apiKey)).toBeUndefined();
      const items = (await db.send(new ScanCommand({ TableName: 'esign-local' }))).Items ?? [];
      expect(items.length).toBeGreaterThan(0);
      expect(JSON.stringify(items)).not.toContain(apiKey);
    } finally {
      db.destroy();
      await dynamo.stop();
    }
  });

  it('bad command lines exit 2 with a message, no stack trace', async () => {
    const cases: [string[], RegExp][] = [
      [['create-account', '--name', 'X'], /create-account needs --email/],
      [['frobnicate'], /Unknown command "frobnicate"/],
      [['list-accounts', '--bogus'], /Unknown flag --bogus/],
      [['show-account', '--account', 'a', '--name', 'x'], /show-account does not take --name/],
      [['set-features', '--account', accountId, '--teams', 'maybe'], /--teams takes on or off/],
      [['list-accounts', '--table', 't'], /add --aws/],
      [
        ['create-key', '--aws', '--table', 't', '--region', 'r', '--account', 'a', '--user', 'u'],
        /--data-dir/,
      ],
      [[], /No command given/],
    ];
    // None of these opens the data folder, so they may run side by side.
    const runs = await Promise.all(cases.map(([args]) => admin(dir, ...args)));
    runs.forEach((run, i) => {
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toMatch(cases[i]![1]);
      expect(run.stderr).toContain('--help');
      expect(run.stderr).not.toMatch(STACK_TRACE);
      expect(run.stdout).toBe('');
    });
  });

  it('invalid input exits 2 naming the flag', async () => {
    const run = await admin(dir, 'create-account', '--name', 'X', '--email', 'not-an-email');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--email: .*email/i);
    expect(run.stderr).not.toMatch(STACK_TRACE);
    const brand = await admin(
      dir,
      'add-brand',
      '--account',
      accountId,
      '--name',
      'B',
      '--redirect-url',
      'javascript:alert(1)',
    );
    expect(brand.code).toBe(2);
    expect(brand.stderr).toMatch(/--redirect-url: /);
  });

  it('unknown account or key exits 1 with a clear message', async () => {
    for (const args of [
      ['show-account', '--account', 'no-such-account'],
      ['create-key', '--account', 'no-such-account', '--user', userId],
      ['add-user', '--account', 'no-such-account', '--name', 'N', '--email', 'n@acme.test'],
    ]) {
      const run = await admin(dir, ...args);
      expect(run.code, args.join(' ')).toBe(1);
      expect(run.stderr.trim()).toBe('Account not found.');
    }
    const key = await admin(dir, 'revoke-key', '--account', accountId, '--key-id', 'no-such-key');
    expect(key.code).toBe(1);
    expect(key.stderr.trim()).toBe('API key not found.');
    const user = await admin(dir, 'create-key', '--account', accountId, '--user', 'no-such-user');
    expect(user.code).toBe(1);
    expect(user.stderr.trim()).toBe('User not found in this account.');
  });

  it('--help prints the commands and exits 0', async () => {
    const run = await admin(dir, '--help');
    expect(run.code).toBe(0);
    for (const c of ['create-account', 'add-user', 'create-key', 'revoke-key', 'set-features', 'add-team']) {
      expect(run.stdout).toContain(c);
    }
  });
});

describe('admin command while the local runtime runs', () => {
  it('goes through runtime.json, and the new key works against the API', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'admin-runtime-'));
    const runtime = await startLocalRuntime({ port: 0, dataDir: dir, logLevel: 'silent' });
    let accountId: string;
    let apiKey: string;
    try {
      // The runtime holds the LevelDB lock: only its dynalite, named in runtime.json, can serve these.
      accountId = (await ok(dir, 'create-account', '--name', 'Live Co', '--email', 'ops@live.test')).trim();
      const userId = (
        await ok(
          dir,
          'add-user',
          '--account',
          accountId,
          '--name',
          'Lee Live',
          '--email',
          'lee@live.test',
          '--admin',
        )
      ).trim();
      apiKey = (await ok(dir, 'create-key', '--account', accountId, '--user', userId)).trim();

      const res = await fetch(`${runtime.apiUrl}persons/`, { headers: { Authorization: `Token ${apiKey}` } });
      expect(res.status).toBe(200);
      // The list is a bare array (pagination travels in a header); the admin user is its only person.
      expect(await res.json()).toEqual([expect.objectContaining({ name: 'Lee Live', is_user: true })]);
    } finally {
      await runtime.stop();
    }
    // Stopped: the command opens the folder itself and finds the same table.
    const details = await json(dir, 'show-account', '--account', accountId);
    expect(details.keys).toEqual([expect.objectContaining({ prefix: apiKey.slice(0, 6) })]);
    await rm(dir, { recursive: true, force: true });
  }, 60_000);
});

describe('API Gateway usage keys (mocked client)', () => {
  function mockClient(fail: Partial<Record<string, Error>> = {}) {
    const sent: { command: string; input: unknown }[] = [];
    const send = vi.fn(async (cmd: { constructor: { name: string }; input: unknown }) => {
      const command = cmd.constructor.name;
      sent.push({ command, input: cmd.input });
      if (fail[command]) throw fail[command];
      if (cmd instanceof CreateApiKeyCommand) return { id: `apikey-${sent.length}` };
      return {};
    });
    return { client: { send } as unknown as APIGatewayClient, sent };
  }
  const named = (name: string) => Object.assign(new Error(name), { name });

  it('register creates an enabled key with the same value and adds it to the plan', async () => {
    const { client, sent } = mockClient();
    const id = await createUsageKeyRegistry(client, 'plan-1').register('s3cret', 'esign-a-k');
    expect(id).toBe('apikey-1');
    expect(sent).toEqual([
      { command: CreateApiKeyCommand.name, input: { name: 'esign-a-k', value: 's3cret', enabled: true } },
      {
        command: CreateUsagePlanKeyCommand.name,
        input: { usagePlanId: 'plan-1', keyId: 'apikey-1', keyType: 'API_KEY' },
      },
    ]);
  });

  it('register deletes the key again when the plan refuses it', async () => {
    const { client, sent } = mockClient({ [CreateUsagePlanKeyCommand.name]: named('NotFoundException') });
    await expect(createUsageKeyRegistry(client, 'no-plan').register('s', 'n')).rejects.toThrow(
      'NotFoundException',
    );
    expect(sent.at(-1)).toEqual({ command: DeleteApiKeyCommand.name, input: { apiKey: 'apikey-1' } });
  });

  it('remove deletes the key, and a key already gone counts as removed', async () => {
    const { client, sent } = mockClient();
    await createUsageKeyRegistry(client, 'p').remove('apikey-9');
    expect(sent).toEqual([{ command: DeleteApiKeyCommand.name, input: { apiKey: 'apikey-9' } }]);
    const gone = mockClient({ [DeleteApiKeyCommand.name]: named('NotFoundException') });
    await expect(createUsageKeyRegistry(gone.client, 'p').remove('x')).resolves.toBeUndefined();
    const denied = mockClient({ [DeleteApiKeyCommand.name]: named('AccessDeniedException') });
    await expect(createUsageKeyRegistry(denied.client, 'p').remove('x')).rejects.toThrow(
      'AccessDeniedException',
    );
  });

  describe('create-key and revoke-key with a usage plan (as on AWS)', () => {
    let dynamo: Awaited<ReturnType<typeof startDynalite>>;
    let deps: Omit<TAdminDeps, 'usageKeys'>;
    let accountId: string;
    let userId: string;

    beforeAll(async () => {
      dynamo = await startDynalite({ port: 0, host: '127.0.0.1' });
      const config = localConfig(dynamo.endpoint);
      await ensureTable(
        new DynamoDBClient({
          region: config.region,
          endpoint: dynamo.endpoint,
          credentials: config.credentials!,
        }),
        config.tableName,
      );
      const db = createDocumentClient(config);
      deps = {
        accounts: createAccountStore(db, config.tableName),
        keys: createApiKeyStore(db, config.tableName),
        persons: createPersonStore(db, config.tableName),
        clock: systemClock,
        ids: randomIds,
      };
      accountId = randomIds.uuid();
      userId = randomIds.uuid();
      const now = new Date().toISOString();
      await deps.accounts.createAccount({
        id: accountId,
        name: 'A',
        requesterName: 'A',
        requesterEmail: 'a@a.test',
        features: {
          teams: false,
          reminders: false,
          signing_brands: false,
          early_data_access: false,
          early_file_access: false,
          envelope_templates: false,
          email_attachments: false,
        },
        created: now,
        version: 1,
      });
      await deps.accounts.addUser({
        id: userId,
        accountId,
        name: 'U',
        email: 'u@a.test',
        isAdmin: true,
        created: now,
      });
    });
    afterAll(async () => {
      await dynamo.stop();
    });

    it('registers the key under esign-<account>-<key> and stores the API Gateway id', async () => {
      const { client, sent } = mockClient();
      const usageKeys = createUsageKeyRegistry(client, 'plan-1');
      const { secret, key } = await createKeyCommand({ ...deps, usageKeys }, accountId, userId);
      expect(sent[0]).toEqual({
        command: CreateApiKeyCommand.name,
        input: { name: `esign-${accountId}-${key.keyId}`, value: secret, enabled: true },
      });
      expect(key.usageKeyId).toBe('apikey-1');
      expect((await deps.keys.findByHash(sha256(secret)))?.usageKeyId).toBe('apikey-1');

      const revoked = await revokeKeyCommand({ ...deps, usageKeys }, accountId, key.keyId);
      expect(revoked.revoked).toEqual(expect.any(String));
      expect(sent.at(-1)).toEqual({ command: DeleteApiKeyCommand.name, input: { apiKey: 'apikey-1' } });
    });

    it('leaves no API Gateway key behind when the key cannot be issued', async () => {
      const { client, sent } = mockClient();
      const usageKeys = createUsageKeyRegistry(client, 'plan-1');
      const failingKeys = { ...deps.keys, create: () => Promise.reject(new Error('table unavailable')) };
      await expect(
        createKeyCommand({ ...deps, keys: failingKeys, usageKeys }, accountId, userId),
      ).rejects.toThrow('table unavailable');
      expect(sent.at(-1)).toEqual({ command: DeleteApiKeyCommand.name, input: { apiKey: 'apikey-1' } });
    });
  });
});
