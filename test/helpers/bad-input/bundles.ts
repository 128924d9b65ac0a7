// The bundles and packets endpoints as a TEndpointSet for the bad-input arbitraries, and the
// bundle-shaped inputs they need: valid create bodies with a few defects anywhere, multipart bodies
// with junk parts, file_url values the fetcher must refuse, PATCH bodies and tag bodies.
// Paths may hold FIXTURE (a bundle) and PACKET (one of its packets); the caller resolves PACKET.
import fc from 'fast-check';
import { aBundle, aPdfB64 } from '../bundles';
import { aCorruptPdf, anEncryptedPdf, aPdfBomb } from '../pdfs';
import { anyText, hugeString, type TEndpointSet, type TRoute, wrongish } from './arbitraries';
import { FIXTURE } from './send';

/** Stands for the id of a packet of the FIXTURE bundle (the caller resolves it, send.ts does not). */
export const PACKET = '{packet}';

/** The files the bodies carry, built once (pdf-lib is asynchronous). */
export interface TSampleFiles {
  /** Three pages; "Sign here" is written on pages 2 and 3 (test/helpers/bundles.ts). */
  pdf: Buffer;
  /** The first 60% of a real PDF. */
  truncated: Buffer;
  encrypted: Buffer;
  /** A page tree claiming 1,000,000 pages, with and without /Count. */
  bomb: Buffer;
  bombWithoutCount: Buffer;
  /** A catalog whose /Pages is the catalog itself, and no cross-reference table. */
  selfPageTree: Buffer;
  /** `pdf` with one byte of each page content stream flipped: it loads, its text does not inflate. */
  damagedText: Buffer;
}

/** Flips the middle byte of every stream but object and cross-reference streams. */
function damageContentStreams(pdf: Buffer): Buffer {
  const text = pdf.toString('latin1');
  const copy = Buffer.from(pdf);
  for (let at = text.indexOf('\nstream\n'); at >= 0; at = text.indexOf('\nstream\n', at + 1)) {
    const dict = text.slice(text.lastIndexOf('obj', at), at);
    if (/\/Type\s*\/(ObjStm|XRef)/.test(dict)) continue;
    const start = at + '\nstream\n'.length;
    const end = text.indexOf('endstream', start);
    const mid = start + Math.floor((end - start) / 2);
    copy[mid] = copy[mid]! ^ 0xff;
  }
  return copy;
}

export async function sampleFiles(): Promise<TSampleFiles> {
  const pdf = Buffer.from(await aPdfB64(), 'base64');
  return {
    pdf,
    truncated: Buffer.from(await aCorruptPdf()),
    encrypted: Buffer.from(anEncryptedPdf()),
    bomb: Buffer.from(aPdfBomb(1_000_000)),
    bombWithoutCount: Buffer.from(aPdfBomb(1_000_000, { declareCount: false })),
    selfPageTree: Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 1 0 R >>\nendobj\n%%EOF\n'),
    damagedText: damageContentStreams(pdf),
  };
}

const b64 = (b: Buffer | string) => Buffer.from(b).toString('base64');

/** Every route of the bundles and packets functions. */
export const BUNDLE_ROUTES: readonly TRoute[] = [
  ['GET', '/bundles/'],
  ['POST', '/bundles/'],
  ['GET', `/bundles/${FIXTURE}/`],
  ['PATCH', `/bundles/${FIXTURE}/`],
  ['POST', `/bundles/${FIXTURE}/send/`],
  ['PUT', `/bundles/${FIXTURE}/cancel/`],
  ['GET', `/bundles/${FIXTURE}/events/`],
  ['PUT', `/bundles/${FIXTURE}/add_tags/`],
  ['PUT', `/bundles/${FIXTURE}/remove_tags/`],
  ['GET', `/packets/${PACKET}/`],
  ['PATCH', `/packets/${PACKET}/`],
  ['POST', `/packets/${PACKET}/embed_url/`],
  ['PUT', `/packets/${PACKET}/remind/`],
  ['GET', `/packets/${PACKET}/coe/`],
];

/** The sub-routes of one bundle and one packet, for any id. */
export const BUNDLE_SUB_ROUTES = ['', 'send/', 'cancel/', 'events/', 'add_tags/', 'remove_tags/'] as const;
export const PACKET_SUB_ROUTES = ['', 'embed_url/', 'remind/', 'coe/'] as const;

/** Methods no route has, and case variants of ones it has. */
export const ODD_METHODS = ['PROPFIND', 'MKCOL', 'FOO', 'patch', 'Get', 'put'] as const;

// -------------------------------------------------------------------------------------------------
// Building blocks

type TObject = Record<string, unknown>;

/**
 * A valid object with up to `max` of its parts replaced: each tweak yields the keys it changes;
 * an undefined value drops the key (JSON.stringify leaves it out).
 */
function tweaked(base: () => TObject, tweaks: fc.MaybeWeightedArbitrary<TObject>[], min = 0, max = 2) {
  return fc.array(fc.oneof(...tweaks), { minLength: min, maxLength: max }).map((changes) => {
    const o = base();
    // defineProperty, not assignment: a `__proto__` key stays an own key and reaches the JSON.
    for (const c of changes)
      for (const k of Object.keys(c))
        Object.defineProperty(o, k, { value: c[k], enumerable: true, writable: true, configurable: true });
    return o;
  });
}

const set = (key: string, arb: fc.Arbitrary<unknown>) => arb.map((v): TObject => ({ [key]: v }));

/** `depth` levels of arrays or objects around a value. */
const deepValue = fc.tuple(fc.integer({ min: 1, max: 2_000 }), fc.boolean()).map(([depth, arrays]) => {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = arrays ? [v] : { a: v };
  return v;
});

const odd = (...values: unknown[]) => fc.constantFrom(...values);

