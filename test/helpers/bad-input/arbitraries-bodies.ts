// Arbitraries for bad bodies: JSON values, shaped bodies with wrong types, deep JSON, bytes that are
// not UTF-8, form bodies and bodies of any format, for one endpoint group (TEndpointSet).
import fc from 'fast-check';
import { anyText, hugeString, pct, type TEndpointSet } from './arbitraries';
import { KiB } from './send';

/** Form keys that no field has, for any group: prototype pollution and broken brackets. */
const ODD_FORM_KEYS = [
  '__proto__[polluted]',
  'constructor[prototype][polluted]',
  'a[b]c',
  '[]',
  '[',
  ']',
  '.',
  '',
] as const;

/** Malformed and unusual %-escapes and separators in a form value. */
const ODD_FORM_VALUES = [
  '%',
  '%z',
  '%zz',
  '%E2%82',
  '%ff',
  '%ED%A0%80',
  '%C0%80',
  '%00',
  '+',
  '=',
  '==',
  '%%',
  '%u00e9',
] as const;

/** Byte sequences that are invalid UTF-8 whatever comes before or after them. */
const INVALID_UTF8: readonly number[][] = [
  [0x20, 0xff],
  [0x20, 0xfe],
  [0x20, 0x80],
  [0x20, 0xc0, 0x80], // overlong
  [0x20, 0xed, 0xa0, 0x80], // an encoded surrogate
  [0x20, 0xf4, 0x90, 0x80, 0x80], // above U+10FFFF
  [0x20, 0xe2, 0x82, 0x20], // truncated
];

export interface TDeepJson {
  depth: number;
  shape: string;
  where: string;
}

export function bodyArbitraries(set: TEndpointSet) {
  const jsonBodyArb = fc.oneof(
    { weight: 3, arbitrary: fc.jsonValue({ stringUnit: 'binary' }).map((v) => JSON.stringify(v)) },
    { weight: 4, arbitrary: set.shapedBody.map((v) => JSON.stringify(v)) },
    { weight: 2, arbitrary: fc.constantFrom(...set.oddJsonTexts) },
    { weight: 1, arbitrary: hugeString.map((s) => JSON.stringify(set.stringAt.field(s))) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(hugeString, fc.constantFrom(...set.stringAt.nested))
        .map(([s, at]) => JSON.stringify(at(s))),
    },
  );

  /** `depth` levels of arrays or objects, somewhere in a body (the text is built when sent). */
  const deepJsonArb: fc.Arbitrary<TDeepJson> = fc.record({
    depth: fc.oneof(fc.integer({ min: 1, max: 200 }), fc.noBias(fc.integer({ min: 1_000, max: 150_000 }))),
    shape: fc.constantFrom('array', 'object'),
    where: fc.constantFrom(...Object.keys(set.nestedJsonAt)),
  });
  /** Up to 150,000 levels still fit in 1 MiB (6 bytes a level for objects). */
  function deepJsonText({ depth, shape, where }: TDeepJson): string {
    const nested =
      shape === 'array'
        ? `${'['.repeat(depth)}${']'.repeat(depth)}`
        : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    const at = set.nestedJsonAt[where];
    return at ? at(nested) : nested;
  }

  const invalidUtf8Arb = fc
    .record({
      bytes: fc.uint8Array({ maxLength: 300 }),
      bad: fc.constantFrom(...INVALID_UTF8),
      at: fc.nat(),
      frame: fc.constantFrom('bytes', 'json', 'form'),
    })
    .map(({ bytes, bad, at, frame }) => {
      const i = at % (bytes.length + 1);
      const junk = Buffer.concat([
        Buffer.from(bytes.subarray(0, i)),
        Buffer.from(bad),
        Buffer.from(bytes.subarray(i)),
      ]);
      if (frame === 'bytes') return junk;
      const [before, after] = set.invalidUtf8Frames[frame];
      return Buffer.concat([Buffer.from(before), junk, Buffer.from(after)]);
    });

  const formKeyArb = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...set.formKeys, ...ODD_FORM_KEYS) },
    { weight: 1, arbitrary: anyText.map(pct) },
    { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
  );
  const formValueArb = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom('', 'x', ...set.formValues, ...ODD_FORM_VALUES) },
    { weight: 1, arbitrary: anyText.map(pct) },
    { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 20 * KiB }).map((n) => 'x'.repeat(n)) },
  );
  /** Form bodies: repeated keys, nested brackets and dots, malformed %-escapes, odd separators. */
  const formBodyArb = fc
    .tuple(
      fc.array(fc.tuple(formKeyArb, formValueArb, fc.boolean()), { maxLength: 30 }),
      fc.constantFrom('&', '&', '&', '&&', ';'),
    )
    .map(([pairs, sep]) => pairs.map(([k, v, withEq]) => (withEq || v !== '' ? `${k}=${v}` : k)).join(sep));

  const anyBodyArb = fc.oneof(
    ...set.typedBodies.map((b) => fc.constant(Buffer.from(b))),
    fc.constant(Buffer.alloc(0)),
    fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b)),
  );

  return { jsonBodyArb, deepJsonArb, deepJsonText, invalidUtf8Arb, formBodyArb, anyBodyArb };
}
