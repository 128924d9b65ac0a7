import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
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
});
