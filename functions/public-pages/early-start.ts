// The signing page's one inline script (public/early-start.js: it starts the session's exchange
// and pdf.js's worker while the HTML is still being parsed) as the page's head carries it, and the
// hash the page's CSP allows it by. The page's policy stays `script-src 'self'` plus this one
// hash: no 'unsafe-inline', no nonce. The script's text never changes with the page (it reads
// what it needs from the page's data- attributes), so one hash serves every page of a version.
import { signingAssets, type TAssetStore } from './assets';
import { inlineElement, type TInlineElement } from './inline-element';

/**
 * The script's text as inlined: without its comment lines and indentation, which every page
 * would otherwise carry. Only whole lines are left out, so no code is touched. What could end the
 * element early is refused where it is inlined (inline-element.ts).
 */
export function inlineText(source: string): string {
  return source
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('//'))
    .join('\n');
}

/** The inline script of the assets' version. */
export function earlyStart(assets: Pick<TAssetStore, 'read'> = signingAssets()): TInlineElement {
  return inlineElement(assets, 'early-start.js', 'script', inlineText);
}
