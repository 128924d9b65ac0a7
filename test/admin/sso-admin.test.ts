// The operator's single sign-on commands against a running local runtime's data: `set-sso` seals
// the client secret (never printed, never stored in plain text), a domain leads to one account
// only, and `clear-sso` turns it off so the domain's addresses are told there is none. The
// production rules for an issuer (https, public address) are the outbound URL guard's.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { ssoKeys } from '#shared/adapters/dynamodb/entities/sso';
import { createIssuerGuard } from '#shared/adapters/oidc/issuer-guard';
import { ValidationError } from '#shared/domain/errors';
import { admin, adminOk } from '../helpers/admin-cli';
import { runtimeOnDisk } from '../helpers/runtime-on-disk';

const onDisk = runtimeOnDisk('admin-sso-');

const CLI_TIMEOUT = 90_000;
const SECRET = 'cl1ent-s3cret-never-shown';

const startAt = async (email: string) => {
  const res = await fetch(`${onDisk.runtime.baseUrl}/console/api/sso/start`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { url: string }).url;
};

describe('set-sso and clear-sso', () => {
  it(
    'seals the secret, keeps a domain to one account, and turns single sign-on off again',
    async () => {
      const other = await onDisk.runtime.seedAccount('Acme', 'ops@acme.example');
      const args = ['--issuer', `http://127.0.0.1:${onDisk.runtime.bound.oidc.port}`, '--client-id', 'acme'];
      const out = await adminOk(
        onDisk.dir,
        'set-sso',
        '--account',
        other.accountId,
        ...args,
        '--client-secret',
        SECRET,
        '--domains',
        'Acme.example',
        '--json',
      );
      expect(out).not.toContain(SECRET);
      expect(JSON.parse(out)).toMatchObject({
        accountId: other.accountId,
        clientId: 'acme',
        domains: ['acme.example'],
      });
      const stored = await onDisk.runtime.db.send(
        new GetCommand({
          TableName: onDisk.runtime.config.tableName,
          Key: ssoKeys.settings(other.accountId),
        }),
      );
      expect(JSON.stringify(stored.Item)).not.toContain(SECRET);
      expect(stored.Item?.sealedSecret).toEqual(expect.any(String));
      // The account's addresses now go to its provider.
      expect(await startAt('anyone@acme.example')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/auth\?/);

      // The demo account's domain is the demo account's: another account cannot take it.
      const taken = await admin(
        onDisk.dir,
        'set-sso',
        '--account',
        other.accountId,
        ...args,
        '--client-secret',
        SECRET,
        '--domains',
        'example.com',
      );
      expect(taken.code).not.toBe(0);
      expect(taken.stderr).toContain('example.com already signs in to another account');
      expect(`${taken.stdout}${taken.stderr}`).not.toContain(SECRET);

      await adminOk(onDisk.dir, 'clear-sso', '--account', other.accountId);
      expect(await startAt('anyone@acme.example')).toBe(
        `${onDisk.runtime.baseUrl}/console/?sso=not_configured`,
      );
    },
    CLI_TIMEOUT * 3,
  );
});

describe('the issuer in production', () => {
  const guard = createIssuerGuard({ allowHttp: false, allowLoopback: false });
  it('must be https on a public address', async () => {
    for (const issuer of [
      'http://id.example.com',
      'https://127.0.0.1',
      'https://10.1.2.3',
      'https://169.254.169.254',
      'https://[fe80::1]',
      'https://id.example.com:8443',
    ]) {
      await expect(guard.check(issuer), issuer).rejects.toBeInstanceOf(ValidationError);
    }
    await expect(guard.check('https://93.184.215.14')).resolves.toBeUndefined();
  });
});
