// Read capacity of DynamoDB calls. The figures come from the table itself: the bench sets
// ReturnConsumedCapacity: 'TOTAL' on every command and sums what comes back (dynalite reports it,
// computed from the items it read). `ownReadUnits` computes the same from the items a call
// returned, by DynamoDB's published rules, to check dynalite's figure where the answer carries
// whole items (no ProjectionExpression). Kept free of I/O so it can be unit-tested.

/** A command's ConsumedCapacity: one object (Get, Query) or one per table (BatchGet, BatchWrite). */
export function consumedUnits(output: unknown): number | undefined {
  const cc = (output as { ConsumedCapacity?: unknown } | undefined)?.ConsumedCapacity;
  if (cc === undefined) return undefined;
  const list = Array.isArray(cc) ? cc : [cc];
  return list.reduce(
    (sum: number, c) => sum + Number((c as { CapacityUnits?: number }).CapacityUnits ?? 0),
    0,
  );
}

const utf8 = (s: string) => Buffer.byteLength(s, 'utf8');

/**
 * Bytes of a number as DynamoDB stores it: the significant digits packed two to a byte (aligned on
 * the decimal exponent, so an even count of digits may need one byte more), one byte of
 * exponent, one more when negative. DynamoDB documents "about 1 byte per two significant digits,
 * plus 1"; this is that rule with the alignment dynalite also applies.
 */
export function numberBytes(n: number): number {
  if (!Number.isFinite(n)) throw new RangeError(`DynamoDB has no number ${n}`);
  if (n === 0) return 1;
  const [mantissa, exp] = Math.abs(n).toExponential().split('e') as [string, string];
  const digits = mantissa.replace('.', '').replace(/0+$/, '').length;
  const e = Number(exp);
  const aligned = digits % 2 === 0 && e % 2 === 0 ? 1 : 0;
  return 1 + Math.ceil(digits / 2) + aligned + (n < 0 ? 1 : 0);
}

/** Bytes of one attribute value (document-client form: plain JS values). */
export function valueBytes(v: unknown): number {
  if (v === null || typeof v === 'boolean') return 1;
  if (typeof v === 'string') return utf8(v);
  if (typeof v === 'number') return numberBytes(v);
  if (typeof v === 'bigint') return numberBytes(Number(v));
  if (v instanceof Uint8Array) return v.byteLength;
  if (v instanceof Set) return [...v].reduce((s: number, x) => s + valueBytes(x), 0);
  // A List or Map: 3 bytes, plus 1 an element; a Map's elements also carry their names.
  if (Array.isArray(v)) return 3 + v.reduce((s: number, x) => s + 1 + valueBytes(x), 0);
  if (typeof v === 'object') {
    const entries = Object.entries(v).filter(([, x]) => x !== undefined);
    return 3 + entries.length + itemBytes(Object.fromEntries(entries));
  }
  throw new TypeError(`not a DynamoDB value: ${typeof v}`);
}

/** An item's size: the names and values of its attributes (UTF-8 for strings). */
export function itemBytes(item: Record<string, unknown>): number {
  let size = 0;
  for (const [name, v] of Object.entries(item)) {
    if (v === undefined) continue;
    size += utf8(name) + valueBytes(v);
  }
  return size;
}

const KB4 = 4096;

/**
 * Read units by DynamoDB's rules: GetItem and BatchGetItem count each item apart, rounded up to
 * 4 KB (a missing item still costs one); Query counts the summed size of the items (index
 * entries, for an index) it read, rounded up to 4 KB. Eventually consistent reads cost half.
 */
export function readUnits(kind: 'item' | 'query', items: Record<string, unknown>[], consistent: boolean) {
  const factor = consistent ? 1 : 0.5;
  if (kind === 'query') {
    const bytes = items.reduce((s, i) => s + itemBytes(i), 0);
    return Math.ceil(bytes / KB4) * factor;
  }
  return items.reduce((s, i) => s + Math.max(1, Math.ceil(itemBytes(i) / KB4)) * factor, 0);
}

interface TReadCall {
  command: string;
  input: Record<string, unknown>;
  output: Record<string, unknown>;
}

/**
 * What `readUnits` makes of a read command's answer, or undefined when the answer does not carry
 * what was read: a ProjectionExpression (the units count the whole items or index entries), a
 * filter, a GetItem that found nothing (its key is all we know), or a command that is not a read.
 */
export function ownReadUnits({ command, input, output }: TReadCall): number | undefined {
  const consistent = input.ConsistentRead === true;
  if (input.ProjectionExpression || input.AttributesToGet || input.FilterExpression) return undefined;
  if (command === 'GetItem') {
    const item = output.Item as Record<string, unknown> | undefined;
    return item ? readUnits('item', [item], consistent) : undefined;
  }
  if (command === 'Query') {
    return readUnits('query', (output.Items as Record<string, unknown>[] | undefined) ?? [], consistent);
  }
  if (command === 'BatchGetItem') {
    const requests = input.RequestItems as Record<string, Record<string, unknown>>;
    const responses = (output.Responses ?? {}) as Record<string, Record<string, unknown>[]>;
    let units = 0;
    for (const [table, req] of Object.entries(requests)) {
      if (req.ProjectionExpression || req.AttributesToGet) return undefined;
      const found = responses[table] ?? [];
      const keys = (req.Keys as unknown[]).length;
      const unprocessed = (
        (output.UnprocessedKeys as Record<string, { Keys?: unknown[] }> | undefined)?.[table]?.Keys ?? []
      ).length;
      // Keys asked for but neither found nor left unprocessed were missing: one unit each.
      const missing = keys - found.length - unprocessed;
      units +=
        readUnits('item', found, req.ConsistentRead === true) + missing * (req.ConsistentRead ? 1 : 0.5);
    }
    return units;
  }
  return undefined;
}

/** Page N of a list costs no more than N times page 1: the ratio, and whether it holds. */
export function pageCostRatio(page1: number, pageN: number, n: number): { ratio: number; ok: boolean } {
  if (!(n >= 1)) throw new RangeError('n must be ≥ 1');
  if (page1 <= 0) return { ratio: pageN <= 0 ? 1 : Number.POSITIVE_INFINITY, ok: pageN <= 0 };
  const ratio = pageN / page1;
  return { ratio, ok: ratio <= n };
}

/** "3 (Query ×2, BatchGetItem)": the count, then each command with how often it was sent. */
export function describeCommands(commands: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const c of commands) counts.set(c, (counts.get(c) ?? 0) + 1);
  const parts = [...counts].map(([c, n]) => (n > 1 ? `${c} ×${n}` : c));
  return `${commands.length} (${parts.join(', ') || 'none'})`;
}