/** Numbers a percent must refuse, and numbers as a form body sends them. */
const oddPercent = odd(
  -1,
  -0.001,
  100.0001,
  101,
  1e6,
  1e308,
  -1e308,
  5e-324,
  2 ** 53 + 1,
  'NaN',
  'nan',
  'Infinity',
  '-Infinity',
  '1e400',
  '-1e400',
  '',
  ' ',
  '12,5',
  '0x10',
  '50%',
  '1_0',
  '٣',
  '+50',
  '.5',
  '5.',
  'e5',
  null,
  true,
  [],
  {},
  [50],
);
const percentArb = fc.oneof(
  { weight: 3, arbitrary: fc.double({ min: 0, max: 100, noNaN: true }) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 100 }).map(String) },
  { weight: 3, arbitrary: oddPercent },
  { weight: 1, arbitrary: wrongish },
);
/** x and w (or y and h) together: about half of the pairs run past the edge. */
const spanArb = fc.oneof(
  fc.tuple(fc.double({ min: 0, max: 100, noNaN: true }), fc.double({ min: 0, max: 100, noNaN: true })),
  fc.constantFrom<[unknown, unknown]>(
    [100, 1e-10],
    [99.9999999999, 2e-10],
    [0, 100],
    [100, 0],
    [50, 50.0000001],
  ),
);

const pageArb = fc.oneof(
  { weight: 2, arbitrary: fc.integer({ min: 1, max: 3 }) },
  {
    weight: 3,
    arbitrary: odd(
      0,
      -1,
      4,
      500,
      501,
      1_000_000,
      2 ** 31,
      2 ** 53,
      2 ** 53 + 1,
      1e308,
      1.5,
      '1',
      '0',
      ' 1',
      '1.0',
      'one',
    ),
  },
  { weight: 1, arbitrary: wrongish },
);

const KINDS = ['sig', 'ini', 'snm', 'sdt', 'inp', 'txt', 'dat', 'chk', 'cbg', 'sel', 'att', 'apr'] as const;
const kindArb = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...KINDS) },
  {
    weight: 2,
    arbitrary: odd('zzz', 'SIG', 'sig ', '', 'signature', '__proto__', 'toString', 'constructor'),
  },
  { weight: 1, arbitrary: wrongish },
);

/** Signer keys: those of the bundle, with and without `-`, and keys no signer has. */
const editorArb = fc.oneof(
  { weight: 3, arbitrary: odd('ann', 'bob', '-ann', '-bob') },
  {
    weight: 3,
    arbitrary: odd(
      'zed',
      '-zed',
      '--ann',
      '-',
      'a',
      '-a',
      'ann-',
      'ANN',
      'x'.repeat(22),
      `-${'x'.repeat(21)}`,
      '__proto__',
      '-constructor',
      'signer-1',
      '-signer-1',
      'ann bob',
    ),
  },
  { weight: 1, arbitrary: wrongish },
);
const editorsArb = fc.oneof(
  { weight: 4, arbitrary: fc.array(editorArb, { maxLength: 4 }) },
  { weight: 1, arbitrary: wrongish },
);

const fieldKeyArb = fc.oneof(
  odd('f1', 'f2', 'a', 'x'.repeat(33), 'has space', 'ünï', 'field-1', 'field-2', '__proto__', 'constructor'),
  wrongish,
);

/** Patterns that stay cheap on any input: a random property must not hang on backtracking. */
const regexArb = odd(
  '^[a-z]+$',
  '[',
  '(',
  '\\',
  'a{2,1}',
  '(?<n>a)\\k<m>',
  '\\p{Foo}',
  '.*',
  'x'.repeat(501),
  '',
);
const textArb = fc.oneof(
  odd('', ' ', 'x', 'x'.repeat(256), '\ud800', 'ok\udfff', '\u0000', 'CEO', 'true', '2024-02-30', '12345'),
  wrongish,
);

function fieldTweaks(): fc.MaybeWeightedArbitrary<TObject>[] {
  return [
    // Weighted up: what the specification of the bundle properties names (geometry, pages, kinds, editors).
    { weight: 3, arbitrary: set('kind', kindArb) },
    { weight: 3, arbitrary: set('page', pageArb) },
    set('x', percentArb),
    set('y', percentArb),
    set('w', percentArb),
    set('h', percentArb),
    { weight: 3, arbitrary: spanArb.map(([x, w]) => ({ x, w })) },
    { weight: 2, arbitrary: spanArb.map(([y, h]) => ({ y, h })) },
    { weight: 4, arbitrary: set('editors', editorsArb) },
    set('key', fieldKeyArb),
    set('label', textArb),
    set('required', fc.oneof(odd('True', 'yes', 2, null), wrongish)),
    set('v_pattern', fc.oneof(odd('email', 'zip_code', 'numbers', 'nope', 'EMAIL'), wrongish)),
    set('v_min', fc.oneof(odd(-1, 0, 5, 1e308, '3', 'x'), wrongish)),
    set('v_max', fc.oneof(odd(-1, 0, 2, 1e308, '3', 'x'), wrongish)),
    set('v_attachment_types', fc.oneof(odd(['pdf'], ['exe'], 'pdf', [], ['pdf', 'pdf']), wrongish)),
    set('v_regex', fc.oneof(regexArb, wrongish)),
    set('initial_value', textArb),
    set('format', textArb),
    set('__proto__', wrongish),
    set('unknown_key', wrongish),
    fc.constant({ kind: 'att', page: undefined }),
    fc.constant({ kind: 'inp', v_regex: '^[0-9]+$', initial_value: 'abc' }),
    fc.constant({ kind: 'chk', initial_value: 'maybe' }),
    fc.constant({ kind: 'dat', initial_value: '2024-13-01' }),
    fc.constant({ kind: 'inp', v_min: 5, v_max: 2 }),
    fc.constant({ kind: 'x', page: undefined, x: undefined }),
  ];
}

const aField = (): TObject => ({ kind: 'sig', page: 1, x: 10, y: 70, w: 30, h: 5, editors: ['ann'] });
const fieldArb = tweaked(aField, fieldTweaks(), 0, 3);

