import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { signingAssets } from '#functions/public-pages/assets';
import { pageStyle } from '#functions/public-pages/page-style';

const holding = (css: string) => ({ read: (n: string) => (n === 'app.css' ? Buffer.from(css) : undefined) });

describe("the signing page's style sheet in its head", () => {
  it('is the file as it is, with the hash the page CSP allows it by', () => {
    const css = '.a::after { content: "<b>"; }\n';
    const style = pageStyle(holding(css));
    expect(style.html).toBe(`<style>${css}</style>`);
    expect(style.source).toBe(`'sha256-${createHash('sha256').update(css, 'utf8').digest('base64')}'`);
  });

  it('refuses a sheet that would end its element early, and a missing one', () => {
    expect(() => pageStyle(holding('a::after { content: "</STYLE>" }'))).toThrow(/cannot be inlined/);
    expect(() => pageStyle({ read: () => undefined })).toThrow(/missing/);
  });

  it('is served minified, every rule of the sheet as written kept', () => {
    const written = readFileSync(
      new URL('../../functions/public-pages/public/app.css', import.meta.url),
      'utf8',
    );
    const served = signingAssets().read('app.css')!.toString('utf8');
    expect(served.length).toBeLessThan(written.length * 0.75);
    expect(served).not.toContain('/*');
    expect(served).not.toContain('\n  ');
    // What the rules name and where they apply, read from both without their comments.
    const bare = (css: string) => css.replace(/\/\*[\s\S]*?\*\//g, '').replace(/"[^"]*"/g, '""');
    const named = (css: string) => ({
      classes: new Set(bare(css).match(/\.-?[_a-zA-Z][\w-]*/g)),
      properties: new Set(bare(css).match(/--[\w-]+/g)),
      atRules: bare(css).match(/@[\w-]+/g),
    });
    expect(named(served)).toEqual(named(written));
  });
});
