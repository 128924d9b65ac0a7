// The verifier's sentences (shared/verify/check-words.ts): every key it can say is in every
// catalog, with the English placeholders (the types hold it to en.json; this holds the rest to
// the same), no catalog keeps a sentence nobody says, and a sentence is said with its data kept
// and isolated, times and lists in the reader's way, the report's English exactly as before.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogOf, type TCatalog } from '#shared/i18n/catalogs';
import { LANGUAGES } from '#shared/i18n/languages';
import { partsOf, sentence, textIn, words } from '#shared/verify/check-words';

const ROOT = path.resolve(import.meta.dirname, '../..');
const PLURAL = /_(zero|one|two|few|many|other)$/;

/** The keys the code names: `${K}name` where K is 'verify.checks.', or the full key written out. */
function keysSaid(): Set<string> {
  const files = [
    ...readdirSync(path.join(ROOT, 'shared/verify')).map((f) => path.join('shared/verify', f)),
    'functions/public-pages/verify-page.ts',
  ];
  const said = new Set<string>();
  for (const file of files) {
    const text = readFileSync(path.join(ROOT, file), 'utf8');
    for (const m of text.matchAll(/\$\{K\}(\w+)/g)) said.add(m[1]!);
    for (const m of text.matchAll(/'verify\.checks\.(\w+)'/g)) said.add(m[1]!);
  }
  return said;
}

const checksOf = (lang: (typeof LANGUAGES)[number]) =>
  (catalogOf(lang).verify as TCatalog).checks as Record<string, string>;
const baseKeys = (catalog: Record<string, string>) =>
  new Set(Object.keys(catalog).map((k) => k.replace(PLURAL, '')));
const placeholders = (text: string) =>
  [...new Set([...text.matchAll(/\{\{\s*(\w+)/g)].map((m) => m[1]!))].filter((n) => n !== 'count').sort();

describe('the verifier’s sentences', () => {
  const said = keysSaid();

  it('are found in the code (the scan sees them)', () => {
    expect(said.size).toBeGreaterThan(60);
    expect(said).toContain('digestUnchanged');
    expect(said).toContain('resultFail');
  });

  it.each(LANGUAGES)('are all in the %s catalog, and it has none that nobody says', (lang) => {
    const keys = baseKeys(checksOf(lang));
    expect([...said].filter((k) => !keys.has(k))).toEqual([]);
    expect([...keys].filter((k) => !said.has(k))).toEqual([]);
  });

  it.each(LANGUAGES)('keep the English placeholders in %s', (lang) => {
    const en = checksOf('en');
    const own = checksOf(lang);
    for (const key of said) {
      const english = placeholders(
        Object.entries(en)
          .filter(([k]) => k.replace(PLURAL, '') === key)
          .map(([, v]) => v)
          .join(' '),
      );
      for (const [k, v] of Object.entries(own).filter(([k]) => k.replace(PLURAL, '') === key))
        expect(placeholders(v), `${lang} ${k}`).toEqual(english);
    }
  });
});

describe('a sentence', () => {
  const name = words('verify.checks.signatureNamed', { index: 1, signer: 'Jane Roe' });

  it('is the report’s English as the verifier always wrote it: ISO times, lists joined with commas', () => {
    expect(
      sentence(
        words('verify.checks.timestamped', {
          name,
          time: { time: '2024-05-01T10:00:00.000Z' },
          tsa: 'CN=TSA',
        }),
      ),
    ).toBe('Signature 1 (Jane Roe): timestamped at 2024-05-01T10:00:00.000Z by CN=TSA.');
    const covered = words('verify.checks.coveredBy', {
      name,
      signatures: {
        list: [2, 3].map((index) => words('verify.checks.signatureRef', { index })),
        joiner: ', ',
      },
    });
    expect(sentence(covered)).toBe(
      'Signature 1 (Jane Roe): what was added after it is covered by signature 2, signature 3.',
    );
    expect(sentence(words('verify.checks.bytesAdded', { name, count: 1 }))).toContain('1 byte was added');
    expect(sentence(words('verify.checks.bytesAdded', { name, count: 7 }))).toContain('7 bytes were added');
  });

  it('is said in the reader’s language: data apart, times and lists their way, plurals their forms', () => {
    const at = words('verify.checks.allValid', { name, time: { time: '2024-05-01T10:00:00.000Z' } });
    expect(partsOf(at, 'de')).toEqual([
      { text: 'Signatur 1 (' },
      { data: 'Jane Roe' },
      { text: '): Jedes Zertifikat war am 1. Mai 2024 um 10:00:00 UTC gültig.' },
    ]);
    const covered = words('verify.checks.coveredBy', {
      name,
      signatures: {
        list: [2, 3].map((index) => words('verify.checks.signatureRef', { index })),
        joiner: ', ',
      },
    });
    expect(textIn(covered, 'fr')).toBe(
      'Signature n° 1 (\u2068Jane Roe\u2069) : ce qui a été ajouté après elle est couvert par la signature n° 2 et la signature n° 3.',
    );
    expect(textIn(words('verify.checks.dssCrls', { count: 2 }), 'ar')).toBe('قائمتا إلغاء (CRL)');
    expect(textIn(words('verify.checks.dssCrls', { count: 5 }), 'pl')).toBe('5 list unieważnień (CRL)');
  });
});