const aPlacement = (): TObject => ({ kind: 'sig', search: 'Sign here', w: 20, h: 5, editors: ['ann'] });
const placementArb = tweaked(
  aPlacement,
  [
    set(
      'search',
      fc.oneof(
        odd(
          'Nowhere to be found',
          'sign here',
          'Sign  here',
          'SIGN HERE',
          'Sign here ',
          'Welcome',
          '',
          ' ',
          'x'.repeat(201),
          '\ud800',
          'Sign\u0000here',
        ),
        anyText,
        wrongish,
      ),
    ),
    set(
      'offset_x',
      fc.oneof(fc.double({ min: -100, max: 100, noNaN: true }), odd(-101, 101, 'NaN', '1e400')),
    ),
    set('offset_y', fc.oneof(fc.double({ min: -100, max: 100, noNaN: true }), odd(-101, 101, -50, 99))),
    set('w', percentArb),
    set('h', percentArb),
    set('kind', kindArb),
    set('editors', editorsArb),
    set('page', pageArb),
  ],
  0,
  2,
);

// -------------------------------------------------------------------------------------------------
// Documents and their files

/** Private, link-local and other addresses the fetcher refuses before it connects, as URLs. */
export const refusedUrlArb: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    'http://169.254.169.254/',
    'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
    'http://10.0.0.1/',
    'https://10.0.0.1/doc.pdf',
    'http://10.1/', // WHATWG URL reads it as 10.0.0.1
    'http://167772161/', // 10.0.0.1 as one number
    'http://0xa.0.0.1/',
    'http://012.0.0.1/', // octal: 10.0.0.1
    'http://172.16.0.1/',
    'http://192.168.1.1:8080/',
    'http://100.100.100.200/',
    'http://0.0.0.0/',
    'http://[::ffff:10.0.0.1]/',
    'http://[::ffff:169.254.169.254]/',
    'http://[fd00::1]/',
    'http://[fe80::1]/',
    'http://[::]/',
    'http://224.0.0.1/',
    'http://255.255.255.255/',
  ),
  fc
    .tuple(
      fc.constantFrom('10', '172.16', '172.31', '192.168', '169.254', '100.64'),
      fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 4, maxLength: 4 }),
      fc.constantFrom('', ':80', ':443', ':8080', ':22'),
      fc.constantFrom('http', 'https'),
    )
    .map(([prefix, octets, port, scheme]) => {
      const head = prefix.split('.');
      const ip = [...head, ...octets.slice(head.length)].join('.');
      return `${scheme}://${ip}${port}/${octets.join('/')}.pdf`;
    }),
);

/** Loopback URLs: the local runtime may fetch them (port 1, where nothing listens). */
export const loopbackUrlArb: fc.Arbitrary<string> = fc.constantFrom(
  'http://[::1]:1/',
  'http://127.0.0.1:1/',
  'http://127.0.0.1:1/doc.pdf?x=1#y',
  'http://127.0.0.2:1/',
  'http://127.1:1/',
  'http://2130706433:1/',
  'http://[::ffff:127.0.0.1]:1/',
  'http://localhost:1/',
  'https://127.0.0.1:1/',
);

/** URLs refused whatever the host: odd schemes, credentials, not URLs at all (no DNS is asked). */
export const malformedUrlArb: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    'ftp://example.com/doc.pdf',
    'ftp://127.0.0.1/doc.pdf',
    'file:///etc/passwd',
    'gopher://127.0.0.1:70/',
    'data:application/pdf;base64,JVBERi0=',
    'javascript:alert(1)',
    'http://user:pass@127.0.0.1:1/',
    'http:///x',
    'http://[::1',
    'http://example.com:99999/',
    '//127.0.0.1/',
    '/doc.pdf',
    'doc.pdf',
    '',
    ' ',
    'http://',
    `http://127.0.0.1:1/${'a'.repeat(2100)}`,
  ),
  anyText,
);

function fileB64Arb(files: TSampleFiles): fc.Arbitrary<unknown> {
  const pdf = b64(files.pdf);
  return fc.oneof(
    {
      weight: 4,
      arbitrary: fc.constantFrom(
        b64(files.truncated),
        b64(files.encrypted),
        b64(files.bomb),
        b64(files.bombWithoutCount),
        b64(files.pdf.subarray(0, Math.floor(files.pdf.length / 2))),
        b64(files.pdf.subarray(0, files.pdf.length - 10)),
        pdf.slice(0, 101),
        b64('hello, not a PDF'),
        b64('%PDF-1.7\n%%EOF\n'),
        b64(files.selfPageTree),
        b64(files.damagedText),
        '',
        ' ',
        '====',
        '=',
        'not base64!',
        '%PDF-1.7',
        `data:application/pdf;base64,${pdf}`,
        'data:application/pdf;base64,',
        `data:text/plain;base64,${b64('x')}`,
        pdf.replace(/=+$/, ''),
        `${pdf}\n`,
        pdf.replace(/(.{76})/g, '$1\r\n'),
        pdf.replaceAll('+', '-').replaceAll('/', '_'),
        `${pdf}====`,
        `=${pdf}`,
        pdf.toLowerCase(),
      ),
    },
    // Bytes after a PDF header, and a real PDF with one byte changed.
    {
      weight: 2,
      arbitrary: fc
        .uint8Array({ maxLength: 300 })
        .map((b) => b64(Buffer.concat([Buffer.from('%PDF-1.4\n'), b, Buffer.from('\n%%EOF\n')]))),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })).map(([at, byte]) => {
        const copy = Buffer.from(files.pdf);
        copy[at % copy.length] = byte;
        return b64(copy);
      }),
    },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((b) => b64(Buffer.from(b))) },
    { weight: 1, arbitrary: wrongish },
  );
}

const fileIndexArb = fc.oneof(odd(0, 1, 5, 19, 20, -1, 1000, 1001, 1.5, '0', ' 0', '00', 2 ** 53), wrongish);

