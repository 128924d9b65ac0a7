// PDFs built to make a reader work without end, sent where anyone may send them: the public check
// (no key), the /verify page and the keyed POST /verify/. Each answers: a report, or 422
// too_complex with a message in the visitor's language, never a server that stops answering.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import {
  decompressionBomb,
  manyObjects,
  manySignatures,
  selfReferencingNameTree,
} from '../helpers/hostile-pdfs';
import { aPdf } from '../helpers/pdfs';
import { apiClient } from '../helpers/runtime';
import { sharedTestRuntime } from '../helpers/shared-runtime';

let runtime: TRuntime;
let call: ReturnType<typeof apiClient>;
beforeAll(async () => {
  runtime = await sharedTestRuntime();
  call = apiClient(runtime);
});
afterAll(async () => {
  await runtime?.stop();
});

const publicCheck = (pdf: Buffer, lang = 'en') =>
  fetch(`${runtime.baseUrl}/verify/api/check`, {
    method: 'POST',
    headers: { 'content-type': 'application/pdf', 'accept-language': lang },
    body: pdf,
  });

const pageCheck = (pdf: Buffer, lang: string) => {
  const form = new FormData();
  form.append('file', new Blob([pdf], { type: 'application/pdf' }), 'hostile.pdf');
  return fetch(`${runtime.baseUrl}/verify?lang=${lang}`, { method: 'POST', body: form });
};

describe('hostile PDFs on the verify endpoints', () => {
  it('reads an attachment tree that lists itself as its kids once, and reports on the file', async () => {
    const pdf = selfReferencingNameTree();
    const res = await publicCheck(pdf);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { checks: { checks: { id: string; status: string }[] } };
    expect(body.checks.checks).toContainEqual(
      expect.objectContaining({ id: 'evidence-record', status: 'info' }),
    );
    const keyed = await call('POST', '/verify/', { raw: pdf, contentType: 'application/pdf' });
    expect(keyed.status).toBe(200);
    expect(keyed.body).toMatchObject({ match: false, sealed: false });
    const page = await pageCheck(pdf, 'en');
    expect(page.status).toBe(200);
  }, 120_000);

  it('refuses a doubly compressed attachment that expands to 1.5 GB with 422 too_complex', async () => {
    const pdf = decompressionBomb();
    const res = await publicCheck(pdf);
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({
      code: 'too_complex',
      message: expect.stringContaining('expands to more than 64 MB'),
    });
    const keyed = await call('POST', '/verify/', { raw: pdf, contentType: 'application/pdf' });
    expect(keyed.status).toBe(422);
    expect(keyed.body.code).toBe('too_complex');
  }, 120_000);

  it('refuses 30,000 signature dictionaries with 422, in the language of the page', async () => {
    const pdf = manySignatures();
    const res = await publicCheck(pdf);
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({
      code: 'too_complex',
      message: 'The file holds 30000 signature dictionaries; at most 50 are checked.',
    });
    const german = await publicCheck(pdf, 'de');
    expect(await german.json()).toMatchObject({
      code: 'too_complex',
      message: expect.stringContaining('Diese Datei ist zu komplex'),
    });
    const page = await pageCheck(pdf, 'ja');
    expect(page.status).toBe(422);
    const html = await page.text();
    expect(html).toContain('<html lang="ja"');
    expect(html).toContain('このファイルは複雑すぎるため');
    const keyed = await call('POST', '/verify/', { raw: pdf, contentType: 'application/pdf' });
    expect(keyed.status).toBe(422);
    expect(keyed.body.code).toBe('too_complex');
  }, 120_000);

  it('keeps answering others while a slow file is being checked', async () => {
    // Within every cap, but slow to read: the check of it is still at work when the others come
    // (on the request's thread, it kept the page from answering for as long as it took).
    let slowDone = false;
    const slow = publicCheck(manyObjects(45_000)).then(async (res) => {
      slowDone = true;
      return res;
    });
    const page = await fetch(`${runtime.baseUrl}/verify`);
    const pageWhileSlow = !slowDone;
    const plain = await publicCheck(Buffer.from(await aPdf()));
    const plainWhileSlow = !slowDone;
    expect(page.status).toBe(200);
    expect(plain.status).toBe(200);
    expect(pageWhileSlow).toBe(true);
    expect(plainWhileSlow).toBe(true);
    // It answers too: its report, or 422 once it has used its time.
    const answer = await slow;
    if (answer.status !== 200) {
      expect(answer.status).toBe(422);
      expect(await answer.json()).toMatchObject({ code: 'too_complex' });
    }
  }, 120_000);
});
