// Lookup terms of a bundle (tags, document templates, search tokens) and the search filter
// checked against the bundle itself. The lookup items are exactly `bundleTerms(bundle)`.
import type { TBundle } from '#shared/domain/bundles/bundle';
import { normalizeEmail, normalizePhone } from '#shared/domain/ports/contact-keys';

/** A sort key holds at most 1,024 bytes; a token of 200 code points stays far below. */
const MAX_TOKEN = 200;

const clip = (s: string) => {
  const points = Array.from(s);
  return points.length > MAX_TOKEN ? points.slice(0, MAX_TOKEN).join('') : s;
};

const words = (s: string, split: RegExp) =>
  s
    .toLowerCase()
    .split(split)
    .filter((w) => w.length > 0);

const textWords = (s: string) => [...words(s, /\s+/), ...words(s, /[^\p{L}\p{N}]+/u)];

/**
 * What a search word may be a prefix of: the slug, the label's and custom key's words (and the
 * custom key whole), each signer's name words, email (whole, its local part's words, its
 * domain) and phone digits.
 */
export function bundleSearchTokens(b: TBundle): Set<string> {
  const tokens = new Set<string>([b.id.toLowerCase(), ...textWords(b.label)]);
  if (b.customKey) {
    tokens.add(b.customKey.toLowerCase());
    for (const w of textWords(b.customKey)) tokens.add(w);
  }
  for (const p of b.packets) {
    for (const w of textWords(p.name)) tokens.add(w);
    if (p.email) {
      // As for persons: "com" alone would make every .com address match a search for "co".
      const email = normalizeEmail(p.email);
      const at = email.lastIndexOf('@');
      tokens.add(email);
      for (const w of words(email.slice(0, at), /[^\p{L}\p{N}]+/u)) tokens.add(w);
      tokens.add(email.slice(at + 1));
    }
    if (p.phone) tokens.add(normalizePhone(p.phone).replace('+', ''));
  }
  return new Set([...tokens].filter((t) => t.length > 0).map(clip));
}

const phoneLike = (s: string) => /^[+\d\s().-]+$/.test(s) && /\d/.test(s);

/**
 * The words of a search, each with the forms it may take: itself (lower case) and, when it looks
 * like a phone number, its digits. A search made only of phone characters ("+1 555 010-3000")
 * is one phone number, not several words.
 */
export function bundleSearchWords(search: string): string[][] {
  const trimmed = search.trim();
  if (trimmed === '') return [];
  if (phoneLike(trimmed) && /\s/.test(trimmed)) return [[clip(trimmed.replace(/\D/g, ''))]];
  const seen = new Set<string>();
  const out: string[][] = [];
  for (const raw of trimmed.split(/\s+/)) {
    const lower = clip(raw.toLowerCase());
    if (seen.has(lower)) continue;
    seen.add(lower);
    const digits = phoneLike(lower) ? clip(lower.replace(/\D/g, '')) : lower;
    out.push(digits === lower ? [lower] : [lower, digits]);
  }
  return out;
}

/** Every word of the search starts a token of the bundle, in one of its forms. */
export function bundleMatchesSearch(b: TBundle, search: string): boolean {
  const tokens = [...bundleSearchTokens(b)];
  return bundleSearchWords(search).every((forms) => forms.some((f) => tokens.some((t) => t.startsWith(f))));
}

export const tagTerm = (tag: string) => `t:${tag}`;
export const templateTerm = (templateId: string) => `d:${templateId}`;
export const searchTerm = (token: string) => `s:${token}`;

/** Every lookup term of a bundle. */
export function bundleTerms(b: TBundle): string[] {
  const terms = new Set<string>(b.tags.map(tagTerm));
  for (const d of b.documents) if (d.templateId) terms.add(templateTerm(d.templateId));
  for (const t of bundleSearchTokens(b)) terms.add(searchTerm(t));
  return [...terms];
}
