import { describe, expect, it } from 'vitest';
import { CATALOG_BLOCK_ID, catalogBlock } from '#functions/public-pages/page-words';

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
});
