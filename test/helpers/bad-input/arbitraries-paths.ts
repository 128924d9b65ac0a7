// Arbitraries for where bad input goes: endpoints, write routes, odd paths and odd query strings of
// one endpoint group (TEndpointSet).
import fc from 'fast-check';
import { anyText, pct, type TEndpointSet } from './arbitraries';
import { KiB } from './send';

/** Path segments a client should never send: not uuids, escapes, dot segments, very long ones. */
const ODD_SEGMENTS = [
  '%zz',
  '%',
  '%2',
  '%2F',
  '%2f',
  '..',
  '.',
  '%2e%2e',
  '%2E',
  '%00',
  '%C0%80',
  '%ED%A0%80',
  '%FF',
  'null',
  'undefined',
  '0',
  '-1',
  '__proto__',
  'constructor',
  'hasOwnProperty',
  '{id}',
  '%7Bid%7D',
  '*',
  ';',
  ',',
  '~',
  "'",
  '"',
  '<script>',
  '@',
  ':',
  '$',
] as const;

const queryKeyArb = (keys: readonly string[]) =>
  fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...keys) }, { weight: 1, arbitrary: anyText.map(pct) });

const queryValueArb = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      '0',
      '-1',
      'abc',
      '1000',
      '1e3',
      '1.5',
      '',
      '+1',
      '%2B1',
      '0x10',
      '999999999',
      '1000000000',
      '9'.repeat(30),
      '%zz',
      '%',
      '%ED%A0%80',
      '%FF',
      '%EF%BC%91', // fullwidth digit one
      'NaN',
      'Infinity',
      'null',
      '%20',
      '%2B',
      '(',
      '*',
      'a%40b.co',
    ),
  },
  { weight: 2, arbitrary: anyText.map(pct) },
  // Huge: far past a 200-character limit (persons' search), yet under Node's 16 KiB request head.
  { weight: 1, arbitrary: fc.integer({ min: 200, max: 1_800 }).map((n) => pct('é'.repeat(n))) },
  { weight: 1, arbitrary: fc.integer({ min: 200, max: 10 * KiB }).map((n) => 'x'.repeat(n)) },
  { weight: 1, arbitrary: fc.integer({ min: 2, max: 300 }).map((n) => Array(n).fill('a').join('+')) },
);

export function pathArbitraries(set: TEndpointSet) {
  /** Every endpoint, with and without the trailing slash, existing and missing ids. */
  const endpointArb = fc.oneof(fc.constantFrom(...set.endpoints), fc.uuid().map(set.itemPath));

  /** The routes that read a body: where the body's validity decides the answer. */
  const writeRouteArb = fc.constantFrom(...set.writeRoutes);

  const oddSegmentArb = fc.oneof(
    fc.constantFrom(...ODD_SEGMENTS, ...set.ownSegments),
    fc.uuid(),
    fc.uuid().map((u) => u.toUpperCase()),
    fc.uuid().map((u) => `${u}x`),
    fc.uuid().map((u) => u.replaceAll('-', '')),
    fc.uuid().map((u) => `${u}%00`),
    fc.uuid().map((u) => ` ${u}`.replace(' ', '%20')),
    anyText.map(pct),
    // Long, yet twice of it stays under Node's 16 KiB request head (beyond it: its own test).
    fc.integer({ min: 256, max: 7 * KiB }).map((n) => 'a'.repeat(n)),
  );

  /**
   * Odd paths below /api/v2, also those whose dot segments lead out of it once resolved: a path
   * sent under the API answers as the API, with its error body, wherever it leads.
   */
  const oddPathArb = fc.oneof(
    ...set.oddPaths.withSegment.map((at) => oddSegmentArb.map(at)),
    fc.constantFrom(...set.oddPaths.fixed),
  );

  const queryArb = fc
    .array(fc.tuple(queryKeyArb(set.queryKeys), queryValueArb), { maxLength: 8 })
    .map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join('&'))
    .filter((q) => q.length < 11 * KiB);

  return { endpointArb, writeRouteArb, oddSegmentArb, oddPathArb, queryArb };
}
