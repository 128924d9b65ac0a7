// The signing page's style sheet comes in its head, as a <style> the page's CSP allows by its hash
// (`style-src 'self' 'sha256-…'`, still no 'unsafe-inline'), rather than as a file the page asks
// for: a request less per load, for the browser, its network service and the service alike
// (docs/architecture/signing.md). The clear pages, which are not the signing page's script's,
// still link the file (pages.ts), and it stays served for them.
import { signingAssets, type TAssetStore } from './assets';
import { inlineElement, type TInlineElement } from './inline-element';

/** app.css of the assets' version, as the signing page's head carries it. */
export function pageStyle(assets: Pick<TAssetStore, 'read'> = signingAssets()): TInlineElement {
  return inlineElement(assets, 'app.css', 'style');
}
