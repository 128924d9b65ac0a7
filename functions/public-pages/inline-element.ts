// What the signing page's head carries inline rather than as a file of its own (its one script,
// early-start.ts; its style sheet, page-style.ts): the element, and the hash source its CSP
// allows it by, so the policy needs no 'unsafe-inline' and no nonce. Made once per asset store
// and file (perAssetStore, which the head's catalog block uses too: page-words.ts): the text
// never changes with the page.
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

/**
 * A memo of what is made from an asset store's files, per store and key: made once, since the
 * files of a version never change and every page of it carries the same text. What fails to be
 * made is not kept.
 */
export function perAssetStore<V>() {
  const memo = new WeakMap<Pick<TAssetStore, 'read'>, Map<string, V>>();
  return (assets: Pick<TAssetStore, 'read'>, key: string, make: () => V): V => {
    let made = memo.get(assets);
    if (!made) {
      made = new Map();
      memo.set(assets, made);
    }
    let value = made.get(key);
    if (value === undefined) {
      value = make();
      made.set(key, value);
    }
    return value;
  };
}

const elements = perAssetStore<TInlineElement>();

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
  return elements(assets, name, () => {
    const source = assets.read(name);
    if (!source) throw new Error(`${name} is missing from the page assets`);
    const text = textOf(source.toString('utf8'));
    if (new RegExp(`</${tag}|<!--`, 'i').test(text)) throw new Error(`${name} cannot be inlined as it is`);
    return { html: `<${tag}>${text}</${tag}>`, source: cspHashOf(text) };
  });
}
