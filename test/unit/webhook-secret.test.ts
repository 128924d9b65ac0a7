import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLocalCipher } from '#shared/adapters/secrets/local-cipher';
import { ConcurrentUpdateError } from '#shared/domain/errors';
import type { TWebhookSecretStore } from '#shared/domain/ports/webhooks';
import { BASE58_ALPHABET, base58Decode, base58Encode } from '#shared/domain/webhooks/base58';
import {
  getWebhookSecret,
  newWebhookSecret,
  regenerateWebhookSecret,
  SECRET_OVERLAP_MS,
  signingSecrets,
  type TWebhookSecretRecord,
} from '#shared/domain/webhooks/webhook-secret';

describe('base58', () => {
  // Bitcoin Core's src/test/data/base58_encode_decode.json.
  const VECTORS: [string, string][] = [
    ['', ''],
    ['61', '2g'],
    ['626262', 'a3gV'],
    ['636363', 'aPEr'],
    ['73696d706c792061206c6f6e6720737472696e67', '2cFupjhnEsSn59qHXstmK2ffpLv2'],
    ['00eb15231dfceb60925886b67d065299925915aeb172c06647', '1NS17iag9jJgTHD1VXjvLCEnZuQ3rJDE9L'],
    ['516b6fcd0f', 'ABnLTmg'],
    ['bf4f89001e670274dd', '3SEo3LWLoPntC'],
    ['572e4794', '3EFU7m'],
    ['ecac89cad93923c02321', 'EJDM8drfXA6uyA'],
    ['10c8511e', 'Rt5zm'],
    ['00000000000000000000', '1111111111'],
  ];

  it.each(VECTORS)('encodes %s as %s and back', (hex, text) => {
    expect(base58Encode(Buffer.from(hex, 'hex'))).toBe(text);
    expect(Buffer.from(base58Decode(text)).toString('hex')).toBe(hex);
  });

  it('encodes "Hello World!"', () => {
    expect(base58Encode(Buffer.from('Hello World!'))).toBe('2NEpo7TZRRrLZSi2U');
  });

  it('round-trips any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        expect(base58Decode(base58Encode(bytes))).toEqual(bytes);
      }),
    );
  });

  it('refuses characters outside the alphabet', () => {
    for (const c of ['0', 'O', 'I', 'l', '+']) expect(() => base58Decode(`2${c}`)).toThrow();
  });

  it('makes secrets of 43+ alphabet characters, redrawing short ones', () => {
    for (let i = 0; i < 200; i++) {
      const s = newWebhookSecret();
      expect(s.length).toBeGreaterThanOrEqual(43);
      expect([...s].every((c) => BASE58_ALPHABET.includes(c))).toBe(true);
    }
    // Two leading zero bytes would give 42 characters: drawn again.
    const draws = [Buffer.alloc(32, 0xff), Buffer.concat([Buffer.alloc(2), Buffer.alloc(30, 1)])];
    const short = base58Encode(draws[1]!);
    expect(short.length).toBeLessThan(43);
    expect(newWebhookSecret(() => draws.pop()!)).toBe(base58Encode(Buffer.alloc(32, 0xff)));
  });
});

describe('local cipher', () => {
  const cipher = createLocalCipher(randomBytes(32));
  const ctx = { accountId: 'acc-1' };

  it('opens what it sealed, and never shows the plain text', async () => {
    const sealed = await cipher.encrypt('s3cret-value', ctx);
    expect(sealed.startsWith('local1:')).toBe(true);
    expect(sealed).not.toContain('s3cret-value');
    expect(Buffer.from(sealed.slice(7), 'base64').toString('latin1')).not.toContain('s3cret');
    expect(await cipher.decrypt(sealed, ctx)).toBe('s3cret-value');
    // A fresh IV each time.
    expect(await cipher.encrypt('s3cret-value', ctx)).not.toBe(sealed);
  });

  it('refuses a tampered sealed text', async () => {
    const sealed = await cipher.encrypt('s3cret-value', ctx);
    const raw = Buffer.from(sealed.slice(7), 'base64');
    for (const at of [0, 12, raw.length - 1]) {
      const bad = Buffer.from(raw);
      bad[at]! ^= 1;
      await expect(cipher.decrypt(`local1:${bad.toString('base64')}`, ctx)).rejects.toThrow();
    }
    await expect(cipher.decrypt('local1:AAAA', ctx)).rejects.toThrow();
    await expect(cipher.decrypt(`kms1:${sealed.slice(7)}`, ctx)).rejects.toThrow();
  });

  it('refuses another account context, and another key', async () => {
    const sealed = await cipher.encrypt('s3cret-value', ctx);
    await expect(cipher.decrypt(sealed, { accountId: 'acc-2' })).rejects.toThrow();
    await expect(cipher.decrypt(sealed, {})).rejects.toThrow();
    await expect(createLocalCipher(randomBytes(32)).decrypt(sealed, ctx)).rejects.toThrow();
  });

  it('wants a 32-byte key', () => {
    expect(() => createLocalCipher(randomBytes(16))).toThrow();
  });
});

