// Stored items as JSON lines and back. DynamoDB items may hold what JSON has no word for (a
// set, binary): those are written as tagged objects and read back as they were, so an item
// restored is the item exported, attribute for attribute.
import type { TStoredRecord } from '../ports/exports';

const SET = '$set';
const BINARY = '$base64';

function replacer(this: unknown, _key: string, value: unknown): unknown {
  if (value instanceof Set) return { [SET]: [...value] };
  if (value instanceof Uint8Array) return { [BINARY]: Buffer.from(value).toString('base64') };
  // Buffer's own toJSON runs before the replacer sees it.
  if (value && typeof value === 'object' && (value as { type?: unknown }).type === 'Buffer') {
    const data = (value as { data?: unknown }).data;
    if (Array.isArray(data)) return { [BINARY]: Buffer.from(data as number[]).toString('base64') };
  }
  return value;
}

function reviver(_key: string, value: unknown): unknown {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const o = value as Record<string, unknown>;
    const keys = Object.keys(o);
    if (keys.length === 1 && Array.isArray(o[SET])) return new Set(o[SET] as unknown[]);
    if (keys.length === 1 && typeof o[BINARY] === 'string') return Buffer.from(o[BINARY] as string, 'base64');
  }
  return value;
}

export const recordsToJsonl = (records: TStoredRecord[]) =>
  records.map((r) => JSON.stringify(r, replacer)).join('\n') + (records.length > 0 ? '\n' : '');

/** One line's record, or an error naming the line. */
export function recordsFromJsonl(text: string): TStoredRecord[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, i) => {
      const r = JSON.parse(line, reviver) as TStoredRecord;
      if (typeof r?.pk !== 'string' || typeof r?.sk !== 'string') {
        throw new Error(`Line ${i + 1} of the records is not a stored item (it has no pk and sk).`);
      }
      return r;
    });
}

/** Two records alike, attribute for attribute, in any key order. */
export function sameRecord(a: TStoredRecord, b: TStoredRecord): boolean {
  const canon = (v: unknown): unknown => {
    if (v instanceof Set) return { [SET]: [...v].map(canon).sort() };
    if (v instanceof Uint8Array) return { [BINARY]: Buffer.from(v).toString('base64') };
    if (Array.isArray(v)) return v.map(canon);
    if (v && typeof v === 'object')
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .map((k) => [k, canon((v as Record<string, unknown>)[k])]),
      );
    return v;
  };
  return JSON.stringify(canon(a)) === JSON.stringify(canon(b));
}
