import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { signingAssets } from '#functions/public-pages/assets';
import { CATALOG_BLOCK_ID, catalogBlock, SIGNING_PAGE_SECTIONS } from '#functions/public-pages/page-words';

/** An asset store holding one catalog, as the signing assets hold theirs. */
const holding = (name: string, text: string) => ({
  read: (n: string) => (n === name ? Buffer.from(text) : undefined),
});

describe("the signing page's words in its head", () => {
  it('carry the catalog as a data block that no message can end or comment out', () => {
    const messages = {
      sign: { hint: 'Type </script><script>alert(1)</script> or <!-- here', ok: 'Fine & dandy' },
    };
    const block = catalogBlock('de', holding('locales/de.json', `${JSON.stringify(messages)}\n`));
    expect(block.startsWith(`<script type="application/json" id="${CATALOG_BLOCK_ID}">`)).toBe(true);
    const inner = block.slice(block.indexOf('>') + 1, -'</script>'.length);
    // Nothing inside could close the element or open a comment; JSON reads it back the same.
    expect(inner).not.toContain('<');
    expect(JSON.parse(inner)).toEqual(messages);
  });

  it("leave out the file's indentation and line breaks, and nothing else", () => {
    const messages = { page: { title: 'Unterschreiben', note: 'Zeile  mit  zwei Leerzeichen\nund Umbruch' } };
    const block = catalogBlock('de', holding('locales/de.json', `${JSON.stringify(messages, null, 2)}\n`));
    const inner = block.slice(block.indexOf('>') + 1, -'</script>'.length);
    expect(inner).toBe(JSON.stringify(messages));
    expect(JSON.parse(inner)).toEqual(messages);
  });

  it('is empty when the assets have no catalog of that language, so the page fetches one', () => {
    expect(catalogBlock('ja', holding('locales/de.json', '{}'))).toBe('');
  });

  it("carry the signing page's sections of the catalog alone", () => {
    const messages = { page: { title: 'Signer' }, sign: { ok: 'OK' }, verify: { title: 'Vérifier' } };
    const block = catalogBlock('fr', holding('locales/fr.json', JSON.stringify(messages)));
    const inner = block.slice(block.indexOf('>') + 1, -'</script>'.length);
    expect(JSON.parse(inner)).toEqual({ page: messages.page, sign: messages.sign });
  });

  it("hold every message the signing page's script names", () => {
    const catalog = JSON.parse(
      readFileSync(new URL('../../shared/i18n/locales/en.json', import.meta.url), 'utf8'),
    ) as Record<string, unknown>;
    // A key the script names whole, or the start of keys it completes (plurals, `dated`'s).
    const at = (parts: string[]) =>
      parts.reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], catalog);
    const has = (key: string) => {
      const parts = key.split('.');
      const last = parts.at(-1)!;
      return (
        at(parts) !== undefined || Object.keys(at(parts.slice(0, -1)) ?? {}).some((k) => k.startsWith(last))
      );
    };
    // The modules of the page's one script, as written: its served bundle's source map holds them.
    const map = JSON.parse(signingAssets().read('app.bundle.js.map')!.toString('utf8')) as {
      sourcesContent: string[];
    };
    const named = new Set<string>();
    for (const source of map.sourcesContent) {
      const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
      for (const m of code.matchAll(/['"`]([a-z][A-Za-z]*)\.([A-Za-z][\w.]*(\$\{)?)/g)) {
        if (m[1]! in catalog) named.add(`${m[1]}.${m[2]}`);
      }
    }
    expect(named.size).toBeGreaterThan(100);
    for (const key of named) {
      expect(SIGNING_PAGE_SECTIONS, key).toContain(key.split('.')[0]);
      if (!key.endsWith('${') && !key.endsWith('.')) expect(has(key), key).toBe(true);
    }
  });
});