/** An in-memory store with the DynamoDB store's conditions. */
function memoryStore(): TWebhookSecretStore & { items: Map<string, TWebhookSecretRecord> } {
  const items = new Map<string, TWebhookSecretRecord>();
  return {
    items,
    async get(accountId) {
      const r = items.get(accountId);
      return r && structuredClone(r);
    },
    async save(record, previous) {
      const stored = items.get(record.accountId);
      if (previous ? stored?.version !== previous.version : stored) throw new ConcurrentUpdateError();
      items.set(record.accountId, structuredClone(record));
    },
  };
}

describe('signing secrets and their overlap', () => {
  const t0 = new Date('2026-01-01T00:00:00.000Z');
  const at = (ms: number) => new Date(t0.getTime() + ms);
  const HOUR = 3600_000;

  function setup() {
    let now = t0;
    const deps = {
      webhookSecrets: memoryStore(),
      cipher: createLocalCipher(randomBytes(32)),
      clock: { now: () => now },
    };
    return { deps, setNow: (d: Date) => (now = d) };
  }

  it('gives the current secret alone before any regeneration, creating it if needed', async () => {
    const { deps } = setup();
    const secrets = await signingSecrets(deps, 'acc', t0);
    expect(secrets).toHaveLength(1);
    expect((await getWebhookSecret(deps, 'acc')).secret).toBe(secrets[0]);
    expect(await signingSecrets(deps, 'acc', at(HOUR))).toEqual(secrets);
  });

  it('signs with the new and the old secret for 24 hours after a regeneration', async () => {
    const { deps, setNow } = setup();
    const first = await getWebhookSecret(deps, 'acc');
    setNow(at(HOUR));
    const second = await regenerateWebhookSecret(deps, 'acc');
    expect(second.secret).not.toBe(first.secret);
    expect(second.created).toBe(at(HOUR).toISOString());
    expect(deps.webhookSecrets.items.get('acc')!.previous!.retiredAt).toBe(at(HOUR).toISOString());

    expect(await signingSecrets(deps, 'acc', at(HOUR))).toEqual([second.secret, first.secret]);
    expect(await signingSecrets(deps, 'acc', at(HOUR + SECRET_OVERLAP_MS - 1))).toEqual([
      second.secret,
      first.secret,
    ]);
    expect(await signingSecrets(deps, 'acc', at(HOUR + SECRET_OVERLAP_MS))).toEqual([second.secret]);
    expect(SECRET_OVERLAP_MS).toBe(24 * HOUR);
  });

  it('drops the oldest when regenerated again inside the overlap', async () => {
    const { deps, setNow } = setup();
    const first = await getWebhookSecret(deps, 'acc');
    setNow(at(HOUR));
    const second = await regenerateWebhookSecret(deps, 'acc');
    setNow(at(2 * HOUR));
    const third = await regenerateWebhookSecret(deps, 'acc');
    const secrets = await signingSecrets(deps, 'acc', at(2 * HOUR));
    expect(secrets).toEqual([third.secret, second.secret]);
    expect(secrets).not.toContain(first.secret);
    // The overlap runs from the latest regeneration.
    expect(await signingSecrets(deps, 'acc', at(2 * HOUR + SECRET_OVERLAP_MS - 1))).toHaveLength(2);
  });

  it('agrees on one secret when first reads race', async () => {
    const { deps } = setup();
    const answers = await Promise.all(Array.from({ length: 5 }, () => getWebhookSecret(deps, 'acc')));
    expect(new Set(answers.map((a) => a.secret)).size).toBe(1);
  });

  it('regenerates an account that had no secret, with nothing previous', async () => {
    const { deps } = setup();
    const s = await regenerateWebhookSecret(deps, 'acc');
    expect(await signingSecrets(deps, 'acc', t0)).toEqual([s.secret]);
    expect(deps.webhookSecrets.items.get('acc')!.previous).toBeUndefined();
  });
});
