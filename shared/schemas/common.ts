// The building blocks of the wire schemas, read the ways the official clients send values (form
// bodies, DRF booleans, "" for absent). Checking input against a schema and raising the API's
// ValidationError is the domain's (shared/domain/parse-input.ts): the schemas import nothing of it.
import * as z from 'zod';

/** Absent, null and "" all mean "not given", as the official clients send any of them. */
export function optional<T extends z.ZodType>(schema: T) {
  return z.preprocess((v) => (v === '' || v === null ? undefined : v), schema.optional());
}

/** Text that DynamoDB and every client can store and show: no lone UTF-16 surrogates. */
export function zText(max: number) {
  return z
    .string()
    .max(max, `Ensure this field has no more than ${max} characters.`)
    .refine((s) => s.isWellFormed(), 'Text contains an invalid character.');
}

/** DRF-style booleans: form bodies send "True"/"False", JSON clients sometimes "true". */
export const zBoolean = z.preprocess((v) => {
  if (typeof v !== 'string') return v;
  const s = v.toLowerCase();
  if (s === 'true' || s === '1') return true;
  if (s === 'false' || s === '0') return false;
  return v;
}, z.boolean());

/** A form body with a single value for a list field carries a string, not a list. */
export function zList<T extends z.ZodType>(
  item: T,
  size: { min?: number; max?: number; minMessage?: string } = {},
) {
  let list = z.array(item);
  if (size.min !== undefined)
    list = list.min(size.min, size.minMessage ?? `Ensure this list has at least ${size.min} items.`);
  if (size.max !== undefined) list = list.max(size.max, `Ensure this list has at most ${size.max} items.`);
  return z.preprocess((v) => (typeof v === 'string' ? [v] : v), list);
}

/** How deep a JSON value nests, counted without recursion (the value may be hostile). */
export function jsonDepth(value: unknown, limit: number): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    deepest = Math.max(deepest, depth);
    if (deepest > limit) return deepest;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return deepest;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A JSON object kept exactly as sent (own keys such as `__proto__` included), at most
 * `maxDepth` levels deep and `maxBytes` as JSON. The depth is checked first so that measuring
 * the size cannot overflow the stack.
 */
export function zJsonObject(maxBytes: number, maxDepth = 32) {
  return z
    .custom<Record<string, unknown>>(isPlainObject, 'Expected a JSON object.')
    .refine((o) => jsonDepth(o, maxDepth) <= maxDepth, {
      message: `Ensure this object nests at most ${maxDepth} levels deep.`,
      abort: true,
    })
    .refine((o) => Buffer.byteLength(JSON.stringify(o), 'utf8') <= maxBytes, {
      message: `Ensure this object is at most ${maxBytes} bytes as JSON.`,
    });
}

/** A comma-separated list; empty items are ignored, and its errors name the parameter itself. */
export function zCsv<T extends z.ZodType>(item: T, max: number) {
  return zText(2000).transform((raw, ctx) => {
    const values: z.output<T>[] = [];
    for (const piece of raw.split(',')) {
      if (piece.trim() === '') continue;
      const parsed = item.safeParse(piece);
      if (!parsed.success) {
        ctx.addIssue({ code: 'custom', message: `"${piece}": ${parsed.error.issues[0]!.message}` });
        return z.NEVER;
      }
      if (!values.includes(parsed.data)) values.push(parsed.data);
    }
    if (values.length > max) {
      ctx.addIssue({ code: 'custom', message: `Ensure this list has at most ${max} items.` });
      return z.NEVER;
    }
    return values;
  });
}
