// What the signing page's head carries inline rather than as a file of its own (its one script,
// early-start.ts; its style sheet, page-style.ts): the element, and the hash source its CSP
// allows it by, so the policy needs no 'unsafe-inline' and no nonce. Made once per asset store
// and file: the text never changes with the page.
import { createHash } from 'node:crypto';
import type { TAssetStore } from './assets';

export interface TInlineElement {
  /** The element, as the page's head carries it. */
  html: string;
  /** The CSP source that allows it: `'sha256-<base64>'`. */
  source: string;
}

/** A CSP hash source of exactly these characters (what the browser hashes: the element's text). */
export const cspHashOf = (text: string) =>
  `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

const memo = new WeakMap<Pick<TAssetStore, 'read'>, Map<string, TInlineElement>>();

/**
 * Asset `name` as a `<tag>` element, its text as `textOf` makes it from the file. Refused when
 * the text could end its element early ("</tag", any case) or upset it ("<!--").
 */
export function inlineElement(
  assets: Pick<TAssetStore, 'read'>,
  name: string,
  tag: 'script' | 'style',
  textOf: (source: string) => string = (source) => source,
): TInlineElement {
  let made = memo.get(assets);
  if (!made) {
    made = new Map();
    memo.set(assets, made);
  }
  let element = made.get(name);
  if (!element) {
    const source = assets.read(name);
    if (!source) throw new Error(`${name} is missing from the page assets`);
    const text = textOf(source.toString('utf8'));
    if (new RegExp(`</${tag}|<!--`, 'i').test(text)) throw new Error(`${name} cannot be inlined as it is`);
    element = { html: `<${tag}>${text}</${tag}>`, source: cspHashOf(text) };
    made.set(name, element);
  }
  return element;
}
