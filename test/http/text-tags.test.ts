import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { createBundleStore } from '#shared/adapters/dynamodb/bundle-store';
import { pageTexts, textOf, wordBoxes } from '../helpers/poppler';
import { eventually } from '../helpers/receiver';
import { apiClient, isErrorBody } from '../helpers/runtime';
import { sharedTestRuntime } from '../helpers/shared-runtime';
import { openSession, PNG_DATA_URL, signerClient } from '../helpers/signer';

let runtime: TRuntime;
let call: ReturnType<typeof apiClient>;
let sign: ReturnType<typeof signerClient>;
let tagged: Uint8Array;

const LETTER: [number, number] = [612, 792];
const A4: [number, number] = [595.28, 841.89];

/**
 * An offer letter with its fields written as tags: on page 1 the employee's signature tag is
 * drawn in three runs of two fonts (as a word processor splits a line where the style changes),
 * on page 2 HR's tags sit inside sentences.
 */
async function anOfferLetter(lines: { page: 1 | 2; y: number; runs: [string, 'regular' | 'bold'][] }[]) {
  const doc = await PDFDocument.create();
  const pages = [doc.addPage(LETTER), doc.addPage(A4)];
  const fonts = {
    regular: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
  };
  for (const line of lines) {
    let x = 72;
    for (const [text, font] of line.runs) {
      pages[line.page - 1]!.drawText(text, { x, y: line.y, size: 12, font: fonts[font] });
      x += fonts[font].widthOfTextAtSize(text, 12);
    }
  }
  return doc.save();
}

const OFFER_LINES = [
  { page: 1, y: 700, runs: [['We are glad to offer you the position.', 'regular']] },
  {
    page: 1,
    y: 600,
    runs: [
      ['Employee: ', 'regular'],
      ['{{s', 'regular'],
      ['ig|signer=emp', 'bold'],
      ['|required}}', 'regular'],
    ],
  },
  { page: 1, y: 560, runs: [['Start date: {{dat|signer=emp|key=start|required}}', 'regular']] },
  { page: 2, y: 700, runs: [['Title: {{inp|signer=hr|label=Job title|key=title|w=150|h=20}}', 'regular']] },
  { page: 2, y: 600, runs: [['For the company: {{sig|signer=hr|required|w=180|h=40}}', 'regular']] },
] as const;

beforeAll(async () => {
  runtime = await sharedTestRuntime();
  call = apiClient(runtime);
  sign = signerClient(runtime);
  tagged = await anOfferLetter(OFFER_LINES.map((l) => ({ ...l, runs: l.runs.map((r) => [...r]) })) as never);
}, 60_000);
afterAll(async () => {
  await runtime?.stop();
});

const b64 = (pdf: Uint8Array) => Buffer.from(pdf).toString('base64');

const anOffer = (document: Record<string, unknown>) => ({
  label: 'Offer letter',
  packets: [
    { key: 'emp', name: 'Erin Park', email: 'erin@example.com', deliver_via: 'embed' },
    { key: 'hr', name: 'Hal Reyes', email: 'hal@example.com', deliver_via: 'embed' },
  ],
  documents: [{ key: 'offer', text_tags: true, ...document }],
});

async function storedFields(bundleId: string) {
  const store = createBundleStore(runtime.db, runtime.config.tableName);
  const stored = await store.get(runtime.demo.accountId, bundleId);
  const [doc] = await store.documents(stored!);
  return doc!;
}

/** Where poppler sees a word of the original, in percent of its page. */
function percentOf(word: string) {
  const w = wordBoxes(tagged).find((b) => b.word.startsWith(word))!;
  return { page: w.page, x: (w.xMin / w.pageWidth) * 100, y: (w.yMin / w.pageHeight) * 100 };
}

