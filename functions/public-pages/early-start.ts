// The signing page's one inline script (public/early-start.js: it starts the session's exchange
// and pdf.js's worker while the HTML is still being parsed) as the page's head carries it, and the
// hash the page's CSP allows it by. The page's policy stays `script-src 'self'` plus this one
// hash: no 'unsafe-inline', no nonce. The script's text never changes with the page (it reads
// what it needs from the page's data- attributes), so one hash serves every page of a version.
import { createHash } from 'node:crypto';
import { signingAssets, type TAssetStore } from './assets';

export interface TInlineScript {
  /** The `<script>` element, as the page's head carries it. */
  html: string;
  /** The CSP source that allows it: `'sha256-<base64>'`. */
  source: string;
}

/** A CSP hash source of exactly these characters (what the browser hashes: the element's text). */
export const cspHashOf = (text: string) =>
  `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/**
 * The script's text as inlined: without its comment lines and indentation, which every page
 * would otherwise carry. Only whole lines are left out, so no code is touched.
 */
export function inlineText(source: string): string {
  const text = source
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('//'))
    .join('\n');
  // Inside <script>, only "</script" (any case) or "<!--" could end or upset it early.
  if (/<\/script|<!--/i.test(text)) throw new Error('early-start.js cannot be inlined as it is');
  return text;
}

const memo = new WeakMap<Pick<TAssetStore, 'read'>, TInlineScript>();

/** The inline script of the assets' version. */
export function earlyStart(assets: Pick<TAssetStore, 'read'> = signingAssets()): TInlineScript {
  let made = memo.get(assets);
  if (!made) {
    const source = assets.read('early-start.js');
    if (!source) throw new Error('early-start.js is missing from the page assets');
    const text = inlineText(source.toString('utf8'));
    made = { html: `<script>${text}</script>`, source: cspHashOf(text) };
    memo.set(assets, made);
  }
  return made;
}