function documentTweaks(files: TSampleFiles): fc.MaybeWeightedArbitrary<TObject>[] {
  const urlArb = fc.oneof(refusedUrlArb, loopbackUrlArb, malformedUrlArb, wrongish);
  return [
    set(
      'key',
      fc.oneof(odd('lease', 'doc-1', 'doc-2', 'a', 'x'.repeat(13), 'has space', '__proto__'), wrongish),
    ),
    set('name', textArb),
    { weight: 6, arbitrary: set('file_b64', fileB64Arb(files)) },
    // Text search reads the file again, with another library: after inspection let it through.
    {
      weight: 3,
      arbitrary: fileB64Arb(files).map((file_b64) => ({ file_b64, auto_placements: [aPlacement()] })),
    },
    // Another source instead, both, or none.
    { weight: 3, arbitrary: urlArb.map((file_url) => ({ file_b64: undefined, file_url })) },
    { weight: 2, arbitrary: fileIndexArb.map((file_index) => ({ file_b64: undefined, file_index })) },
    urlArb.map((file_url) => ({ file_url })),
    fileIndexArb.map((file_index) => ({ file_index })),
    fc.constant({ file_b64: undefined }),
    fc.constant({ file_b64: null, file_url: null, file_index: null }),
    {
      weight: 12,
      arbitrary: set(
        'fields',
        fc.oneof({ weight: 6, arbitrary: fc.array(fieldArb, { minLength: 1, maxLength: 4 }) }, wrongish),
      ),
    },
    fc.constant({ fields: Array.from({ length: 301 }, aField) }),
    fc.constant({
      fields: [
        { ...aField(), key: 'f1' },
        { ...aField(), key: 'f1' },
      ],
    }),
    {
      weight: 5,
      arbitrary: set(
        'auto_placements',
        fc.oneof({ weight: 6, arbitrary: fc.array(placementArb, { minLength: 1, maxLength: 3 }) }, wrongish),
      ),
    },
    fc.constant({ auto_placements: Array.from({ length: 51 }, aPlacement) }),
    fc.constant({ fields: [{ ...aField(), key: 'field-1' }], auto_placements: [aPlacement()] }),
    set('template_id', fc.oneof(odd('tpl', 1, ''), wrongish)),
    fc.constant({ template_id: 'tpl', assignments: [{ role: 'r', signer: 'ann' }] }),
    set('converted_adobe_fields_to', textArb),
    set('form_fields', fc.oneof(fc.constant(true), wrongish)),
    set(
      'form_field_editors',
      fc.oneof(
        fc.dictionary(fc.string(), fc.oneof(fc.constant('ann'), fc.constant(null), wrongish)),
        wrongish,
      ),
    ),
    set('unknown_key', wrongish),
  ];
}

/** A valid document with `min` to 3 defects. */
function documentArb(files: TSampleFiles, min: number) {
  const pdf = b64(files.pdf);
  return tweaked(
    () => ({
      key: 'lease',
      file_b64: pdf,
      fields: [aField()],
    }),
    documentTweaks(files),
    min,
    3,
  );
}

// -------------------------------------------------------------------------------------------------
// Signers

const emailArb = fc.oneof(
  odd(
    'ann@example.com',
    'not-an-email',
    'a@b',
    '@example.com',
    'ann@',
    'ann@@example.com',
    'ann@example..com',
    ' ann@example.com',
    `${'a'.repeat(250)}@example.com`,
    '\ud800@example.com',
    'ann@exämple.com',
  ),
  wrongish,
);
const phoneArb = fc.oneof(
  odd('+1 555 010 3000', 'abc', '+', '++1', '1'.repeat(40), '+1 (555) 010-3000', '555\n0100', ''),
  wrongish,
);

const packetTweaks: fc.MaybeWeightedArbitrary<TObject>[] = [
  set('name', textArb),
  set('email', emailArb),
  set('phone', phoneArb),
  set(
    'key',
    fc.oneof(odd('ann', 'bob', 'a', 'x'.repeat(21), 'signer-1', '-ann', 'a b', '__proto__'), wrongish),
  ),
  set('person_id', fc.oneof(fc.uuid(), odd('nope', '', null), wrongish)),
  set('deliver_via', fc.oneof(odd('email', 'phone', 'embed', 'kiosk', 'sms', 'EMAIL', ''), wrongish)),
  set('order', fc.oneof(odd(-1, 0, 1000, 1001, 1.5, 'x', '2'), wrongish)),
  set('auth_sms', fc.oneof(odd(true, 'True', 'yes', 1, 2), wrongish)),
  set('auth_id', fc.oneof(odd(true, 'false', 'nope'), wrongish)),
  set('suppress_all', wrongish),
  set('email_message', fc.oneof(odd('x'.repeat(5001), '\ud800'), wrongish)),
  set('sms_message', fc.oneof(odd('x'.repeat(1001)), wrongish)),
  fc.constant({ email: undefined, phone: undefined }),
  fc.constant({ email: undefined, deliver_via: 'email' }),
  set('unknown_key', wrongish),
];
const aSigner = (): TObject => ({ key: 'ann', name: 'Ann Lee', email: 'ann@example.com' });
const packetArb = (min: number) => tweaked(aSigner, packetTweaks, min, 2);

// -------------------------------------------------------------------------------------------------
// Whole bodies

/**
 * Create bodies: the valid two-signer, one-document body of test/helpers/bundles.ts with one to
 * three defects, mostly in its documents (files, URLs, fields and their geometry, pages, kinds and
 * editors, auto placements), else in its signers or anywhere else (wrong types, missing parts,
 * duplicate keys, huge strings, deep values); and now and then a body of the right keys with
 * values of any type. Defects are grouped so that one in a document is not always hidden behind
 * one at the top, which the service reports first.
 */
