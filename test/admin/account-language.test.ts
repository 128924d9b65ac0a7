// The account's default signer language, set by the operator (`set-language`): signers of its
// bundles whose packet and bundle name no language read it, on the signing page (before their
// browser's) and in their messages; a packet's or bundle's own language still wins, and "" clears it.
import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { dataPaths } from '#infra/local/layout';
import { listMailbox, type TMailboxEmail } from '#infra/local/mailbox/index';
import { admin, adminOk } from '../helpers/admin-cli';
import { aBundle, aPdfB64 } from '../helpers/bundles';
import { apiClient } from '../helpers/runtime';
import { runtimeOnDisk } from '../helpers/runtime-on-disk';
import { embedToken } from '../helpers/signer';

const onDisk = runtimeOnDisk('admin-language-');

const STACK_TRACE = /\n\s+at /;
/** Each command is a fresh Node process with tsx: several of them take long on a busy machine. */
const CLI_TIMEOUT = 90_000;

let call: ReturnType<typeof apiClient>;
let b64: string;
let accountId: string;

beforeAll(async () => {
  call = apiClient(onDisk.runtime);
  accountId = onDisk.runtime.demo.accountId;
  b64 = await aPdfB64();
}, 60_000);

async function create(overrides: Record<string, unknown>) {
  const res = await call('POST', '/bundles/', { json: aBundle(overrides, b64) });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

const embedded = { key: 'ann', name: 'Ann Lee', email: 'ann@example.com', deliver_via: 'embed' };

/** The `lang` of the signing page a browser preferring `accept` gets for the packet. */
async function pageLanguage(packetId: string, accept: string) {
  const token = await embedToken(call, packetId);
  const res = await fetch(`${onDisk.runtime.baseUrl}/sign/${token}`, {
    headers: { 'accept-language': accept },
  });
  expect(res.status).toBe(200);
  return /<html lang="([^"]+)"/.exec(await res.text())?.[1];
}

async function emailTo(address: string): Promise<TMailboxEmail> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const found = (await listMailbox(dataPaths(onDisk.dir).mailbox)).find(
      (m): m is TMailboxEmail => m.kind === 'email' && m.to.includes(address),
    );
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no email to ${address}`);
    await sleep(100);
  }
}

describe('set-language', () => {
  it(
    'stores a supported language in canonical form, and refuses others with a clear message',
    async () => {
      expect(await adminOk(onDisk.dir, 'set-language', '--account', accountId, '--language', 'PT-br')).toBe(
        'pt-BR\n',
      );
      const shown = JSON.parse(await adminOk(onDisk.dir, 'show-account', '--account', accountId, '--json'));
      expect(shown.account.language).toBe('pt-BR');
      expect(await adminOk(onDisk.dir, 'show-account', '--account', accountId)).toMatch(
        /Signer language\s+pt-BR/,
      );

      for (const [tag, message] of [
        ['sv', /not supported\. Supported: en, es/],
        ['not a tag', /IETF language tag/],
      ] as const) {
        const bad = await admin(onDisk.dir, 'set-language', '--account', accountId, '--language', tag);
        expect(bad.code).toBe(2);
        expect(bad.stderr).toMatch(message);
        expect(bad.stderr).not.toMatch(STACK_TRACE);
      }
      const unknown = await admin(onDisk.dir, 'set-language', '--account', 'nope', '--language', 'fr');
      expect(unknown.code).not.toBe(0);
      expect(unknown.stderr).toContain('Account not found.');
    },
    CLI_TIMEOUT,
  );

  it(
    'speaks to signers whose packet and bundle name none: the page before the browser, and messages',
    async () => {
      await adminOk(onDisk.dir, 'set-language', '--account', accountId, '--language', 'fr');
      const plain = await create({ packets: [embedded] });
      expect(await pageLanguage(plain.packets[0].id, 'ja')).toBe('fr');

      // The bundle's and the packet's own language still win over the account's.
      const own = await create({
        language: 'de',
        packets: [embedded, { ...embedded, key: 'kim', language: 'it' }],
      });
      expect(await pageLanguage(own.packets[0].id, 'ja')).toBe('de');
      expect(await pageLanguage(own.packets[1].id, 'ja')).toBe('it');

      await create({
        label: 'Bail',
        packets: [{ key: 'ann', name: 'Eve Roe', email: 'eve-language@example.com' }],
      });
      const mail = await emailTo('eve-language@example.com');
      expect(mail.subject).toBe('À signer : Bail');
      expect(mail.html).toContain('lang="fr"');
    },
    CLI_TIMEOUT,
  );

  it(
    '"" clears it: the browser’s language again',
    async () => {
      await adminOk(onDisk.dir, 'set-language', '--account', accountId, '--language', 'fr');
      const b = await create({ packets: [embedded] });
      const cleared = await admin(onDisk.dir, 'set-language', '--account', accountId, '--language', '');
      expect(cleared).toMatchObject({ code: 0, stdout: '' });
      expect(cleared.stderr).toContain('No default language');
      const shown = JSON.parse(await adminOk(onDisk.dir, 'show-account', '--account', accountId, '--json'));
      expect(shown.account).not.toHaveProperty('language');
      expect(await pageLanguage(b.packets[0].id, 'ja')).toBe('ja');
    },
    CLI_TIMEOUT,
  );
});
