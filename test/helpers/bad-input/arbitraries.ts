// fast-check arbitraries for bad input that fit any endpoint group, the run settings of the bad-input
// properties, and TEndpointSet: what a group supplies for the arbitraries built from it
// (arbitraries-paths.ts, arbitraries-bodies.ts).
import fc from 'fast-check';
import { KiB } from './send';

// -------------------------------------------------------------------------------------------------
// Runs

const SCALE = Math.max(1, Number(process.env.BAD_INPUT_RUNS_SCALE ?? '1') || 1);
/**
 * Bounded runs, and a time limit after which a property stops with the runs it made (and a
 * failure found by then is reported with the smallest input shrunk so far). Skipping the rest
 * instead would count them as failed preconditions and fail the test for the machine's speed.
 * Where a property lists `examples`, they are inputs the contract names outright (10 MiB bodies,
 * 1e308, lone surrogates…): always tried first, the random runs explore around them.
 * Raise them for a deeper run with BAD_INPUT_RUNS_SCALE=10.
 */
export const runs = (n: number) => ({ numRuns: n * SCALE, interruptAfterTimeLimit: 15_000 * SCALE });
/** Properties shrink on failure, which costs requests; give them room beyond vitest's default. */
export const PROPERTY_TIMEOUT = 90_000;

// -------------------------------------------------------------------------------------------------
// What an endpoint group supplies

/** A method and a path below /api/v2. */
export type TRoute = [method: string, path: string];

/**
 * An endpoint group under test (persons and rate_limit, bundles…). Paths are below /api/v2 and may
 * hold FIXTURE (send.ts) for the id of a record that exists. Lists are tried in their order, so keep
 * the order of a set once properties have run with it: a seed then replays the same inputs.
 */
export interface TEndpointSet {
  // Paths (arbitraries-paths.ts)
  /** Every endpoint, with and without the trailing slash, existing and missing ids. */
  endpoints: readonly string[];
  /** The path of the record with this id; given random uuids, for records that do not exist. */
  itemPath: (id: string) => string;
  /** The routes that read a body: where the body's validity decides the answer. */
  writeRoutes: readonly TRoute[];
  /** The group's own path segments, tried as odd segments where they do not belong. */
  ownSegments: readonly string[];
  /** Odd paths: the group's paths around an odd segment, and fixed ones (empty segments, case, dots). */
  oddPaths: { withSegment: readonly ((segment: string) => string)[]; fixed: readonly string[] };
  /** Query parameter names the group's endpoints read, and near misses of them. */
  queryKeys: readonly string[];

  // Bodies (arbitraries-bodies.ts)
  /** Objects with the keys of the group's record and values of any type (build them from wrongish). */
  shapedBody: fc.Arbitrary<unknown>;
  /** JSON text that JSON.stringify never writes (numbers out of range, escaped lone surrogates), and syntax errors. */
  oddJsonTexts: readonly string[];
  /** Bodies that carry a string: in the group's main field, and nested in others. */
  stringAt: { field: (s: string) => unknown; nested: readonly ((s: string) => unknown)[] };
  /** Bodies that carry nested JSON text somewhere, by name of the place. */
  nestedJsonAt: Readonly<Record<string, (nested: string) => string>>;
  /** Text before and after the bytes that are not UTF-8, in a JSON body and in a form body. */
  invalidUtf8Frames: { json: readonly [string, string]; form: readonly [string, string] };
  /** Form keys of the group's fields: nested, repeated, dotted, out of range. */
  formKeys: readonly string[];
  /** Plausible form values for the group's fields, plain and %-encoded. */
  formValues: readonly string[];
  /** A valid-looking body in each format (JSON, form, XML, multipart), to send with any Content-Type. */
  typedBodies: readonly string[];
}

// -------------------------------------------------------------------------------------------------
// Building blocks

export const ALL_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE'] as const;
export const WRITE_METHODS = ['POST', 'PUT', 'PATCH'] as const;
export const methodArb = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...WRITE_METHODS) },
  { weight: 2, arbitrary: fc.constantFrom(...ALL_METHODS) },
);

/** Percent-encodes the UTF-8 bytes of any string (lone surrogates become U+FFFD's bytes). */
export const pct = (s: string) =>
  [...Buffer.from(s, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');

/** A header value as bytes: UTF-8 text passed to node:http as the Latin-1 string of those bytes. */
export const headerBytes = (s: string) => {
  // node:http refuses control characters other than tab in a header value.
  const kept = [...s].filter((c) => c === '\t' || (c >= ' ' && c !== '\u007f')).join('');
  return Buffer.from(kept, 'utf8').toString('latin1');
};

export const anyText = fc.string({ unit: 'binary', maxLength: 40 });

/** Strings up to ~200 KB, of characters that are 1, 2, 4 bytes in UTF-8 or escaped in JSON. */
export const hugeString = fc
  .tuple(
    fc.integer({ min: 1, max: 200 * KiB }),
    fc.constantFrom('x', 'é', '😀', '\ud800', '"', '\\', ' ', '\u0000'),
  )
  .map(([n, c]) => c.repeat(Math.max(1, Math.floor(n / c.length))));

/** Values that are almost right: valid-looking emails, phones, kinds and uuids mixed with junk. */
export const wrongish: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 2, stringUnit: 'binary' }),
  anyText,
  fc.constantFrom(
    'a@b.co',
    'A@B.CO',
    '+1 555 0100',
    '555',
    'em',
    'mp',
    'xx',
    '',
    ' ',
    null,
    true,
    'True',
    1e308,
    -1e308,
    5e-324,
    -0,
    2 ** 53 + 1,
    '\ud800',
    '\udfff@x.co',
    [],
    {},
  ),
  fc.uuid(),
  hugeString,
);

export const contentTypeArb = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom<string | undefined>(
      undefined,
      'text/plain',
      'text/plain; charset=utf-8',
      'multipart/form-data',
      'multipart/form-data; boundary=',
      'multipart/form-data; boundary=xyz',
      'application/xml',
      'text/xml',
      'application/json; charset=latin1',
      'application/json; charset=utf-16',
      'APPLICATION/JSON',
      'application/json;',
      'application/json ; charset=utf-8',
      'application/merge-patch+json',
      'application/x-www-form-urlencoded; charset=latin1',
      'application/octet-stream',
      '*/*',
      'application',
      'json',
      ';',
      '',
      ' ',
      'image/png',
    ),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }).map(headerBytes) },
);

/** Names JavaScript objects inherit: a map built from client input must not trip over them. */
export const PROTOTYPE_NAMES = [
  '__proto__',
  'constructor',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
  '__defineGetter__',
  '__lookupGetter__',
] as const;
