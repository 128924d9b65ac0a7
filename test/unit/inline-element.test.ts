import { describe, expect, it } from 'vitest';
import { inlineElement, perAssetStore } from '#functions/public-pages/inline-element';

const holding = (name: string, text: string) => ({
  read: (n: string) => (n === name ? Buffer.from(text) : undefined),
});

describe('an asset inlined in the signing page head', () => {
  it('is made once per store and file, with the text as its maker gives it', () => {
    const assets = holding('x.js', '// note\nrun();\n');
    const made = inlineElement(assets, 'x.js', 'script', (s) => s.replace('// note\n', ''));
    expect(made.html).toBe('<script>run();\n</script>');
    expect(inlineElement(assets, 'x.js', 'script')).toBe(made);
  });

  it('refuses a script that would end its element early or open a comment', () => {
    expect(() => inlineElement(holding('a.js', 'x("</SCRIPT>")'), 'a.js', 'script')).toThrow(
      'a.js cannot be inlined as it is',
    );
    expect(() => inlineElement(holding('b.js', 'x("<!--")'), 'b.js', 'script')).toThrow(/cannot be inlined/);
  });
});

describe('what is made from an asset store, per store and key', () => {
  it('is made once, kept apart per store, and made again after a failure', () => {
    const made = perAssetStore<string>();
    const one = holding('a', 'A');
    const other = holding('a', 'A');
    let calls = 0;
    const make = () => `made ${++calls}`;
    expect(made(one, 'k', make)).toBe('made 1');
    expect(made(one, 'k', make)).toBe('made 1');
    expect(made(other, 'k', make)).toBe('made 2');
    // An empty text is kept too (a language with no catalog).
    expect(made(one, 'empty', () => '')).toBe('');
    expect(made(one, 'empty', make)).toBe('');
    expect(() =>
      made(one, 'bad', () => {
        throw new Error('no');
      }),
    ).toThrow('no');
    expect(made(one, 'bad', make)).toBe('made 3');
  });
});
