import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '#shared/domain/errors';
import { ParseError, PayloadTooLargeError } from '#shared/http/errors';
import { filesByIndex, parseMultipart, type TMultipartLimits } from '#shared/http/multipart';

const limits: TMultipartLimits = {
  maxFiles: 10,
  maxFileBytes: 1024 * 1024,
  maxFieldBytes: 64 * 1024,
  maxParts: 20,
};

async function encode(fd: FormData): Promise<{ raw: Buffer; ct: string }> {
  const res = new Response(fd);
  const ct = res.headers.get('content-type');
  if (!ct) throw new Error('Response gave no content type');
  return { raw: Buffer.from(await res.arrayBuffer()), ct };
}

// FormData always writes strings as UTF-8 and never adds part headers of its own, so bodies that
// need raw bytes or unusual headers are assembled by hand.
const B = 'test-boundary-42';
const handCt = `multipart/form-data; boundary=${B}`;
function handBody(...parts: { headers: string[]; body: Buffer | string }[]): Buffer {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    chunks.push(Buffer.from(`--${B}\r\n${p.headers.join('\r\n')}\r\n\r\n`, 'latin1'));
    chunks.push(typeof p.body === 'string' ? Buffer.from(p.body, 'utf8') : p.body);
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${B}--\r\n`));
  return Buffer.concat(chunks);
}
const field = (name: string, body: Buffer | string, ...extra: string[]) => ({
  headers: [`Content-Disposition: form-data; name="${name}"`, ...extra],
  body,
});

async function rejection(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (err) {
    if (err instanceof Error) return err;
    throw new Error(`rejected with a non-Error: ${String(err)}`);
  }
  throw new Error('expected a rejection');
}

describe('parseMultipart: well-formed bodies', () => {
  it('reads the bundle_request JSON and files[0], files[1]', async () => {
    const request = {
      label: 'Lease ✍️',
      documents: [
        { key: 'd1', file_index: 0 },
        { key: 'd2', file_index: 1 },
      ],
    };
    const fd = new FormData();
    fd.append('bundle_request', JSON.stringify(request));
    fd.append(
      'files[0]',
      new Blob([Buffer.from('%PDF-1.4 first')], { type: 'application/pdf' }),
      'lease.pdf',
    );
    fd.append(
      'files[1]',
      new Blob([Buffer.from('%PDF-1.4 second')], { type: 'application/pdf' }),
      'résumé.pdf',
    );
    const { raw, ct } = await encode(fd);

    const body = await parseMultipart(raw, ct, limits);
    expect(Object.keys(body.fields)).toEqual(['bundle_request']);
    expect(JSON.parse(body.fields.bundle_request![0]!)).toEqual(request);
    expect(body.files.map((f) => [f.field, f.filename, f.contentType, f.data.toString()])).toEqual([
      ['files[0]', 'lease.pdf', 'application/pdf', '%PDF-1.4 first'],
      ['files[1]', 'résumé.pdf', 'application/pdf', '%PDF-1.4 second'],
    ]);
    const byIndex = filesByIndex(body.files);
    expect(byIndex.get(0)?.filename).toBe('lease.pdf');
    expect(byIndex.get(1)?.filename).toBe('résumé.pdf');
  });

  it('keeps repeated fields as lists and a __proto__ field as plain data', async () => {
    const fd = new FormData();
    fd.append('tag', 'a');
    fd.append('tag', 'b');
    fd.append('__proto__', 'x');
    const { raw, ct } = await encode(fd);
    const body = await parseMultipart(raw, ct, limits);
    expect(body.fields.tag).toEqual(['a', 'b']);
    expect(Object.hasOwn(body.fields, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(body.fields)).toBe(Object.prototype);
  });

  it('round-trips binary content byte-exact, including bytes that look like a delimiter', async () => {
    const every = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    const tricky = Buffer.from('\r\n--\r\n--not-the-boundary\r\n\r\n');
    const big = randomBytes(300 * 1024);
    const fd = new FormData();
    fd.append('files[0]', new Blob([every, tricky, every]), 'a.bin');
    fd.append('files[1]', new Blob([big], { type: 'application/octet-stream' }), 'b.bin');
    fd.append('files[2]', new Blob([]), 'empty.bin');
    const { raw, ct } = await encode(fd);
    const body = await parseMultipart(raw, ct, limits);
    expect(body.files[0]!.data.equals(Buffer.concat([every, tricky, every]))).toBe(true);
    expect(body.files[1]!.data.equals(big)).toBe(true);
    expect(body.files[2]!.data.length).toBe(0);
  });

  it('accepts a field and a file of exactly the size limit', async () => {
    const fd = new FormData();
    fd.append('bundle_request', 'x'.repeat(16));
    fd.append('files[0]', new Blob([Buffer.alloc(32, 7)]), 'a.bin');
    const { raw, ct } = await encode(fd);
    const body = await parseMultipart(raw, ct, { ...limits, maxFieldBytes: 16, maxFileBytes: 32 });
    expect(body.fields.bundle_request![0]!.length).toBe(16);
    expect(body.files[0]!.data.length).toBe(32);
  });

  it('accepts exactly maxFiles files and maxParts parts', async () => {
    const fd = new FormData();
    fd.append('bundle_request', '{}');
    fd.append('file', new Blob(['a']), 'a.txt');
    fd.append('file', new Blob(['b']), 'b.txt');
    const { raw, ct } = await encode(fd);
    const body = await parseMultipart(raw, ct, { ...limits, maxFiles: 2, maxParts: 3 });
    expect(body.files).toHaveLength(2);
  });

  it('accepts a field that really contains U+FFFD', async () => {
    const fd = new FormData();
    fd.append('note', 'before \uFFFD after é');
    const { raw, ct } = await encode(fd);
    const body = await parseMultipart(raw, ct, limits);
    expect(body.fields.note).toEqual(['before \uFFFD after é']);
  });

  it('decodes a field that declares charset=utf-8, as .NET clients send it', async () => {
    const raw = handBody(
      field('bundle_request', '{"label":"é €"}', 'Content-Type: text/plain; charset=utf-8'),
    );
    const body = await parseMultipart(raw, handCt, limits);
    expect(body.fields.bundle_request).toEqual(['{"label":"é €"}']);
  });

  it('accepts a quoted boundary, a preamble and an epilogue', async () => {
    const raw = Buffer.concat([
      Buffer.from('preamble to ignore\r\n'),
      handBody(field('a', '1')),
      Buffer.from('epilogue'),
    ]);
    const body = await parseMultipart(raw, `multipart/form-data; boundary="${B}"`, limits);
    expect(body.fields.a).toEqual(['1']);
  });
});

describe('filesByIndex', () => {
  const f = (field: string) => ({ field });

  it('maps files[N] and file[N] to N', () => {
    const map = filesByIndex([f('files[0]'), f('file[3]'), f('files[1]')]);
    expect([...map.entries()].map(([i, x]) => [i, x.field])).toEqual([
      [0, 'files[0]'],
      [3, 'file[3]'],
      [1, 'files[1]'],
    ]);
  });

  it('numbers repeated file parts 0, 1, 2 in order', () => {
    const map = filesByIndex([
      { field: 'file', tag: 'a' },
      { field: 'file', tag: 'b' },
      { field: 'file', tag: 'c' },
    ]);
    expect([...map.entries()].map(([i, x]) => [i, x.tag])).toEqual([
      [0, 'a'],
      [1, 'b'],
      [2, 'c'],
    ]);
  });

  it('works on parsed file[3] and repeated file parts', async () => {
    const fd = new FormData();
    fd.append('file[3]', new Blob(['three']), 'three.txt');
    const first = await encode(fd);
    const one = await parseMultipart(first.raw, first.ct, limits);
    expect(filesByIndex(one.files).get(3)?.data.toString()).toBe('three');

    const fd2 = new FormData();
    fd2.append('file', new Blob(['zero']), 'z.txt');
    fd2.append('file', new Blob(['one']), 'o.txt');
    const second = await encode(fd2);
    const two = filesByIndex((await parseMultipart(second.raw, second.ct, limits)).files);
    expect(two.get(0)?.data.toString()).toBe('zero');
    expect(two.get(1)?.data.toString()).toBe('one');
  });

  it('rejects a duplicate index, naming the field', () => {
    for (const fields of [
      ['files[1]', 'file[1]'],
      ['files[2]', 'files[02]'],
      ['file', 'files[0]'],
    ]) {
      let err: unknown;
      try {
        filesByIndex(fields.map(f));
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ValidationError);
      expect((err as ValidationError).fieldErrors[0]?.field).toBe(fields[1]);
    }
  });

  it('rejects a file under a name that has no index', () => {
    expect(() => filesByIndex([f('document')])).toThrow(ValidationError);
  });
});

describe('parseMultipart: errors', () => {
  const simple = async () => {
    const fd = new FormData();
    fd.append('bundle_request', '{"a":1}');
    fd.append('files[0]', new Blob([Buffer.alloc(200, 1)]), 'a.bin');
    return encode(fd);
  };

  it('refuses a content type without a boundary, or with a bad one', async () => {
    const { raw } = await simple();
    for (const ct of [
      'multipart/form-data',
      'multipart/form-data; boundary=',
      'multipart/form-data; boundary=""',
      `multipart/form-data; boundary=${'a'.repeat(71)}`,
      'multipart/form-data; boundary="ends in space "',
      'multipart/form-data; boundary="semi;colon"',
      'multipart/form-data; boundary=a:b',
      'multipart/form-data; junk boundary=abc',
      'application/json',
    ]) {
      const err = await rejection(parseMultipart(raw, ct, limits));
      expect(err, ct).toBeInstanceOf(ParseError);
    }
  });

  it('refuses a body whose boundary does not match the header', async () => {
    const { raw } = await simple();
    const err = await rejection(parseMultipart(raw, 'multipart/form-data; boundary=other', limits));
    expect(err).toBeInstanceOf(ParseError);
    expect(err.message).toMatch(/boundary/);
  });

  it('refuses a truncated body wherever it is cut', async () => {
    const { raw, ct } = await simple();
    for (const cut of [0, 10, 60, 120, raw.length - 100, raw.length - 4]) {
      const err = await rejection(parseMultipart(raw.subarray(0, cut), ct, limits));
      expect(err, `cut at ${cut}`).toBeInstanceOf(ParseError);
    }
  });

  it('refuses a malformed part header', async () => {
    const raw = handBody({ headers: ['Content-Disposition form-data; name="a"'], body: 'x' });
    const err = await rejection(parseMultipart(raw, handCt, limits));
    expect(err).toBeInstanceOf(ParseError);
    expect(err.message).toMatch(/part header/);
  });

  it('refuses a part without a name', async () => {
    const raw = handBody({ headers: ['Content-Disposition: form-data'], body: 'x' });
    expect(await rejection(parseMultipart(raw, handCt, limits))).toBeInstanceOf(ParseError);
  });

  it('refuses a base64 Content-Transfer-Encoding rather than storing the encoded text', async () => {
    const raw = handBody({
      headers: [
        'Content-Disposition: form-data; name="files[0]"; filename="a.pdf"',
        'Content-Transfer-Encoding: base64',
      ],
      body: 'JVBERi0=',
    });
    expect(await rejection(parseMultipart(raw, handCt, limits))).toBeInstanceOf(ParseError);
  });

  it('refuses too many files as a validation error on "files"', async () => {
    const fd = new FormData();
    fd.append('files[0]', new Blob(['a']), 'a.txt');
    fd.append('files[1]', new Blob(['b']), 'b.txt');
    const { raw, ct } = await encode(fd);
    const err = await rejection(parseMultipart(raw, ct, { ...limits, maxFiles: 1 }));
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).fieldErrors[0]?.field).toBe('files');
  });

  it('refuses a file over the size limit', async () => {
    const { raw, ct } = await simple();
    const err = await rejection(parseMultipart(raw, ct, { ...limits, maxFileBytes: 199 }));
    expect(err).toBeInstanceOf(PayloadTooLargeError);
    expect(err.message).toContain('files[0]');
  });

  it('refuses a field over the size limit', async () => {
    const { raw, ct } = await simple();
    const err = await rejection(parseMultipart(raw, ct, { ...limits, maxFieldBytes: 6 }));
    expect(err).toBeInstanceOf(PayloadTooLargeError);
    expect(err.message).toContain('bundle_request');
  });

  it('refuses more parts than allowed', async () => {
    const raw = handBody(field('a', '1'), field('b', '2'), field('c', '3'));
    expect(await rejection(parseMultipart(raw, handCt, { ...limits, maxParts: 2 }))).toBeInstanceOf(
      PayloadTooLargeError,
    );
  });

  it('refuses invalid UTF-8 in a field, declared charset or not', async () => {
    const bad = Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0xc3, 0x22, 0x7d]);
    for (const raw of [
      handBody(field('bundle_request', bad)),
      handBody(field('bundle_request', bad, 'Content-Type: text/plain; charset=utf-8')),
      handBody(field('ok', 'fine é'), field('bundle_request', Buffer.concat([Buffer.from('é'), bad]))),
    ]) {
      const err = await rejection(parseMultipart(raw, handCt, limits));
      expect(err).toBeInstanceOf(ParseError);
      expect(err.message).toContain('"bundle_request" is not valid UTF-8');
    }
  });

  it('refuses a field in a charset busboy cannot decode', async () => {
    const raw = handBody(field('a', 'x', 'Content-Type: text/plain; charset=x-unknown'));
    expect(await rejection(parseMultipart(raw, handCt, limits))).toBeInstanceOf(ParseError);
  });
});

describe('parseMultipart: arbitrary input', () => {
  const allowed = new Set(['ParseError', 'PayloadTooLargeError', 'ValidationError']);
  const small: TMultipartLimits = { maxFiles: 2, maxFileBytes: 24, maxFieldBytes: 24, maxParts: 4 };

  const pieces = [
    '--XyZ\r\n',
    '\r\n--XyZ\r\n',
    '\r\n--XyZ--',
    '\r\n--XyZ--\r\n',
    '\r\n--XyZ',
    'Content-Disposition: form-data; name="bundle_request"\r\n',
    'Content-Disposition: form-data; name="files[0]"; filename="a.pdf"\r\n',
    'Content-Disposition: form-data; filename*=UTF-8\'\'%E2%82%AC.pdf; name="file"\r\n',
    'Content-Disposition: form-data\r\n',
    'Content-Type: text/plain; charset=utf-8\r\n',
    'Content-Type: text/plain; charset=nope\r\n',
    'Content-Type: application/octet-stream\r\n',
    'Content-Transfer-Encoding: base64\r\n',
    '\r\n',
    '\r\n\r\n',
    '{"a":"é"}',
  ].map((s) => Buffer.from(s));
  const bytes = fc.uint8Array({ maxLength: 40 }).map((a) => Buffer.from(a));
  const part = fc.record({
    headers: fc.tuple(
      fc.constantFrom(
        'Content-Disposition: form-data; name="bundle_request"',
        'Content-Disposition: form-data; name="note"',
        'Content-Disposition: form-data; name="files[0]"; filename="a.pdf"',
        'Content-Disposition: form-data; name="file"; filename*=UTF-8\'\'%E2%82%AC.pdf',
        'Content-Disposition: form-data',
        'Content-Disposition: form-data; name=',
        'Bad header',
      ),
      fc.option(
        fc.constantFrom(
          'Content-Type: text/plain; charset=utf-8',
          'Content-Type: text/plain; charset=nope',
          'Content-Type: application/octet-stream',
          'Content-Transfer-Encoding: base64',
        ),
        { freq: 3, nil: undefined },
      ),
    ),
    content: fc.oneof(
      bytes,
      fc.string({ maxLength: 30 }).map((t) => Buffer.from(t)),
    ),
  });
  // Well-formed bodies from a few typical headers, then sometimes cut short or with one byte changed,
  // so most runs get past the first part header instead of failing on the first bytes.
  const structured = fc
    .record({
      parts: fc.array(part, { maxLength: 6 }),
      closed: fc.oneof({ arbitrary: fc.constant(true), weight: 3 }, fc.constant(false)),
      cut: fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, fc.nat()),
      flip: fc.oneof(
        { arbitrary: fc.constant(undefined), weight: 3 },
        fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })),
      ),
    })
    .map(({ parts, closed, cut, flip }) => {
      const raw = Buffer.concat([
        ...parts.flatMap((p, i) => [
          Buffer.from(
            `${i === 0 ? '' : '\r\n'}--XyZ\r\n${p.headers.flatMap((h) => (h ? [`${h}\r\n`] : [])).join('')}\r\n`,
          ),
          p.content,
        ]),
        Buffer.from(closed ? '\r\n--XyZ--\r\n' : ''),
      ]);
      if (flip && raw.length > 0) raw[flip[0] % raw.length] = flip[1];
      return cut === undefined || raw.length === 0 ? raw : raw.subarray(0, cut % raw.length);
    });
  const body = fc.oneof(
    fc.uint8Array({ maxLength: 600 }).map((a) => Buffer.from(a)),
    fc
      .array(fc.oneof(fc.constantFrom(...pieces), bytes, fc.constant(Buffer.from([0xff, 0xc3]))), {
        maxLength: 30,
      })
      .map((list) => Buffer.concat(list)),
    { arbitrary: structured, weight: 4 },
  );
  const contentType = fc.oneof(
    { arbitrary: fc.constant('multipart/form-data; boundary=XyZ'), weight: 6 },
    fc.constant('multipart/form-data; boundary="XyZ"'),
    fc.string({ maxLength: 20 }).map((b) => `multipart/form-data; boundary=${b}`),
    fc.string({ maxLength: 30 }).map((rest) => `multipart/form-data${rest}`),
  );

  function settleWithin(
    p: Promise<unknown>,
    ms: number,
  ): Promise<{ ok: true } | { ok: false; err: unknown }> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`did not settle within ${ms} ms`)), ms);
      p.then(
        () => resolve({ ok: true }),
        (err: unknown) => resolve({ ok: false, err }),
      ).finally(() => clearTimeout(timer));
    });
  }

  it('always settles with a result or one of the three allowed errors', async () => {
    await fc.assert(
      fc.asyncProperty(body, contentType, async (raw, ct) => {
        const outcome = await settleWithin(parseMultipart(raw, ct, small), 2000);
        if (!outcome.ok) {
          expect(outcome.err).toBeInstanceOf(Error);
          expect(allowed.has((outcome.err as Error).name), String(outcome.err)).toBe(true);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('parses what it is given when the pieces make a valid body', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.uint8Array({ maxLength: 24 }), { minLength: 1, maxLength: 2 }),
        fc.string({ maxLength: 6 }),
        async (blobs, text) => {
          const fd = new FormData();
          fd.append('bundle_request', text);
          blobs.forEach((b, i) => {
            fd.append(`files[${i}]`, new Blob([b]), `f${i}.bin`);
          });
          const { raw, ct } = await encode(fd);
          const parsed = await parseMultipart(raw, ct, small);
          expect(parsed.fields.bundle_request).toEqual([text]);
          expect(parsed.files.map((f) => [...f.data])).toEqual(blobs.map((b) => [...b]));
        },
      ),
      { numRuns: 100 },
    );
  });
});
