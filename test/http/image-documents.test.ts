// Images as documents through the API: a PNG or JPEG sent as a bundle's or a template's document
// becomes a one-page PDF (checked with poppler), signs and seals like any PDF, and a damaged
// image is a 400 on the document's field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { aJpeg, aPng, darkLeftQuarter } from '../helpers/images';
import { imageCount, pageGrey, pdfsig } from '../helpers/poppler';
import { eventually } from '../helpers/receiver';
import { apiClient, isErrorBody } from '../helpers/runtime';
import { sharedTestRuntime } from '../helpers/shared-runtime';
import { openSession, PNG_DATA_URL, signerClient } from '../helpers/signer';

let runtime: TRuntime;
let call: ReturnType<typeof apiClient>;
let sign: ReturnType<typeof signerClient>;

beforeAll(async () => {
  runtime = await sharedTestRuntime();
  call = apiClient(runtime);
  sign = signerClient(runtime);
});

afterAll(async () => {
  await runtime?.stop();
});

async function download(url: string): Promise<Buffer> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

/** The first page's size in points, as rendered at 72 dpi. */
function pageSize(pdf: Uint8Array): [number, number] {
  const page = pageGrey(pdf, 1, 72);
  return [page.width, page.height];
}

describe('an image as a document', () => {
  it('a wide PNG in file_b64 (a data: URL) makes a template whose PDF is one landscape Letter page', async () => {
    const png = aPng(320, 160, darkLeftQuarter(320));
    const res = await call('POST', '/templates/', {
      json: {
        name: 'Scanned form',
        file_b64: `data:image/png;base64,${png.toString('base64')}`,
        roles: [{ key: 'emp', label: 'Employee' }],
        fields: [{ key: 'sig', kind: 'sig', page: 1, x: 60, y: 80, w: 30, h: 8, editor_roles: ['emp'] }],
      },
    });
    expect(res.status, res.text).toBe(201);
    const pdf = await download(res.body.file_url);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pageSize(pdf)).toEqual([792, 612]);
    expect(imageCount(pdf)).toBe(1);
  });

  it('a JPEG with EXIF orientation 6, sent as a multipart part, is turned upright, signed and sealed', async () => {
    // Stored 320 × 160 (wide) and to be turned a quarter: a portrait page.
    const jpeg = aJpeg(320, 160, darkLeftQuarter(320), { orientation: 6 });
    const form = new FormData();
    form.append(
      'bundle_request',
      JSON.stringify({
        label: 'Photo of a signed page',
        packets: [{ key: 'ann', name: 'Ann Lee', email: 'ann@example.com', deliver_via: 'embed' }],
        documents: [
          {
            key: 'photo',
            file_index: 0,
            fields: [{ key: 'sig', kind: 'sig', page: 1, x: 10, y: 85, w: 30, h: 6, editors: ['ann'] }],
          },
        ],
      }),
    );
    form.append('files[0]', new Blob([jpeg], { type: 'image/jpeg' }), 'photo.jpg');
    const created = await fetch(`${runtime.apiUrl}bundles/`, {
      method: 'POST',
      headers: { authorization: `Token ${runtime.demo.apiKey}` },
      body: form,
    });
    // biome-ignore lint/suspicious/noExplicitAny: the bundle as the API answered it
    const bundle = (await created.json()) as any;
    expect(created.status, JSON.stringify(bundle)).toBe(201);

    const session = await openSession(sign, call, bundle.packets[0].id);
    const values = await sign('PUT', '/values', session, {
      values: [{ doc_key: 'photo', field_key: 'sig', image: PNG_DATA_URL }],
    });
    expect(values.status, JSON.stringify(values.body)).toBe(200);
    expect((await sign('POST', '/complete', session, { consent: true })).status).toBe(200);

    const ready = await eventually(
      async () => {
        const b = (await call('GET', `/bundles/${bundle.id}/`)).body;
        return b.docs_ready || b.status === 'fa' ? b : undefined;
      },
      60_000,
      'documents ready',
    );
    expect(ready.status).toBe('co');
    const files = await call('GET', `/bundles/${bundle.id}/files/`);
    expect(files.status, files.text).toBe(200);
    const final = await download(files.body.find((f: { kind: string }) => f.kind === 'final').file_url);
    expect(pageSize(final)[0]).toBeLessThan(pageSize(final)[1]);
    // The stored left quarter, turned a quarter clockwise, is now along the top of the picture.
    const page = pageGrey(final, 1, 36);
    const midX = Math.floor(page.width / 2);
    const column = Array.from({ length: page.height }, (_, y) => page.at(midX, y));
    const firstDark = column.findIndex((g) => g < 64);
    const firstLight = column.findIndex((g) => g > 120 && g < 230);
    expect(firstDark).toBeGreaterThan(0);
    expect(firstDark).toBeLessThan(firstLight);
    expect(pdfsig(final)).toContain('Signature is Valid.');
  }, 120_000);

  it('a damaged image is a 400 on the document’s field, saying what is wrong', async () => {
    const png = aPng(64, 64, darkLeftQuarter(64));
    const res = await call('POST', '/bundles/', {
      json: {
        packets: [{ key: 'ann', name: 'Ann Lee', email: 'ann@example.com' }],
        documents: [{ key: 'scan', file_b64: png.subarray(0, png.length - 30).toString('base64') }],
      },
    });
    expect(res.status, res.text).toBe(400);
    expect(isErrorBody(res.body)).toBe(true);
    expect(res.body.errors).toEqual([
      expect.objectContaining({
        field: 'documents[0].file_b64',
        message: 'The PNG image is damaged: it ends early, as if the upload was cut short.',
      }),
    ]);
    const neither = await call('POST', '/bundles/', {
      json: {
        packets: [{ key: 'ann', name: 'Ann Lee', email: 'ann@example.com' }],
        documents: [{ key: 'doc', file_b64: Buffer.from('GIF89a not accepted').toString('base64') }],
      },
    });
    expect(neither.status).toBe(400);
    expect(neither.body.errors[0].message).toBe('The file is not a PDF, a JPEG or a PNG image.');
  });
});