export function createBodyArb(files: TSampleFiles): fc.Arbitrary<unknown> {
  const pdf = b64(files.pdf);
  const base = () => aBundle({}, pdf) as TObject;
  const withParts = (parts: TObject) => ({ ...base(), ...parts });
  const inDocuments = fc
    .oneof(
      { weight: 5, arbitrary: documentArb(files, 1).map((d) => [d]) },
      {
        weight: 1,
        arbitrary: fc
          .tuple(fc.array(documentArb(files, 0), { minLength: 1, maxLength: 2 }), documentArb(files, 1))
          .map(([others, bad]) => [...others, bad].map((d, i) => ({ ...d, key: `doc-${i}` }))),
      },
      {
        weight: 1,
        arbitrary: fc.constantFrom<unknown>(
          [
            { key: 'same', file_b64: pdf },
            { key: 'same', file_b64: pdf },
          ],
          [{ file_b64: pdf }, { key: 'doc-1', file_b64: pdf }],
          Array.from({ length: 21 }, () => ({ file_b64: pdf })),
          [],
          {},
          null,
          'x',
          [null],
          [[]],
          ['x'],
        ),
      },
    )
    .map((documents) => withParts({ documents }));
  const inSigners = fc
    .oneof(
      fc.tuple(packetArb(1), packetArb(0)).map(([ann, bob]) => [ann, { ...bob, key: 'bob' }]),
      packetArb(1).map((bob) => [aSigner(), { ...bob, key: bob.key === 'ann' ? 'bob' : bob.key }]),
      packetArb(1).map((p) => [p]),
      fc.constantFrom<unknown>(
        [aSigner(), aSigner()],
        Array.from({ length: 21 }, (_, i) => ({ name: `S ${i}`, email: `s${i}@example.com` })),
        [],
        {},
        null,
        'x',
        [null],
        [[]],
      ),
    )
    .map((packets) => withParts({ packets, documents: [{ file_b64: pdf }] }));
  const elsewhere = tweaked(
    base,
    [
      set('label', fc.oneof(textArb, hugeString)),
      set('email_subject', fc.oneof(textArb, hugeString)),
      set('email_message', fc.oneof(textArb, hugeString)),
      set('sms_message', textArb),
      set('requester_name', textArb),
      set('requester_email', emailArb),
      set(
        'cc_emails',
        fc.oneof(fc.array(emailArb, { maxLength: 3 }), odd(Array(21).fill('c@example.com')), wrongish),
      ),
      set('custom_key', fc.oneof(odd('x'.repeat(201), '\ud800', ''), wrongish)),
      set('team', fc.oneof(fc.uuid(), odd('nope', null), wrongish)),
      set('status', fc.oneof(odd('dr', 'se', 'DR', 'xx', null, ''), wrongish)),
      set('in_order', fc.oneof(odd('True', 'nope', 2), wrongish)),
      set('is_test', wrongish),
      set(
        'payment',
        fc.oneof(
          odd(
            { billed_to: 'ann', amount_due: 0 },
            { billed_to: 'zed', amount_due: 100 },
            { billed_to: 'ann', amount_due: -5 },
            { billed_to: 'ann', amount_due: 1.5 },
            { billed_to: 'ann', amount_due: '100', payment_method_types: 'card' },
            { billed_to: 'ann' },
          ),
          wrongish,
        ),
      ),
      fc
        .tuple(fc.constantFrom('label', 'packets', 'documents', 'payment', 'zz'), deepValue)
        .map(([k, v]) => ({ [k]: v })),
      fc.constantFrom('packets', 'documents').map((k) => ({ [k]: undefined })),
      set('unknown_key', wrongish),
    ],
    1,
    3,
  );
  const shaped = fc.record(
    {
      label: wrongish,
      status: wrongish,
      custom_key: wrongish,
      packets: fc.oneof(wrongish, fc.array(fc.record({ name: wrongish, email: wrongish, key: wrongish }))),
      documents: fc.oneof(
        wrongish,
        fc.array(fc.record({ key: wrongish, file_b64: wrongish, file_url: wrongish, fields: wrongish })),
      ),
    },
    { requiredKeys: [] },
  );
  return fc.oneof(
    { weight: 6, arbitrary: inDocuments },
    { weight: 2, arbitrary: inSigners },
    { weight: 2, arbitrary: elsewhere },
    { weight: 1, arbitrary: shaped },
  );
}

/** PATCH /bundles/{id}/ bodies: the patchable keys with odd values, and unknown keys. */
export const bundlePatchArb: fc.Arbitrary<unknown> = fc.oneof(
  {
    weight: 4,
    arbitrary: tweaked(
      () => ({}),
      [
        set('team', fc.oneof(fc.uuid(), odd(null, 'nope', ''), wrongish)),
        set(
          'expires',
          fc.oneof(
            fc
              .date({ min: new Date('1900-01-01'), max: new Date('2200-01-01'), noInvalidDate: true })
              .map((d) => d.toISOString()),
            fc
              .tuple(
                fc.integer({ min: 0, max: 9999 }),
                fc.integer({ min: 0, max: 99 }),
                fc.integer({ min: 0, max: 99 }),
              )
              .map(([y, m, d]) =>
                [String(y).padStart(4, '0'), String(m).padStart(2, '0'), String(d).padStart(2, '0')].join(
                  '-',
                ),
              ),
            odd(
              'now',
              '',
              '1',
              '0',
              'Infinity',
              '+275760-09-13T00:00:00Z',
              '-000001-01-01T00:00:00Z',
              '2100-01-01T00:00:00+99:99',
            ),
            wrongish,
          ),
        ),
        set('cc_sender', fc.oneof(odd('True', 'x'), wrongish)),
        set(
          'cc_emails',
          fc.oneof(fc.array(emailArb, { maxLength: 3 }), odd(Array(21).fill('c@example.com')), wrongish),
        ),
        set('send_reminders', wrongish),
        set('reminder_offset', fc.oneof(odd(0, 30, -1, 31, 1.5, '5', 1e308), wrongish)),
        set('reminder_interval', fc.oneof(odd(0, 30, -1, 31, '30'), wrongish)),
        set('reminder_expires', fc.oneof(odd(0, 30, -1, 31), wrongish)),
        set('owner', fc.oneof(fc.uuid(), odd(null, 'nope'), wrongish)),
        set('signing_brand', fc.oneof(fc.uuid(), odd(null, 'nope'), wrongish)),
        set('status', odd('ca', 'co', 'se')),
        set('tags', odd(['a'], 'a')),
        set('__proto__', wrongish),
      ],
      0,
      3,
    ),
  },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3, stringUnit: 'binary' }) },
);

