// The pages without a packet (portal, verify, the message pages) in the visitor's language, and the
// errors the signer API and the public pages answer in the reader's language, over real HTTP: the
// body keeps its `code`, its message and field messages are translated; the sender's API stays
// English whatever the caller's Accept-Language.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataPaths } from '#infra/local/layout';
import { listMailbox } from '#infra/local/mailbox/index';
import type { TRuntime } from '#infra/local/runtime';
import { createAccountStore } from '#shared/adapters/dynamodb/account-store';
import { newSealIdentity, sealPdf } from '#shared/pdf/seal';
import type { TVerifyReport } from '#shared/verify/report';
import { aBundle, aPdfB64 } from '../helpers/bundles';
import { aPdf } from '../helpers/pdfs';
import { apiClient, isErrorBody, startTestRuntime } from '../helpers/runtime';
import { openSession, signerClient } from '../helpers/signer';

let runtime: TRuntime;
let call: ReturnType<typeof apiClient>;
let sign: ReturnType<typeof signerClient>;
let b64: string;
let docTemplate: string;

beforeAll(async () => {
  runtime = await startTestRuntime();
  call = apiClient(runtime);
  sign = signerClient(runtime);
  b64 = await aPdfB64();
  const doc = await call('POST', '/templates/', {
    json: {
      name: 'Waiver',
      file_b64: b64,
      roles: [{ key: 'visitor', label: 'Visitor' }],
      fields: [{ key: 'sig', kind: 'sig', page: 1, x: 10, y: 70, w: 30, h: 5, editor_roles: ['visitor'] }],
    },
  });
  expect(doc.status, doc.text).toBe(201);
  docTemplate = doc.body.id;
});
afterAll(() => runtime.stop());

const htmlTag = (html: string) => /<html [^>]*>/.exec(html)?.[0] ?? '';

async function page(url: string, accept?: string) {
  const res = await fetch(url, { headers: accept ? { 'accept-language': accept } : {} });
  return { status: res.status, html: await res.text() };
}