describe('text tags on a bundle document', () => {
  it('places a field over each tag, with its kind, signer, options and box', async () => {
    const res = await call('POST', '/bundles/', { json: anOffer({ file_b64: b64(tagged) }) });
    expect(res.status, res.text).toBe(201);
    const doc = await storedFields(res.body.id);
    expect(doc.fields.map((f) => [f.key, f.kind, f.page, f.editors, f.required, f.label])).toEqual([
      ['field-1', 'sig', 1, ['emp'], true, ''],
      ['start', 'dat', 1, ['emp'], true, ''],
      ['title', 'inp', 2, ['hr'], false, 'Job title'],
      ['field-2', 'sig', 2, ['hr'], true, ''],
    ]);
    const [empSig, start, title, hrSig] = doc.fields as [
      (typeof doc.fields)[0],
      (typeof doc.fields)[0],
      (typeof doc.fields)[0],
      (typeof doc.fields)[0],
    ];
    // The split tag is found as one: its field starts where poppler sees the tag's word start.
    expect(empSig.x).toBeCloseTo(percentOf('{{sig|signer=emp').x, 0);
    expect(empSig.y).toBeCloseTo(percentOf('{{sig|signer=emp').y, 0);
    expect(start.x).toBeCloseTo(percentOf('{{dat').x, 0);
    // Without w and h the field has the tag's own box: about one 12 pt line high.
    expect((empSig.h / 100) * LETTER[1]).toBeGreaterThan(10);
    expect((empSig.h / 100) * LETTER[1]).toBeLessThan(16);
    // w and h are points: 150 × 20 on an A4 page.
    expect(title.w).toBeCloseTo((150 / A4[0]) * 100, 1);
    expect(title.h).toBeCloseTo((20 / A4[1]) * 100, 1);
    expect(title.x).toBeCloseTo(percentOf('{{inp').x, 0);
    expect(hrSig.w).toBeCloseTo((180 / A4[0]) * 100, 1);
  });

  it('takes the document from multipart too', async () => {
    const form = new FormData();
    form.append('bundle_request', JSON.stringify(anOffer({ file_index: 0 })));
    form.append('files[0]', new Blob([Buffer.from(tagged)], { type: 'application/pdf' }), 'offer.pdf');
    const res = await fetch(`${runtime.apiUrl}bundles/`, {
      method: 'POST',
      headers: { authorization: `Token ${runtime.demo.apiKey}` },
      body: form,
    });
    const body = (await res.json()) as { id: string };
    expect(res.status, JSON.stringify(body)).toBe(201);
    expect((await storedFields(body.id)).fields.map((f) => f.kind)).toEqual(['sig', 'dat', 'inp', 'sig']);
  });

  it('gives a dropdown its choices from options', async () => {
    const pdf = await anOfferLetter([
      {
        page: 1,
        y: 700,
        runs: [['Contract: {{sel|signer=emp|key=kind|options=Full time, Part time}}', 'regular']],
      },
    ]);
    const res = await call('POST', '/bundles/', { json: anOffer({ file_b64: b64(pdf) }) });
    expect(res.status, res.text).toBe(201);
    expect((await storedFields(res.body.id)).fields).toEqual([
      expect.objectContaining({ key: 'kind', kind: 'sel', format: 'Full time|Part time', editors: ['emp'] }),
    ]);
  });

  it('leaves tags alone without text_tags', async () => {
    const res = await call('POST', '/bundles/', {
      json: anOffer({ file_b64: b64(tagged), text_tags: false }),
    });
    expect(res.status, res.text).toBe(201);
    expect((await storedFields(res.body.id)).fields).toEqual([]);
  });

  it.each([
    ['an unknown kind', '{{signature|signer=emp}}', '"signature" is not a field kind'],
    ['an unknown signer', '{{sig|signer=boss}}', 'no signer has the key "boss"'],
    ['a bad option', '{{inp|signer=hr|colour=red}}', '"colour" is not an option'],
    // Names every object has are no options either: "__proto__" once made the field required.
    ['"__proto__" as a flag', '{{inp|signer=hr|__proto__}}', '"__proto__" is not an option'],
    ['"constructor" as a flag', '{{inp|signer=hr|constructor}}', '"constructor" is not an option'],
    ['"toString" with a value', '{{inp|signer=hr|toString=x}}', '"toString" is not an option'],
    ['a bad size', '{{inp|signer=hr|w=wide}}', 'size in points'],
    ['an unclosed tag', '{{sig|signer=emp', 'not closed'],
  ])('answers 400 for %s, naming the document, the page and the tag', async (_what, tag, problem) => {
    const pdf = await anOfferLetter([
      { page: 1, y: 700, runs: [['Fine: {{sig|signer=emp}}', 'regular']] },
      { page: 2, y: 500, runs: [[`Here: ${tag}`, 'regular']] },
    ]);
    const res = await call('POST', '/bundles/', { json: anOffer({ file_b64: b64(pdf) }) });
    expect(res.status, res.text).toBe(400);
    expect(isErrorBody(res.body)).toBe(true);
    expect(res.body.errors).toEqual([
      expect.objectContaining({ field: 'documents[0].text_tags', message: expect.stringContaining(problem) }),
    ]);
    const message: string = res.body.errors[0].message;
    expect(message).toContain('Document "offer", page 2');
    expect(message).toContain(`"${tag}`);
  });

  it('answers 400 when a tag with its size runs off the page', async () => {
    const pdf = await anOfferLetter([
      { page: 1, y: 700, runs: [['Sign: {{sig|signer=emp|w=600}}', 'regular']] },
    ]);
    const res = await call('POST', '/bundles/', { json: anOffer({ file_b64: b64(pdf) }) });
    expect(res.status, res.text).toBe(400);
    expect(res.body.errors[0]).toMatchObject({
      field: 'documents[0].text_tags',
      message: expect.stringContaining(
        'page 1, tag "{{sig|signer=emp|w=600}}": the field extends past the right edge',
      ),
    });
  });

  it('answers 400 for more tags than a document may have fields, at once', async () => {
    const doc = await PDFDocument.create();
    for (let p = 0; p < 7; p++) {
      const page = doc.addPage(LETTER);
      for (let i = 0; i < 43; i++)
        page.drawText(`Sign: {{ini|signer=emp}}`, { x: 72, y: 740 - i * 16, size: 10 });
    }
    const res = await call('POST', '/bundles/', { json: anOffer({ file_b64: b64(await doc.save()) }) });
    expect(res.status, res.text).toBe(400);
    expect(res.body.errors).toEqual([
      {
        field: 'documents[0].text_tags',
        message: 'Document "offer" has 301 tags; at most 300 fields a document.',
        messsage: expect.any(String),
      },
    ]);
  });

  it('hides the tags: the signer and the final document show the values, not the tags', async () => {
    const res = await call('POST', '/bundles/', { json: anOffer({ file_b64: b64(tagged) }) });
    expect(res.status, res.text).toBe(201);
    const [emp, hr] = res.body.packets as { id: string }[];
    const erin = await openSession(sign, call, emp!.id);
    const erinFields = (await sign('GET', '/state', erin)).body.fields as { key: string }[];
    expect(erinFields.map((f) => f.key)).toEqual(expect.arrayContaining(['field-1', 'start']));
    const filled = await sign('PUT', '/values', erin, {
      values: [
        { doc_key: 'offer', field_key: 'field-1', image: PNG_DATA_URL },
        { doc_key: 'offer', field_key: 'start', value: '2027-01-04' },
      ],
    });
    expect(filled.status, JSON.stringify(filled.body)).toBe(200);
    expect((await sign('POST', '/complete', erin, { consent: true })).status).toBe(200);
    const hal = await openSession(sign, call, hr!.id);
    const halFilled = await sign('PUT', '/values', hal, {
      values: [
        { doc_key: 'offer', field_key: 'title', value: 'Staff Engineer' },
        { doc_key: 'offer', field_key: 'field-2', value: 'typed:Hal Reyes' },
      ],
    });
    expect(halFilled.status, JSON.stringify(halFilled.body)).toBe(200);
    expect((await sign('POST', '/complete', hal, { consent: true })).status).toBe(200);

    const done = await eventually(
      async () => {
        const b = (await call('GET', `/bundles/${res.body.id}/`)).body;
        return b.docs_ready || b.status === 'fa' ? b : undefined;
      },
      60_000,
      'documents ready',
    );
    expect(done.docs_ready).toBe(true);
    const files = (await call('GET', `/bundles/${res.body.id}/files/`)).body as {
      kind: string;
      file_url: string;
    }[];
    const final = Buffer.from(
      await (await fetch(files.find((f) => f.kind === 'final')!.file_url)).arrayBuffer(),
    );
    const [page1, page2] = pageTexts(final);
    expect(textOf(final)).not.toMatch(/\{\{|\}\}/);
    expect(page1).toContain('We are glad to offer you the position.');
    expect(page1).toMatch(/Employee:/);
    expect(page1).toContain('January 4, 2027'); // a date field without a format: in full, in English
    expect(page2).toContain('Staff Engineer');
    expect(page2).toContain('Hal Reyes');
  }, 120_000);
});