/** PATCH /packets/{id}/ bodies. */
export const packetPatchArb: fc.Arbitrary<unknown> = fc.oneof(
  {
    weight: 4,
    arbitrary: tweaked(
      () => ({}),
      [
        set('name', textArb),
        set('email', emailArb),
        set('phone', phoneArb),
        set('auth_sms', fc.oneof(odd(true, 'True', 'x'), wrongish)),
        set('auth_selfie', wrongish),
        set('auth_id', wrongish),
        set(
          'signing_complete_redirect',
          fc.oneof(
            odd(
              'https://example.com/done',
              'javascript:alert(1)',
              'ftp://x/',
              `https://x.co/${'a'.repeat(400)}`,
              '',
            ),
            wrongish,
          ),
        ),
        set('suppress_all', wrongish),
        set('suppress_reminder', wrongish),
        set('deliver_via', fc.oneof(odd('email', 'phone', 'embed', 'kiosk', 'sms', null), wrongish)),
        fc.constant({ email: null, deliver_via: 'email' }),
        fc.constant({ phone: '', deliver_via: 'phone' }),
        set('status', odd('co', 'ca')),
        set('key', wrongish),
      ],
      0,
      3,
    ),
  },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3, stringUnit: 'binary' }) },
);

const tagArb = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('vip', 'q3', 'a,b', 'x'.repeat(100), 'Tag', ' padded ') },
  { weight: 2, arbitrary: odd('', ' ', 'x'.repeat(101), '\ud800', '\u0000', null, 1, [], {}) },
  { weight: 1, arbitrary: anyText },
);

/** add_tags and remove_tags bodies. */
export const tagsBodyArb: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.array(tagArb, { maxLength: 6 }).map((tags) => ({ tags })) },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 49, max: 60 })
      .map((n) => ({ tags: Array.from({ length: n }, (_, i) => `t${i}`) })),
  },
  {
    weight: 1,
    arbitrary: fc.oneof(
      odd({}, { tags: null }, { tags: 'single' }, { tags: {} }, { tag: ['x'] }),
      wrongish.map((tags) => ({ tags })),
    ),
  },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3, stringUnit: 'binary' }) },
);

// -------------------------------------------------------------------------------------------------
// Multipart bodies

export interface TMultipart {
  body: Buffer;
  contentType: string;
}

interface TPart {
  head: string[];
  data: Buffer;
}

function multipartOf(parts: TPart[], boundary: string, framing: string): Buffer {
  const crlf = framing === 'lf' ? '\n' : '\r\n';
  const chunks: Buffer[] = [];
  if (framing === 'preamble') chunks.push(Buffer.from(`some preamble${crlf}`));
  for (const p of parts) {
    chunks.push(
      Buffer.from(`--${boundary}${crlf}${p.head.join(crlf)}${crlf}${crlf}`),
      p.data,
      Buffer.from(crlf),
    );
  }
  if (framing !== 'unterminated') chunks.push(Buffer.from(`--${boundary}--${crlf}`));
  if (framing === 'epilogue') chunks.push(Buffer.from('trailing junk'));
  const body = Buffer.concat(chunks);
  return framing === 'truncated' ? body.subarray(0, Math.floor(body.length * 0.7)) : body;
}

/**
 * Multipart create bodies as the official clients send them (bundle_request plus files[N]), with
 * junk: parts without a name, odd file part names and indexes, wrong charsets and encodings,
 * invalid JSON, duplicated and missing bundle_request, broken framing and boundaries.
 */
export function multipartArb(files: TSampleFiles): fc.Arbitrary<TMultipart> {
  const request = (documents: unknown[]) => JSON.stringify(aBundle({ documents }, ''));
  const requestArb = fc.oneof(
    fc.constant(request([{ key: 'up', file_index: 0 }])),
    fc.constant(
      request([
        { key: 'up', file_index: 0 },
        { key: 'two', file_index: 1 },
      ]),
    ),
    fc.constant(request([{ key: 'up', file_index: 3 }])),
    fc.constant(request([{ key: 'up', file_index: 0, file_b64: b64(files.pdf) }])),
    fileIndexArb.map((file_index) => request([{ key: 'up', file_index }])),
    createBodyArb(files).map((b) => JSON.stringify(b)),
    fc.constantFrom('', '{', 'null', '[]', '"x"', '{"packets": 1}', '\ufeff{}'),
    anyText,
  );
  const fileDataArb = fc.oneof(
    fc.constantFrom(
      files.pdf,
      files.truncated,
      files.encrypted,
      files.bomb,
      Buffer.alloc(0),
      Buffer.from('not a pdf'),
    ),
    fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b)),
  );
  const fileNameArb = fc.constantFrom(
    'files[0]',
    'files[0]',
    'files[1]',
    'file[0]',
    'file',
    'files',
    'files[]',
    'files[-1]',
    'files[00]',
    'files[1000000000]',
    'files[0][x]',
    'foo',
    '',
    '__proto__',
    'bundle_request',
  );
  const partArb: fc.Arbitrary<TPart> = fc.oneof(
    {
      weight: 4,
      arbitrary: requestArb.map((json) => ({
        head: ['Content-Disposition: form-data; name="bundle_request"'],
        data: Buffer.from(json),
      })),
    },
    {
      weight: 4,
      arbitrary: fc
        .tuple(
          fileNameArb,
          fileDataArb,
          fc.constantFrom('application/pdf', 'text/plain', ''),
          fc.constantFrom('doc.pdf', 'ü.pdf', '', '../../etc/passwd'),
        )
        .map(([name, data, type, filename]) => ({
          head: [
            `Content-Disposition: form-data; name="${name}"; filename="${filename}"`,
            ...(type ? [`Content-Type: ${type}`] : []),
          ],
          data,
        })),
    },
    {
      weight: 3,
      arbitrary: fc
        .tuple(
          fc.constantFrom(
            [],
            ['Content-Disposition: form-data'],
            ['Content-Disposition: attachment; name="bundle_request"'],
            ['Content-Disposition: form-data; name=bundle_request'],
            ["Content-Disposition: form-data; name*=UTF-8''bundle_request"],
            ['Content-Disposition: form-data; name="bundle_request"', 'Content-Transfer-Encoding: base64'],
            [
              'Content-Disposition: form-data; name="bundle_request"',
              'Content-Type: text/plain; charset=utf-16',
            ],
            [
              'Content-Disposition: form-data; name="bundle_request"',
              'Content-Type: text/plain; charset=x-nope',
            ],
            [
              'Content-Disposition: form-data; name="files[0]"; filename="a.pdf"',
              'Content-Transfer-Encoding: quoted-printable',
            ],
            ['Content-Disposition: form-data; name="x"', `X-Long: ${'a'.repeat(9000)}`],
            ['no colon here'],
            ['Content-Disposition: form-data; name="label"'],
            ['Content-Disposition: form-data; name="__proto__"'],
          ),
          fc.oneof(
            fc.constantFrom(Buffer.from('x'), Buffer.from('{}'), Buffer.from([0xff, 0xfe]), Buffer.alloc(0)),
            requestArb.map((s) => Buffer.from(s)),
          ),
        )
        .map(([head, data]) => ({ head: [...head], data })),
    },
  );
  const boundaryArb = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom('xyz', 'Boundary-123', '----WebKitFormBoundary7MA4YWxkTrZu0gW') },
    { weight: 1, arbitrary: fc.constant("a'()+_,-./:=?") },
  );
  return fc
    .record({
      parts: fc.oneof(
        { weight: 6, arbitrary: fc.array(partArb, { minLength: 0, maxLength: 5 }) },
        {
          weight: 1,
          arbitrary: fc.integer({ min: 31, max: 40 }).map((n) =>
            Array.from({ length: n }, (_, i) => ({
              head: [`Content-Disposition: form-data; name="p${i}"`],
              data: Buffer.from('x'),
            })),
          ),
        },
      ),
      boundary: boundaryArb,
      framing: fc.oneof(
        { weight: 6, arbitrary: fc.constant('ok') },
        { weight: 3, arbitrary: fc.constantFrom('lf', 'preamble', 'epilogue') },
        { weight: 2, arbitrary: fc.constantFrom('unterminated', 'truncated') },
      ),
      header: fc.constantFrom(
        'multipart/form-data; boundary={b}',
        'multipart/form-data; boundary={b}',
        'multipart/form-data; boundary={b}',
        'multipart/form-data; boundary={b}',
        'multipart/form-data; boundary={b}',
        'multipart/form-data; boundary="{b}"',
        'Multipart/Form-Data; BOUNDARY={b}',
        'multipart/form-data; boundary={b}; charset=utf-8',
        'multipart/form-data; boundary=other',
        'multipart/form-data',
        'multipart/form-data; boundary=',
        `multipart/form-data; boundary=${'b'.repeat(71)}`,
        'multipart/form-data; boundary={b} ',
        'multipart/mixed; boundary={b}',
      ),
    })
    .map(({ parts, boundary, framing, header }) => ({
      body: multipartOf(parts, boundary, framing),
      contentType: header.replace('{b}', boundary),
    }));
}