/** A signer API call as a browser asking for `accept` makes it. */
async function signIn(accept: string, method: string, path: string, session?: string, json?: unknown) {
  const res = await fetch(`${runtime.baseUrl}/sign/api${path}`, {
    method,
    headers: {
      'accept-language': accept,
      ...(session ? { 'x-signing-session': session } : {}),
      ...(json === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON answers
  const body: any = await res.json();
  return { status: res.status, body };
}

describe('the verify page', () => {
  it('speaks the browser’s language, and the one chosen in its menu, right to left for Hebrew', async () => {
    const ja = await page(`${runtime.baseUrl}/verify`, 'ja, en;q=0.5');
    expect(ja.status).toBe(200);
    expect(htmlTag(ja.html)).toMatch(/ lang="ja" dir="ltr"/);
    expect(ja.html).toContain('<h1 id="title">この書類は本物ですか？</h1>');
    expect(ja.html).toContain('<title>封印された書類を検証</title>');
    // The menu: every language in its own words, the page's chosen.
    expect(ja.html).toContain('<option value="ja" lang="ja" selected>日本語</option>');
    expect(ja.html).toContain('<option value="ar" lang="ar">العربية</option>');

    const he = await page(`${runtime.baseUrl}/verify?lang=he`, 'ja');
    expect(htmlTag(he.html)).toMatch(/ lang="he" dir="rtl"/);
    expect(he.html).toContain('האם המסמך הזה אמיתי?');
    // The script's messages come with the page, in its language.
    expect(he.html).toContain('data-messages="{&quot;verdict.cannotTell&quot;:&quot;אי אפשר לדעת');
    expect((await page(`${runtime.baseUrl}/verify`, 'sv')).html).toContain('Is this document genuine?');
  });

  it('shows the verdict in the chosen language', async () => {
    const res = await fetch(`${runtime.baseUrl}/verify?lang=fr`, {
      method: 'POST',
      headers: { 'content-type': 'application/pdf' },
      body: Buffer.from(b64, 'base64'),
    });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('Ce fichier exact n’a pas été scellé par ce service.');
    expect(html).toContain('<dt>Sceau</dt><dd>aucun : le fichier ne porte pas de signature numérique</dd>');
    expect(html).toContain('<h2 id="verdict-title">Non scellé par ce service</h2>');
    expect(html).toContain('<h3>Vérifications du fichier lui-même</h3>');
  });

  describe('the checks of a sealed file', () => {
    let sealed: Buffer;
    /** The report's English sentences, as esign-verify prints them. */
    let english: string[];
    beforeAll(async () => {
      const identity = newSealIdentity('Verifier test seal');
      const info = { reason: 'Final document', name: 'Open eSignature service', location: 'local' };
      sealed = Buffer.from(await sealPdf(await aPdf(), identity, info));
      const res = await fetch(`${runtime.baseUrl}/verify/api/check`, {
        method: 'POST',
        headers: { 'content-type': 'application/pdf' },
        body: sealed,
      });
      const body = (await res.json()) as { checks: TVerifyReport };
      english = body.checks.checks.flatMap((c) => [c.title, ...(c.next ? [c.next] : [])]);
      expect(english).toContain('Signature 1 (Verifier test seal): the bytes it signed are unchanged.');
    });
    const checkPage = async (lang: string) => {
      const res = await fetch(`${runtime.baseUrl}/verify?lang=${lang}`, {
        method: 'POST',
        headers: { 'content-type': 'application/pdf' },
        body: sealed,
      });
      expect(res.status).toBe(200);
      const html = await res.text();
      return html.slice(html.indexOf('<ul class="checks">'));
    };

    it('are said in Japanese, the names in them kept as they are', async () => {
      const checks = await checkPage('ja');
      expect(checks).toContain(
        '<strong>合格</strong> 署名 1（<bdi>Verifier test seal</bdi>）：署名されたバイトは変更されていません。',
      );
      expect(checks).toContain('ルート <bdi>CN=Verifier test seal</bdi> は信頼リストと照合されていません。');
      expect(checks).toContain('<p class="check-result pass">すべての確認に合格しました。</p>');
      for (const sentence of english) expect(checks).not.toContain(sentence);
      expect(checks).not.toContain('lang="en"');
    });

    it('are said in German', async () => {
      const checks = await checkPage('de');
      expect(checks).toContain('Die signierten Bytes sind unverändert.');
      expect(checks).toContain('Kein Signaturzeitstempel (PAdES B-B)');
      for (const sentence of english) expect(checks).not.toContain(sentence);
    });

    it('come to the page’s script in Arabic beside the unchanged English, data isolated', async () => {
      const res = await fetch(`${runtime.baseUrl}/verify/api/check`, {
        method: 'POST',
        headers: { 'content-type': 'application/pdf', 'accept-language': 'ar' },
        body: sealed,
      });
      const body = (await res.json()) as {
        checks: Omit<TVerifyReport, 'checks'> & {
          checks: (TVerifyReport['checks'][number] & { localized: { title: string; next?: string } })[];
          localized_result: string;
        };
      };
      const digest = body.checks.checks.find((c) => c.id === 'signature-1.digest')!;
      expect(digest.title).toBe('Signature 1 (Verifier test seal): the bytes it signed are unchanged.');
      expect(digest.localized.title).toBe(
        'التوقيع 1 (\u2068Verifier test seal\u2069): البايتات الموقَّعة لم تتغير.',
      );
      expect(digest).toMatchObject({
        said: { title: { key: 'verify.checks.digestUnchanged' } },
      });
      expect(body.checks.localized_result).toBe('نجحت كل الفحوص.');
      const shown = body.checks.checks.flatMap((c) => [c.localized.title, c.localized.next ?? '']);
      for (const sentence of english) expect(shown).not.toContain(sentence);
    });
  });

  it('answers a check without a file in the reader’s language, keeping the code', async () => {
    const form = new FormData();
    form.append('file', new Blob([]), 'empty.pdf');
    const res = await fetch(`${runtime.baseUrl}/verify/api/check`, {
      method: 'POST',
      headers: { 'accept-language': 'ar' },
      body: form,
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { errors: { field: string; message: string }[] };
    expect(isErrorBody(body)).toBe(true);
    expect(body).toMatchObject({
      code: 'invalid',
      message: 'اختر ملف PDF للتحقق منه.',
      detail: 'اختر ملف PDF للتحقق منه.',
    });
    expect(body.errors[0]).toMatchObject({ field: 'file', message: 'يلزم اختيار ملف.' });
  });
});

describe('the portal page', () => {
  const envelope = async (signer: Record<string, unknown> = {}) => {
    const res = await call('POST', '/envelope-templates/', {
      json: {
        name: 'Waiver',
        is_portal: true,
        allow_direct_signing: true,
        documents: [{ key: 'waiver', template_id: docTemplate }],
        signers: [{ key: 'visitor', ...signer }],
      },
    });
    expect(res.status, res.text).toBe(201);
    return res.body.smart_link_url as string;
  };
  const post = (url: string, form: Record<string, string>, accept = 'en') =>
    fetch(url, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': accept },
      body: new URLSearchParams(form).toString(),
    });

  it('isolates the sender’s words on a right-to-left page: the name in <bdi>, the inputs dir="auto"', async () => {
    const he = await page(await envelope({ language: 'he' }), 'he');
    expect(htmlTag(he.html)).toMatch(/ lang="he" dir="rtl"/);
    expect(he.html).toContain('<h1 id="title"><bdi>Waiver</bdi></h1>');
    expect(he.html).toContain('<span class="brand-name"><bdi>Waiver</bdi></span>');
    expect(he.html).toMatch(/<input class="input" id="name" name="name" type="text" dir="auto"/);
    expect(he.html).toMatch(/<input class="input" id="email" name="email" type="email" dir="auto"/);
  });

  it('speaks the role’s language, else the account’s default, else the browser’s; the menu wins', async () => {
    const accounts = createAccountStore(runtime.db, runtime.config.tableName);
    const plain = await envelope();
    expect(htmlTag((await page(plain, 'de')).html)).toMatch(/ lang="de"/);
    await accounts.setLanguage(runtime.demo.accountId, 'pl');
    try {
      const pl = await page(plain, 'de');
      expect(htmlTag(pl.html)).toMatch(/ lang="pl"/);
      expect(pl.html).toContain('Podaj imię i nazwisko oraz adres e-mail');
      expect(pl.html).toContain('>Przejdź do podpisu</button>');
      const ar = await envelope({ language: 'ar' });
      expect(htmlTag((await page(ar, 'de')).html)).toMatch(/ lang="ar" dir="rtl"/);
      const chosen = await page(`${ar}?lang=ja`, 'de');
      expect(htmlTag(chosen.html)).toMatch(/ lang="ja" dir="ltr"/);
      // The form keeps the choice, so what follows speaks it too.
      expect(chosen.html).toMatch(/action="\/portal\/T-[0-9A-Za-z]{8}\?lang=ja"/);
    } finally {
      await accounts.setLanguage(runtime.demo.accountId, undefined);
    }
  });

  it('gives a language chosen on the form to the packet it makes, and says what is wrong in it', async () => {
    const url = await envelope();
    const wrong = await post(`${url}?lang=ja`, { name: ' ', email: 'nope' });
    expect(wrong.status).toBe(400);
    const html = await wrong.text();
    expect(html).toContain('お名前を入力してください。');
    expect(html).toContain('正しいメールアドレスを入力してください。');

    const started = await post(`${url}?lang=ja`, { name: 'Kenji Sato', email: 'kenji@example.com' });
    expect(started.status).toBe(303);
    const signing = await page(started.headers.get('location')!, 'en');
    expect(htmlTag(signing.html)).toMatch(/ lang="ja"/);
    const list = await call('GET', '/bundles/?search=Kenji');
    expect(list.body[0].packets[0].language).toBe('ja');
  });

  it('a link not in use says so in the browser’s language', async () => {
    const res = await page(`${runtime.baseUrl}/portal/T-00000000`, 'fr');
    expect(res.status).toBe(404);
    expect(htmlTag(res.html)).toMatch(/ lang="fr"/);
    expect(res.html).toContain('Ce lien n’est pas actif');
  });
});

describe('the signer API’s errors', () => {
  it('an unknown signing link, in Japanese; the code stays', async () => {
    const res = await signIn('ja', 'POST', '/session', undefined, { token: 'A'.repeat(43) });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({
      code: 'not_found',
      message: 'この署名リンクは無効か、有効期限が切れています。',
      detail: 'この署名リンクは無効か、有効期限が切れています。',
    });
    const session = await signIn('ja', 'GET', '/state', 'B'.repeat(43));
    expect(session.status).toBe(401);
    expect(session.body.message).toBe('署名のセッションが終了しました。署名リンクをもう一度開いてください。');
  });

  it('a field value that does not fit, in Japanese', async () => {
    const b = await call('POST', '/bundles/', {
      json: aBundle(
        {
          packets: [{ key: 'ann', name: 'Ann Lee', email: 'ann@example.com', deliver_via: 'embed' }],
          documents: [
            {
              key: 'lease',
              file_b64: b64,
              fields: [
                {
                  key: 'mail',
                  kind: 'inp',
                  page: 1,
                  x: 10,
                  y: 20,
                  w: 30,
                  h: 5,
                  editors: ['ann'],
                  v_pattern: 'email',
                },
              ],
            },
          ],
        },
        b64,
      ),
    });
    expect(b.status, b.text).toBe(201);
    const session = await openSession(sign, call, b.body.packets[0].id);
    const res = await signIn('ja', 'PUT', '/values', session, {
      values: [{ doc_key: 'lease', field_key: 'mail', value: 'not an email' }],
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'invalid', message: '正しくない値があります。' });
    expect(res.body.errors).toEqual([
      {
        field: 'lease.mail',
        message: '正しいメールアドレスを入力してください。',
        messsage: '正しいメールアドレスを入力してください。',
      },
    ]);
    // The same call in English says what the API says.
    const en = await signIn('en', 'PUT', '/values', session, {
      values: [{ doc_key: 'lease', field_key: 'mail', value: 'not an email' }],
    });
    expect(en.body.errors[0].message).toBe('Enter a valid email address.');
  });

  it('a wrong SMS code, in Arabic, with its plural', async () => {
    const b = await call('POST', '/bundles/', {
      json: aBundle(
        {
          packets: [
            { key: 'ann', name: 'Ann Lee', phone: '+1 555 010 3077', deliver_via: 'embed', auth_sms: true },
          ],
        },
        b64,
      ),
    });
    expect(b.status, b.text).toBe(201);
    const session = await openSession(sign, call, b.body.packets[0].id);
    const early = await signIn('ar', 'POST', '/auth/sms/verify', session, { code: '123456' });
    expect(early.status).toBe(400);
    expect(early.body.message).toBe('انتهت صلاحية الرمز أو استُنفد؛ اطلب رمزًا جديدًا.');
    expect((await signIn('ar', 'POST', '/auth/sms/send', session)).status).toBe(200);
    const texts = (await listMailbox(dataPaths(runtime.dataDir).mailbox)).filter(
      (m) => m.kind === 'sms' && m.phone === '+15550103077',
    );
    const code = /(\d{6})/.exec((texts.at(-1) as { text: string }).text)![1];
    const wrong = await signIn('ar', 'POST', '/auth/sms/verify', session, {
      code: code === '000000' ? '111111' : '000000',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ code: 'invalid', message: 'الرمز غير صحيح.' });
    // Four tries left: Arabic's "few" form.
    expect(wrong.body.errors[0]).toMatchObject({ field: 'code', message: 'رمز خاطئ؛ تبقّت 4 محاولات.' });
  });

  it('a selfie that is no image, in Hebrew', async () => {
    const b = await call('POST', '/bundles/', {
      json: aBundle(
        {
          packets: [
            {
              key: 'ann',
              name: 'Ann Lee',
              email: 'ann@example.com',
              deliver_via: 'embed',
              auth_selfie: true,
            },
          ],
        },
        b64,
      ),
    });
    expect(b.status, b.text).toBe(201);
    const session = await openSession(sign, call, b.body.packets[0].id);
    const res = await fetch(`${runtime.baseUrl}/sign/api/auth/selfie`, {
      method: 'POST',
      headers: { 'accept-language': 'he', 'x-signing-session': session, 'content-type': 'image/png' },
      body: Buffer.from('hello'),
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { code: string; message: string; errors: { message: string }[] };
    expect(body).toMatchObject({ code: 'invalid', message: 'התמונה לא התקבלה.' });
    expect(body.errors[0]!.message).toBe('בחרו תמונה בפורמט JPEG או PNG.');
  });

  it('the sender’s API stays English whatever the caller asks for', async () => {
    const res = await call('GET', '/bundles/nope-nope/', { headers: { 'accept-language': 'ar' } });
    expect(res.status).toBe(404);
    expect(res.body.message).toMatch(/^[\x20-\x7e]+$/);
    const bad = await call('POST', '/bundles/', {
      json: aBundle({ packets: [] }, b64),
      headers: { 'accept-language': 'ja' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Invalid input.');
  });
});
