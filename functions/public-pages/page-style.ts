// The signing page's style sheet comes in its head, as a <style> the page's CSP allows by its hash
// (`style-src 'self' 'sha256-…'`, still no 'unsafe-inline'), rather than as a file the page asks
// for: a request less per load, for the browser, its network service and the service alike
// (docs/architecture/signing.md). The clear pages, which are not the signing page's script's,
// still link the file (pages.ts), and it stays served for them.
import { signingAssets, type TAssetStore } from './assets';
import { cspHashOf } from './early-start';

export interface TInlineStyle {
  /** The `<style>` element, as the page's head carries it. */
  html: string;
  /** The CSP source that allows it: `'sha256-<base64>'`. */
  source: string;
}

const memo = new WeakMap<Pick<TAssetStore, 'read'>, TInlineStyle>();

/** app.css of the assets' version, as the signing page's head carries it. */
export function pageStyle(assets: Pick<TAssetStore, 'read'> = signingAssets()): TInlineStyle {
  let made = memo.get(assets);
  if (!made) {
    const source = assets.read('app.css');
    if (!source) throw new Error('app.css is missing from the page assets');
    const text = source.toString('utf8');
    // Inside <style>, only "</style" (any case) could end it early.
    if (/<\/style/i.test(text)) throw new Error('app.css cannot be inlined as it is');
    made = { html: `<style>${text}</style>`, source: cspHashOf(text) };
    memo.set(assets, made);
  }
  return made;
}