// -------------------------------------------------------------------------------------------------
// The endpoint set

/** The bundles and packets endpoints, their paths, and bodies built around the sample files. */
export function bundlesEndpointSet(files: TSampleFiles): TEndpointSet {
  const pdf = b64(files.pdf);
  const valid = () => aBundle({}, pdf) as TObject;
  const validJson = JSON.stringify(valid());
  /** The valid body's JSON text with `text` in place of the value at one place. */
  const at = (place: (b: TObject, token: string) => void) => (text: string) => {
    const b = valid();
    const token = '@@HERE@@';
    place(b, token);
    return JSON.stringify(b).replace(`"${token}"`, () => text);
  };
  const doc0 = (b: TObject) => (b.documents as TObject[])[0]!;
  const packet0 = (b: TObject) => (b.packets as TObject[])[0]!;
  const label = at((b, t) => {
    b.label = t;
  });
  const [labelBefore, labelAfter] = label('@@SPLIT@@').split('@@SPLIT@@') as [string, string];

  return {
    endpoints: [
      '/bundles/',
      '/bundles',
      `/bundles/${FIXTURE}/`,
      `/bundles/${FIXTURE}`,
      ...BUNDLE_SUB_ROUTES.filter((s) => s !== '').map((s) => `/bundles/${FIXTURE}/${s}`),
      `/bundles/${FIXTURE}/events`,
      `/packets/${PACKET}/`,
      `/packets/${PACKET}`,
      ...PACKET_SUB_ROUTES.filter((s) => s !== '').map((s) => `/packets/${PACKET}/${s}`),
      '/packets/',
      '/bundles/not-a-slug/',
      '/packets/not-a-slug/',
    ],
    // A uuid is no bundle id; its first ten hex digits are a well-formed one that names nothing.
    itemPath: (id) => {
      const slug = id.replaceAll('-', '').slice(0, 10);
      const paths = [
        ...BUNDLE_SUB_ROUTES.map((s) => `/bundles/${slug}/${s}`),
        ...PACKET_SUB_ROUTES.map((s) => `/packets/${slug}/${s}`),
        `/bundles/${id}/`,
        `/packets/${id}/`,
      ];
      return paths[Number.parseInt(id.slice(-2), 16) % paths.length]!;
    },
    writeRoutes: [
      ['POST', '/bundles/'],
      ['PATCH', `/bundles/${FIXTURE}/`],
      ['PUT', `/bundles/${FIXTURE}/add_tags/`],
      ['PUT', `/bundles/${FIXTURE}/remove_tags/`],
      ['PATCH', `/packets/${PACKET}/`],
    ],
    ownSegments: [
      'bundles',
      'packets',
      'send',
      'cancel',
      'events',
      'add_tags',
      'remove_tags',
      'embed_url',
      'remind',
      'coe',
      FIXTURE,
      PACKET,
    ],
    oddPaths: {
      withSegment: [
        (s) => `/bundles/${s}/`,
        (s) => `/bundles/${s}`,
        (s) => `/bundles/${s}/events/`,
        (s) => `/bundles/${FIXTURE}/${s}/`,
        (s) => `/bundles/${FIXTURE}/events/${s}/`,
        (s) => `/packets/${s}/`,
        (s) => `/packets/${s}/coe/`,
        (s) => `/packets/${PACKET}/${s}/`,
        (s) => `/${s}/`,
      ],
      fixed: [
        '/bundles//',
        '/bundles///',
        '/bundles/./',
        '/bundles/../packets/',
        '/packets/../bundles/',
        '/BUNDLES/',
        '/Bundles/',
        '/bundles%2F',
        `/bundles/${FIXTURE}//`,
        `/bundles//${FIXTURE}/`,
        `/bundles/${FIXTURE}/SEND/`,
        `/bundles/${FIXTURE}/events/events/`,
        `/bundles/${FIXTURE}/send/send/`,
        `/bundles/${FIXTURE}/add_tags//`,
        `/bundles/${PACKET}/`,
        `/packets/${FIXTURE}/`,
        `/packets/${PACKET}//`,
        `/packets//${PACKET}/`,
        `/packets/${PACKET}/COE/`,
        '/packets/',
        '/packets//',
      ],
    },
    queryKeys: [
      'page',
      'per_page',
      'include',
      'include[]',
      'status',
      'tags',
      'search',
      'custom_key',
      'PAGE',
      '',
    ],

    shapedBody: createBodyArb(files),
    oddJsonTexts: [
      // Duplicate keys: which one wins must not matter to the answer's class.
      validJson.replace('{', '{"packets":1,'),
      validJson.replace('"documents":[{', '"documents":[{"key":"a","key":{},'),
      validJson.replace('"fields":[{', '"fields":[{"kind":"zzz","kind":"sig","page":0,'),
      validJson.replace('"packets":[{', '"packets":[{"key":"bob",'),
      // Numbers JSON.stringify never writes.
      validJson.replace('"x":10', '"x":1e400'),
      validJson.replace('"page":1', '"page":123456789012345678901234567890'),
      validJson.replace('"page":1', '"page":-0'),
      validJson.replace('"w":30', '"w":1E-400'),
      validJson.replace('"h":5', '"h":-1e-400'),
      // Escaped lone surrogates.
      label('"\\ud800"'),
      at((b, t) => {
        packet0(b).name = t;
      })('"Ann \\udfff"'),
      at((b, t) => {
        doc0(b).key = t;
      })('"k\\ud83d"'),
      at((b, t) => {
        doc0(b).auto_placements = [{ ...aPlacement(), search: t }];
      })('"Sign \\ud800"'),
      // Names objects inherit.
      validJson.replace('{', '{"__proto__":{"status":"dr"},'),
      validJson.replace('"packets":[{', '"packets":[{"__proto__":{"name":"x"},'),
      validJson.replace('"fields":[{', '"fields":[{"constructor":{"prototype":{"x":1}},'),
      validJson.replace('"documents":[', '"documents":[{"__proto__":{}},'),
      // Syntax errors and other documents.
      validJson.slice(0, -1),
      `${validJson.slice(0, -1)},}`,
      `${validJson} trailing`,
      `\ufeff${validJson}`,
      '',
      ' ',
      'null',
      '0',
      '"x"',
      '[]',
      `[${validJson}]`,
      '{',
      'NaN',
    ],
    stringAt: {
      field: (s) => ({ ...valid(), label: s }),
      nested: [
        (s) => {
          const b = valid();
          packet0(b).name = s;
          return b;
        },
        (s) => {
          const b = valid();
          doc0(b).fields = [{ ...aField(), label: s }];
          return b;
        },
        (s) => {
          const b = valid();
          doc0(b).fields = [{ ...aField(), kind: 'inp', initial_value: s }];
          return b;
        },
        (s) => {
          const b = valid();
          doc0(b).auto_placements = [{ ...aPlacement(), search: s }];
          return b;
        },
        (s) => {
          const b = valid();
          doc0(b).file_b64 = undefined;
          doc0(b).file_url = s;
          return b;
        },
        (s) => {
          const b = valid();
          doc0(b).file_b64 = s;
          return b;
        },
        (s) => ({ ...valid(), tags: [s], cc_emails: [s] }),
      ],
    },
    nestedJsonAt: {
      label: label,
      packets: at((b, t) => {
        b.packets = [t];
      }),
      'packet-name': at((b, t) => {
        packet0(b).name = t;
      }),
      documents: at((b, t) => {
        b.documents = t;
      }),
      fields: at((b, t) => {
        doc0(b).fields = [t];
      }),
      editors: at((b, t) => {
        doc0(b).fields = [{ ...aField(), editors: t }];
      }),
      top: (nested) => nested,
      'unknown-key': at((b, t) => {
        b.zz = t;
      }),
    },
    invalidUtf8Frames: {
      json: [`${labelBefore}"`, `"${labelAfter}`],
      form: ['label=', '&packets[0][name]=Ann&packets[0][email]=ann@example.com&documents[0][file_url]=x'],
    },
    formKeys: [
      'label',
      'label[]',
      'status',
      'custom_key',
      'packets',
      'packets[]',
      'packets[0]',
      'packets[0][name]',
      'packets[0][email]',
      'packets[0][key]',
      'packets[0][deliver_via]',
      'packets[1][name]',
      'packets[][name]',
      'packets.0.name',
      'packets[101][name]',
      'packets[-1][name]',
      'documents',
      'documents[0]',
      'documents[0][key]',
      'documents[0][file_url]',
      'documents[0][file_b64]',
      'documents[0][file_index]',
      'documents[0][fields][0][kind]',
      'documents[0][fields][0][page]',
      'documents[0][fields][0][x]',
      'documents[0][fields][0][editors][]',
      'documents[0][fields][0][editors][0]',
      'documents[0][fields][0][a][b][c]',
      'documents[0][auto_placements][0][search]',
      'documents[99999999][key]',
      'documents.0.fields.0.x',
      'cc_emails[]',
      'tags[]',
    ],
    formValues: [
      'Ann',
      'ann@example.com',
      'ann%40example.com',
      'sig',
      'zzz',
      '1',
      '0',
      '-1',
      '101',
      'NaN',
      'True',
      'dr',
      'ann',
      '-ann',
      'zed',
      'http://169.254.169.254/',
      'http://127.0.0.1:1/',
      'Sign here',
      pdf.slice(0, 200),
    ],
    typedBodies: [
      validJson,
      'label=typed&packets[0][name]=Ann&packets[0][email]=ann@example.com&documents[0][file_url]=http://127.0.0.1:1/',
      '<bundle><label>typed</label></bundle>',
      `--xyz\r\nContent-Disposition: form-data; name="bundle_request"\r\n\r\n${validJson}\r\n--xyz--\r\n`,
    ],
  };
}