describe('text tags on a document template', () => {
  it('places the template fields for its roles, and names a role that is not one', async () => {
    const res = await call('POST', '/templates/', {
      json: {
        name: 'Offer letter',
        roles: [{ key: 'emp' }, { key: 'hr' }],
        file_b64: b64(tagged),
        text_tags: true,
      },
    });
    expect(res.status, res.text).toBe(201);
    const fields = res.body.fields as { key: string; kind: string; page: number; editor_roles: string[] }[];
    expect(fields.map((f) => [f.key, f.kind, f.page, f.editor_roles])).toEqual([
      ['field-1', 'sig', 1, ['emp']],
      ['start', 'dat', 1, ['emp']],
      ['title', 'inp', 2, ['hr']],
      ['field-2', 'sig', 2, ['hr']],
    ]);
    const file = await fetch(res.body.file_url);
    expect(textOf(Buffer.from(await file.arrayBuffer()))).not.toContain('{{');

    const wrongRole = await call('POST', '/templates/', {
      json: { name: 'Offer letter', roles: [{ key: 'emp' }], file_b64: b64(tagged), text_tags: true },
    });
    expect(wrongRole.status, wrongRole.text).toBe(400);
    expect(wrongRole.body.errors[0]).toMatchObject({
      field: 'text_tags',
      message: expect.stringContaining('no role has the key "hr"'),
    });
  });
});
