// Keys and entities of the Person and its lookup items, declared once.
import type { TPerson, TPersonFilter } from '#shared/domain/persons/person';
import { normalizeEmail, normalizePhone } from '#shared/domain/ports/contact-keys';
import { defineEntity } from '../entity';
import { accountPartition } from './account-partition';

export const personKeys = {
  /** The person itself, in its account's partition. */
  item: (accountId: string, id: string) => ({ pk: accountPartition(accountId), sk: `PERSON#${id}` }),
  /** by-list-order: newest first (queried backwards). */
  listPartition: (accountId: string) => `${accountPartition(accountId)}#PERSONS`,
  listOrder: (p: TPerson) => ({ lpk: personKeys.listPartition(p.accountId), lsk: `${p.created}#${p.id}` }),
  /** Lookup items for the email, phone and search filters: one per term, sorted by term. */
  termPartition: (accountId: string) => `${accountPartition(accountId)}#PERSON_TERMS`,
  term: (accountId: string, term: string, id: string) => ({
    pk: personKeys.termPartition(accountId),
    sk: `${term}#${id}`,
  }),
};

const words = (s: string, split: RegExp) =>
  s
    .toLowerCase()
    .split(split)
    .filter((w) => w.length > 0);

/** What a search word may be a prefix of: name words, emails whole and in parts, phone digits. */
function searchTokens(p: TPerson): Set<string> {
  const tokens = new Set<string>([...words(p.name, /\s+/), ...words(p.name, /[^\p{L}\p{N}]+/u)]);
  for (const c of p.channels) {
    if (c.email) {
      // The whole address, the words of its local part and its domain: "com" alone would make
      // every .com address match a search for "co".
      const email = normalizeEmail(c.email);
      const at = email.lastIndexOf('@');
      tokens.add(email);
      for (const w of words(email.slice(0, at), /[^\p{L}\p{N}]+/u)) tokens.add(w);
      tokens.add(email.slice(at + 1));
    }
    if (c.phone) tokens.add(normalizePhone(c.phone).replace('+', ''));
  }
  return tokens;
}

/** A search word as it is compared: phone-like words by their digits. */
function searchWord(w: string): string {
  const lower = w.toLowerCase();
  return /^[+\d\s().-]+$/.test(lower) && /\d/.test(lower) ? lower.replace(/\D/g, '') : lower;
}

export function searchWords(search: string): string[] {
  return [
    ...new Set(
      search
        .split(/\s+/)
        .filter((w) => w.length > 0)
        .map(searchWord),
    ),
  ].filter((w) => w.length > 0);
}

/** Every lookup term of a person; lookup items are exactly these. */
export function personTerms(p: TPerson): string[] {
  const terms = new Set<string>();
  for (const c of p.channels) {
    if (c.email) terms.add(`e:${normalizeEmail(c.email)}`);
    if (c.phone) terms.add(`p:${normalizePhone(c.phone)}`);
  }
  for (const t of searchTokens(p)) terms.add(`s:${t}`);
  return [...terms];
}

/**
 * The filter checked against the person itself: lookup items are written after the person,
 * so one left behind by an interrupted write must not produce a wrong result.
 */
export function personMatches(p: TPerson, f: TPersonFilter): boolean {
  const terms = new Set(personTerms(p));
  if (f.email && !terms.has(`e:${normalizeEmail(f.email)}`)) return false;
  if (f.phone && !terms.has(`p:${normalizePhone(f.phone)}`)) return false;
  if (f.search) {
    const tokens = [...searchTokens(p)];
    return searchWords(f.search).every((w) => tokens.some((t) => t.startsWith(w)));
  }
  return true;
}

/**
 * Metadata is any JSON the client sent; stored as text so no value of it can break DynamoDB's
 * type rules (number precision, nesting depth, empty sets).
 */
export const personEntity = defineEntity<TPerson>({
  name: 'person',
  version: 1,
  key: (p) => personKeys.item(p.accountId, p.id),
  indexes: { byListOrder: personKeys.listOrder },
  encode: (p) => ({
    id: p.id,
    accountId: p.accountId,
    name: p.name,
    metadata: JSON.stringify(p.metadata),
    isUser: p.isUser,
    channels: p.channels,
    created: p.created,
    updated: p.updated,
    version: p.version,
  }),
  decode: (item) => ({
    id: item.id as string,
    accountId: item.accountId as string,
    name: item.name as string,
    metadata: JSON.parse(item.metadata as string) as Record<string, unknown>,
    isUser: Boolean(item.isUser),
    channels: (item.channels as TPerson['channels']) ?? [],
    created: item.created as string,
    updated: item.updated as string,
    version: item.version as number,
  }),
});

/** A lookup term of a person; `created` orders what a term query finds. */
export const personTermEntity = defineEntity<{
  accountId: string;
  term: string;
  id: string;
  created: string;
}>({
  name: 'person-term',
  version: 1,
  key: (t) => personKeys.term(t.accountId, t.term, t.id),
});
